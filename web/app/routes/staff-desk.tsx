import { Form, isRouteErrorResponse, Link } from "react-router";
import { type DeskActionData, type DeskPerson, type DeskTicket, loadStaffDesk, staffDeskAction } from "../features/admin/staff-desk.server";
import type { Route } from "./+types/staff-desk";

export const meta: Route.MetaFunction = () => [{ title: "Staff Desk — LinkUp" }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadStaffDesk(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return staffDeskAction(request, context);
}

export default function StaffDesk({ loaderData, actionData }: Route.ComponentProps) {
  const { q, tickets, people, isAdmin } = loaderData;
  return (
    <div className="staff-desk">
      <section className="card">
        <h1>Staff Desk</h1>
        {isAdmin ? (
          <p>
            <Link to="/database-admin">Database Admin</Link>
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
        {actionData && !tickets.some((t) => t.id === actionData.target) && !people?.some((p) => p.id === actionData.target) ? (
          <p role="status" className={actionData.ok ? "success" : "error"}>
            {actionData.message}
          </p>
        ) : null}
      </section>
    </div>
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
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === "string" ? error.data.message : "The staff desk could not be loaded.";
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="card">
      <h1>{status === 403 ? "Staff Access Required" : status === 401 ? "Sign In Required" : "Staff Desk"}</h1>
      <p role="alert">{message}</p>
      {status === 401 ? (
        <Link to="/signup-verification?step=verify-phone" className="btn btn-primary">
          Verify your phone
        </Link>
      ) : (
        <Link to="/" className="btn">
          Back to LinkUp
        </Link>
      )}
    </section>
  );
}
