import { Form, Link } from "react-router";
import {
  type DeskActionData,
  type DeskPerson,
  type DeskPrice,
  type DeskTicket,
  loadStaffDesk,
  staffDeskAction,
} from "../features/admin/staff-desk.server";
import { AccessErrorPage } from "../features/admin/access";
import type { Route } from "./+types/staff-desk";

export const meta: Route.MetaFunction = () => [{ title: "Staff Desk — LinkUp" }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadStaffDesk(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return staffDeskAction(request, context);
}

export default function StaffDesk({ loaderData, actionData }: Route.ComponentProps) {
  const { q, tickets, people, sosAreas, moreSos, prices, editing, isAdmin } = loaderData;
  const shownIds = new Set([
    ...tickets.map((t) => t.id),
    ...(people ?? []).map((p) => p.id),
    ...sosAreas.flatMap((a) => a.sos.map((x) => x.id)),
  ]);
  return (
    <div className="staff-desk">
      <section className="card">
        <h1>Staff Desk</h1>
        {isAdmin ? (
          <p>
            <Link to="/database-admin">Database Admin</Link> · <Link to="/analytics-dashboard">Analytics Dashboard</Link>
          </p>
        ) : null}
        <Form method="get" className="form" role="search" aria-label="Find a person">
          <label htmlFor="desk-q">Phone or nickname</label>
          <input id="desk-q" name="q" defaultValue={q} minLength={2} maxLength={64} required />
          <button type="submit" className="btn btn-primary">
            Find
          </button>
        </Form>
        {people ? (
          people.length === 0 ? (
            <p role="status">Nobody matches “{q}”.</p>
          ) : (
            <ul aria-label="People found">
              {people.map((p) => (
                <PersonItem key={p.id} p={p} answer={actionData?.target === p.id ? actionData : undefined} />
              ))}
            </ul>
          )
        ) : null}
      </section>
      <section className="card" aria-labelledby="sos-title">
        <h2 id="sos-title">Active SOS by area</h2>
        {sosAreas.length === 0 ? (
          <p>No active SOS.</p>
        ) : (
          sosAreas.map((a) => (
            <div key={a.geohash ?? "unknown"}>
              <h3>
                {a.area} ({a.sos.length})
              </h3>
              <ul aria-label={`Active SOS in ${a.area}`}>
                {a.sos.map((x) => (
                  <li key={x.id} className="ticket">
                    <p>
                      <strong>{x.type}</strong> from {x.nickname} by {x.channel}
                      {x.locationText ? ` · ${x.locationText}` : ""} ·{" "}
                      <time dateTime={x.broadcastedAt}>{x.broadcastedAt.slice(0, 16).replace("T", " ")}</time>
                    </p>
                    <p>{x.message}</p>
                    <Form method="post">
                      <input type="hidden" name="intent" value="resolve-sos" />
                      <input type="hidden" name="sosId" value={x.id} />
                      <button type="submit" className="btn" aria-label={`Resolve SOS from ${x.nickname}: ${x.message.slice(0, 40)}`}>
                        Resolve
                      </button>
                    </Form>
                    <Answer answer={actionData?.target === x.id ? actionData : undefined} />
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
        {moreSos ? <p className="small muted">Showing the newest 200 active SOS.</p> : null}
      </section>
      <section className="card" aria-labelledby="queue-title">
        <h2 id="queue-title">Support tickets</h2>
        <p className="small muted">Premium and Enterprise first, then the oldest.</p>
        {tickets.length === 0 ? (
          <p>No open tickets.</p>
        ) : (
          <ul aria-label="Ticket queue">
            {tickets.map((t) => (
              <TicketItem key={t.id} t={t} answer={actionData?.target === t.id ? actionData : undefined} />
            ))}
          </ul>
        )}
        {actionData && !shownIds.has(actionData.target) ? (
          <p role="status" className={actionData.ok ? "success" : "error"}>
            {actionData.message}
          </p>
        ) : null}
      </section>
      <MarketPrices prices={prices} editing={editing} answer={actionData?.target === "market" ? actionData : undefined} />
    </div>
  );
}

const PRICE_FIELDS = [
  { name: "commodity", label: "Item", type: "text", max: 60 },
  { name: "market", label: "Market", type: "text", max: 80 },
  { name: "city", label: "Area (town)", type: "text", max: 60 },
  { name: "priceNgn", label: "Price (₦)", type: "number", max: 9 },
  { name: "unit", label: "Unit", type: "text", max: 40 },
  { name: "source", label: "Source", type: "text", max: 120 },
  { name: "date", label: "Date seen", type: "date", max: 10 },
] as const;

/** The market price table: the assistant, USSD and WhatsApp quote these with their source and date. */
function MarketPrices({ prices, editing, answer }: { prices: DeskPrice[]; editing: DeskPrice | null; answer?: DeskActionData }) {
  return (
    <section className="card" aria-labelledby="market-title" id="market">
      <h2 id="market-title">Market prices</h2>
      <p className="small muted">Setting an item at a market again replaces its price. Prices older than 30 days are not quoted.</p>
      <Form method="post" className="form" aria-label={editing ? `Edit price of ${editing.commodity} at ${editing.market}` : "Set a price"}>
        <input type="hidden" name="intent" value="set-price" />
        {PRICE_FIELDS.map((f) => (
          <div key={f.name}>
            <label htmlFor={`price-${f.name}`}>{f.label}</label>
            <input
              id={`price-${f.name}`}
              name={f.name}
              type={f.type}
              required
              {...(f.type === "number" ? { min: 1, step: 1 } : { maxLength: f.max })}
              defaultValue={editing ? String(editing[f.name]) : undefined}
              key={editing?.id ?? "new"}
            />
          </div>
        ))}
        <button type="submit" className="btn btn-primary">
          Save price
        </button>
      </Form>
      <Answer answer={answer} />
      <details>
        <summary>All prices ({prices.length})</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                {["Item", "Market", "Area", "Price", "Unit", "Source", "Date", ""].map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {prices.map((p) => (
                <tr key={p.id}>
                  <td>{p.commodity}</td>
                  <td>{p.market}</td>
                  <td>{p.city}</td>
                  <td>₦{p.priceNgn.toLocaleString("en-NG")}</td>
                  <td>{p.unit}</td>
                  <td>{p.source}</td>
                  <td>{p.date}</td>
                  <td>
                    <Link to={`?price=${encodeURIComponent(p.id)}#market`} aria-label={`Edit ${p.commodity} at ${p.market}`}>
                      Edit
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete-price" />
                      <input type="hidden" name="priceId" value={p.id} />
                      <button type="submit" className="btn btn-ghost" aria-label={`Remove ${p.commodity} at ${p.market}`}>
                        Remove
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function Answer({ answer }: { answer?: DeskActionData }) {
  return answer ? (
    <p role="status" className={answer.ok ? "success" : "error"}>
      {answer.message}
    </p>
  ) : null;
}

function PersonItem({ p, answer }: { p: DeskPerson; answer?: DeskActionData }) {
  return (
    <li className="person">
      <p>
        <strong>{p.nickname}</strong> {p.phone ?? "no phone"} · {p.verified ? "verified" : "not verified"} · {p.tier}
        {p.tierExpiresAt ? ` until ${p.tierExpiresAt.slice(0, 10)}` : ""} · role {p.role} · {p.sessions} sessions · {p.openSos} open SOS ·{" "}
        {p.openTickets} open tickets
        {p.banned ? (
          <>
            {" "}
            · <span className="tag">Banned</span> {p.banReason}
          </>
        ) : null}
      </p>
      {p.banned ? (
        <Form method="post">
          <input type="hidden" name="intent" value="unban" />
          <input type="hidden" name="personId" value={p.id} />
          <button type="submit" className="btn" aria-label={`Unban ${p.nickname}`}>
            Unban
          </button>
        </Form>
      ) : p.role !== "admin" ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="ban" />
          <input type="hidden" name="personId" value={p.id} />
          <label htmlFor={`ban-${p.id}`}>Reason for banning {p.nickname}</label>
          <input id={`ban-${p.id}`} name="reason" minLength={3} maxLength={300} required />
          <button type="submit" className="btn btn-danger" aria-label={`Ban ${p.nickname}`}>
            Ban
          </button>
        </Form>
      ) : null}
      {p.tier !== "free" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="end-grant" />
          <input type="hidden" name="personId" value={p.id} />
          <button type="submit" className="btn" aria-label={`End complimentary tier of ${p.nickname}`}>
            End complimentary tier
          </button>
        </Form>
      ) : p.verified ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="grant" />
          <input type="hidden" name="personId" value={p.id} />
          <input type="hidden" name="tier" value="premium" />
          <label htmlFor={`grant-until-${p.id}`}>Complimentary Premium for {p.nickname} until</label>
          <input id={`grant-until-${p.id}`} name="endsOn" type="date" required />
          <label htmlFor={`grant-reason-${p.id}`}>Reason (e.g. paid by phone)</label>
          <input id={`grant-reason-${p.id}`} name="reason" maxLength={300} required />
          <button type="submit" className="btn btn-primary" aria-label={`Grant complimentary Premium to ${p.nickname}`}>
            Grant Premium
          </button>
        </Form>
      ) : null}
      <Answer answer={answer} />
    </li>
  );
}

function TicketItem({ t, answer }: { t: DeskTicket; answer?: DeskActionData }) {
  const who = t.nickname ?? t.phone ?? "Unknown";
  return (
    <li className="ticket">
      <p>
        <strong>{who}</strong> {t.priority ? <span className="tag">{t.tier}</span> : null} <span className="tag">{t.category}</span>{" "}
        <time dateTime={t.createdAt}>{t.createdAt.slice(0, 16).replace("T", " ")}</time>
      </p>
      <p>{t.message}</p>
      {t.subjectId ? (
        <p>
          Reported: <Link to={`/staff-desk?q=${encodeURIComponent(t.subjectId)}`}>{t.subjectNickname ?? "Deleted account"}</Link>
        </p>
      ) : null}
      <Form method="post" className="form">
        <input type="hidden" name="ticketId" value={t.id} />
        <label htmlFor={`reply-${t.id}`}>Reply to {who}</label>
        <textarea id={`reply-${t.id}`} name="message" rows={2} maxLength={1000} required />
        <label>
          <input type="checkbox" name="close" /> Close after replying
        </label>
        <button type="submit" className="btn btn-primary" aria-label={`Send reply to ${who}`}>
          Send reply
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name="ticketId" value={t.id} />
        <input type="hidden" name="intent" value="close" />
        <button type="submit" className="btn btn-ghost" aria-label={`Close ticket from ${who}`}>
          Close
        </button>
      </Form>
      <Answer answer={answer} />
    </li>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccessErrorPage error={error} title="Staff Desk" refusedTitle="Staff Access Required" fallback="The staff desk could not be loaded." />
  );
}
