import { Form, Link } from "react-router";
import {
  type DeskActionData,
  type DeskPerson,
  type DeskPrice,
  type DeskPriceReport,
  type DeskTicket,
  loadStaffDesk,
  staffDeskAction,
} from "../features/admin/staff-desk.server";
import { AccessErrorPage } from "../features/admin/access";
import type { MessageKey } from "../../../core/i18n/en";
import { PRICE_WINDOW_DAYS } from "../../../core/price-reports";
import { TEAM_SUPPORT_RESPONSE_HOURS } from "../../../core/teams";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/staff-desk";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sd.metaTitle", "Staff Desk — LinkUp") }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadStaffDesk(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return staffDeskAction(request, context);
}

export default function StaffDesk({ loaderData, actionData }: Route.ComponentProps) {
  const {
    q,
    tickets,
    staff,
    people,
    sosAreas,
    moreSos,
    deadLetters,
    prices,
    editing,
    priceReports,
    priceReportCount,
    isAdmin,
    meId,
    grantMax,
  } = loaderData;
  const t = useT();
  const shownIds = new Set([
    ...tickets.map((ticket) => ticket.id),
    ...(people ?? []).map((p) => p.id),
    ...sosAreas.flatMap((a) => a.sos.map((x) => x.id)),
    ...deadLetters.map((d) => d.id),
    "price-reports",
  ]);
  return (
    <div className="staff-desk">
      <section className="card">
        <h1>{t("admin.staffDesk")}</h1>
        {isAdmin ? (
          <p>
            <Link to="/database-admin">{t("admin.databaseAdmin")}</Link> ·{" "}
            <Link to="/analytics-dashboard">{t("home.teaser.analytics.title")}</Link>
          </p>
        ) : null}
        <Form method="get" className="form" role="search" aria-label={t("sd.find")}>
          <label htmlFor="desk-q">{t("sd.phoneOrNickname")}</label>
          <input id="desk-q" name="q" defaultValue={q} minLength={2} maxLength={64} required />
          <button type="submit" className="btn btn-primary">
            {t("sd.findButton")}
          </button>
        </Form>
        {people ? (
          people.length === 0 ? (
            <p role="status">{t("sd.nobody", { q })}</p>
          ) : (
            <ul aria-label={t("sd.peopleFound")}>
              {people.map((p) => (
                <PersonItem
                  key={p.id}
                  p={p}
                  self={p.id === meId}
                  grantMax={grantMax}
                  answer={actionData?.target === p.id ? actionData : undefined}
                />
              ))}
            </ul>
          )
        ) : null}
      </section>
      <section className="card" aria-labelledby="sos-title">
        <h2 id="sos-title">{t("sd.sosTitle")}</h2>
        {sosAreas.length === 0 ? (
          <p>{t("sd.noSos")}</p>
        ) : (
          sosAreas.map((a) => (
            <div key={a.geohash ?? "unknown"}>
              <h3>
                {a.area} ({a.sos.length})
              </h3>
              <ul aria-label={t("sd.sosIn", { area: a.area })}>
                {a.sos.map((x) => (
                  <li key={x.id} className="ticket">
                    <p>
                      <strong>{x.type}</strong> {t("sd.sosFrom", { nickname: x.nickname, channel: x.channel })}
                      {x.locationText ? ` · ${x.locationText}` : ""} ·{" "}
                      <time dateTime={x.broadcastedAt}>{x.broadcastedAt.slice(0, 16).replace("T", " ")}</time>
                    </p>
                    <p>{x.message}</p>
                    <Form method="post">
                      <input type="hidden" name="intent" value="resolve-sos" />
                      <input type="hidden" name="sosId" value={x.id} />
                      <button
                        type="submit"
                        className="btn"
                        aria-label={t("sd.resolveLabel", { nickname: x.nickname, message: x.message.slice(0, 40) })}
                      >
                        {t("sd.resolve")}
                      </button>
                    </Form>
                    <Answer answer={actionData?.target === x.id ? actionData : undefined} />
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
        {moreSos ? <p className="text-sm text-muted">{t("sd.moreSos")}</p> : null}
        {/* Fan-out messages the queue gave up on (docs/decisions/054-sos-a-durable-job.md): staff send them again. */}
        <h3 id="dead-title">{t("sd.deadTitle")}</h3>
        {deadLetters.length === 0 ? (
          <p>{t("sd.noDead")}</p>
        ) : (
          <ul aria-labelledby="dead-title">
            {deadLetters.map((d) => {
              const sos = (d.broadcastId ?? "?").slice(0, 8);
              return (
                <li key={d.id} className="ticket">
                  <p>
                    {t("sd.deadLetter", {
                      sos,
                      who: d.people === null ? t("sd.deadPage") : t("sd.deadPeople", { count: d.people }),
                      attempts: d.attempts,
                    })}{" "}
                    · <time dateTime={d.receivedAt}>{d.receivedAt.slice(0, 16).replace("T", " ")}</time>
                  </p>
                  {d.malformed ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="replay-dead-letter" />
                      <input type="hidden" name="deadLetterId" value={d.id} />
                      <button type="submit" className="btn" aria-label={t("sd.replayLabel", { sos })}>
                        {t("sd.replay")}
                      </button>
                    </Form>
                  )}
                  <Answer answer={actionData?.target === d.id ? actionData : undefined} />
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="queue-title">
        <h2 id="queue-title">{t("sd.tickets")}</h2>
        <p className="text-sm text-muted">{t("sd.ticketsOrder")}</p>
        {tickets.length === 0 ? (
          <p>{t("sd.noTickets")}</p>
        ) : (
          <ul aria-label={t("sd.queue")}>
            {tickets.map((ticket) => (
              <TicketItem
                key={ticket.id}
                ticket={ticket}
                staff={isAdmin ? staff : null}
                answer={actionData?.target === ticket.id ? actionData : undefined}
              />
            ))}
          </ul>
        )}
        {actionData && !shownIds.has(actionData.target) ? (
          <p role="status" className={actionData.ok ? "text-ok" : "text-danger"}>
            {actionData.message}
          </p>
        ) : null}
      </section>
      <PriceReports
        reports={priceReports}
        count={priceReportCount}
        answer={actionData?.target === "price-reports" ? actionData : undefined}
      />
      <MarketPrices prices={prices} editing={editing} answer={actionData?.target === "market" ? actionData : undefined} />
    </div>
  );
}

/**
 * Prices people reported (docs/decisions/068-market-prices-people-report.md): outliers first and flagged, each
 * removable (audited), and its reporter a link to their entry above, where the ban form is.
 */
function PriceReports({ reports, count, answer }: { reports: DeskPriceReport[]; count: number; answer?: DeskActionData }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="reports-title" id="price-reports">
      <h2 id="reports-title">{t("sd.reportsTitle")}</h2>
      <p className="text-sm text-muted">{t("sd.reportsNote", { days: PRICE_WINDOW_DAYS })}</p>
      <Answer answer={answer} />
      {reports.length === 0 ? (
        <p>{t("sd.noReports", { days: PRICE_WINDOW_DAYS })}</p>
      ) : (
        <ul aria-labelledby="reports-title">
          {reports.map((r) => {
            const what = { price: t.naira(r.priceNgn), unit: r.unit, item: r.item, market: r.market };
            return (
              <li key={r.id} className="ticket">
                <p>
                  {r.standing === "outlier" ? <span className="tag">{t("sd.outlier")}</span> : null}
                  {r.standing === "replaced" ? <span className="tag">{t("sd.replaced")}</span> : null}{" "}
                  {t("sd.priceReport", { ...what, channel: r.channel })} ·{" "}
                  <time dateTime={r.reportedAt}>{r.reportedAt.slice(0, 16).replace("T", " ")}</time>
                </p>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-price-report" />
                  <input type="hidden" name="reportId" value={r.id} />
                  <button type="submit" className="btn" aria-label={t("sd.removeReportLabel", what)}>
                    {t("sd.remove")}
                  </button>
                </Form>
                <Link to={`/staff-desk?q=${encodeURIComponent(r.reporterId)}`} aria-label={t("sd.banReporterLabel", what)}>
                  {t("sd.banReporter")}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      {count > reports.length ? <p className="text-sm text-muted">{t("sd.moreReports", { shown: reports.length, count })}</p> : null}
    </section>
  );
}

const PRICE_FIELDS = [
  { name: "commodity", label: "sd.field.item", type: "text", max: 60 },
  { name: "market", label: "sd.field.market", type: "text", max: 80 },
  { name: "city", label: "sd.field.city", type: "text", max: 60 },
  { name: "priceNgn", label: "sd.field.price", type: "number", max: 9 },
  { name: "unit", label: "sd.field.unit", type: "text", max: 40 },
  { name: "source", label: "sd.field.source", type: "text", max: 120 },
  { name: "date", label: "sd.field.date", type: "date", max: 10 },
] as const satisfies readonly { name: string; label: MessageKey; type: string; max: number }[];

const PRICE_COLUMNS: MessageKey[] = [
  "sd.field.item",
  "sd.field.market",
  "sd.col.area",
  "sd.col.price",
  "sd.field.unit",
  "sd.field.source",
  "sd.col.date",
];

/** The market price table: the assistant, USSD and WhatsApp quote these with their source and date. */
function MarketPrices({ prices, editing, answer }: { prices: DeskPrice[]; editing: DeskPrice | null; answer?: DeskActionData }) {
  const t = useT();
  return (
    <section className="card" aria-labelledby="market-title" id="market">
      <h2 id="market-title">{t("sd.marketTitle")}</h2>
      <p className="text-sm text-muted">{t("sd.marketNote")}</p>
      <Form
        method="post"
        className="form"
        aria-label={editing ? t("sd.editPrice", { item: editing.commodity, market: editing.market }) : t("sd.setPrice")}
      >
        <input type="hidden" name="intent" value="set-price" />
        {PRICE_FIELDS.map((f) => (
          <div key={f.name}>
            <label htmlFor={`price-${f.name}`}>{t(f.label)}</label>
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
          {t("sd.savePrice")}
        </button>
      </Form>
      <Answer answer={answer} />
      <details>
        <summary>{t("sd.allPrices", { count: prices.length })}</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                {PRICE_COLUMNS.map((h) => (
                  <th key={h} scope="col">
                    {t(h)}
                  </th>
                ))}
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {prices.map((p) => (
                <tr key={p.id}>
                  <td>{p.commodity}</td>
                  <td>{p.market}</td>
                  <td>{p.city}</td>
                  <td>{t.naira(p.priceNgn)}</td>
                  <td>{p.unit}</td>
                  <td>{p.source}</td>
                  <td>{p.date}</td>
                  <td>
                    <Link
                      to={`?price=${encodeURIComponent(p.id)}#market`}
                      aria-label={t("sd.editLabel", { item: p.commodity, market: p.market })}
                    >
                      {t("sd.edit")}
                    </Link>
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete-price" />
                      <input type="hidden" name="priceId" value={p.id} />
                      <button
                        type="submit"
                        className="btn btn-ghost"
                        aria-label={t("sd.removeLabel", { item: p.commodity, market: p.market })}
                      >
                        {t("sd.remove")}
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
    <p role="status" className={answer.ok ? "text-ok" : "text-danger"}>
      {answer.message}
    </p>
  ) : null;
}

function PersonItem({ p, self, grantMax, answer }: { p: DeskPerson; self: boolean; grantMax: string; answer?: DeskActionData }) {
  const t = useT();
  return (
    <li className="person">
      <p>
        <strong>{p.nickname}</strong>{" "}
        {t("sd.person", {
          phone: p.phone ?? t("sd.noPhone"),
          verified: p.verified ? t("sd.verified") : t("sd.notVerified"),
          tier: p.tier,
          until: p.tierExpiresAt ? t("sd.until", { date: p.tierExpiresAt.slice(0, 10) }) : "",
          role: p.role,
          sessions: p.sessions,
          sos: p.openSos,
          tickets: p.openTickets,
        })}
        {p.banned ? (
          <>
            {" "}
            · <span className="tag">{t("sd.banned")}</span> {p.banReason}
          </>
        ) : null}
      </p>
      {p.banned ? (
        <Form method="post">
          <input type="hidden" name="intent" value="unban" />
          <input type="hidden" name="personId" value={p.id} />
          <button type="submit" className="btn" aria-label={t("sd.unbanLabel", { name: p.nickname })}>
            {t("sd.unban")}
          </button>
        </Form>
      ) : p.role !== "admin" ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="ban" />
          <input type="hidden" name="personId" value={p.id} />
          <label htmlFor={`ban-${p.id}`}>{t("sd.banReason", { name: p.nickname })}</label>
          <input id={`ban-${p.id}`} name="reason" minLength={3} maxLength={300} required />
          <button type="submit" className="btn btn-danger" aria-label={t("sd.banLabel", { name: p.nickname })}>
            {t("sd.ban")}
          </button>
        </Form>
      ) : null}
      {p.tier !== "free" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="end-grant" />
          <input type="hidden" name="personId" value={p.id} />
          <button type="submit" className="btn" aria-label={t("sd.endGrantLabel", { name: p.nickname })}>
            {t("sd.endGrant")}
          </button>
        </Form>
      ) : p.verified && !self ? (
        // No grant to oneself: another admin grants it (docs/decisions/049-abuse-bans-claims-and-names.md).
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="grant" />
          <input type="hidden" name="personId" value={p.id} />
          <input type="hidden" name="tier" value="premium" />
          <label htmlFor={`grant-until-${p.id}`}>{t("sd.grantUntil", { name: p.nickname })}</label>
          <input id={`grant-until-${p.id}`} name="endsOn" type="date" max={grantMax} required />
          <label htmlFor={`grant-reason-${p.id}`}>{t("sd.grantReason")}</label>
          <input id={`grant-reason-${p.id}`} name="reason" maxLength={300} required />
          <button type="submit" className="btn btn-primary" aria-label={t("sd.grantLabel", { name: p.nickname })}>
            {t("sd.grant")}
          </button>
        </Form>
      ) : null}
      <Answer answer={answer} />
    </li>
  );
}

function TicketItem({
  ticket: tk,
  staff,
  answer,
}: {
  ticket: DeskTicket;
  /** Staff an admin may name as the team's dedicated support (null for staff who are not admins). */
  staff: { id: string; nickname: string }[] | null;
  answer?: DeskActionData;
}) {
  const t = useT();
  const who = tk.nickname ?? tk.phone ?? t("sd.unknown");
  return (
    <li className="ticket">
      <p>
        <strong>{who}</strong> {tk.priority ? <span className="tag">{tk.tier}</span> : null}{" "}
        {tk.team ? <span className="tag">{t("sd.team", { team: tk.team })}</span> : null} <span className="tag">{tk.category}</span>{" "}
        <time dateTime={tk.createdAt}>{tk.createdAt.slice(0, 16).replace("T", " ")}</time>
      </p>
      {tk.team ? (
        <p className="text-sm">
          {tk.supportStaff ? t("sd.dedicated", { name: tk.supportStaff }) : t("sd.noDedicated")} ·{" "}
          {t("sd.target", { hours: TEAM_SUPPORT_RESPONSE_HOURS })}
        </p>
      ) : null}
      <p>{tk.message}</p>
      {tk.team && tk.orgId && staff ? (
        <Form method="post" className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="ticketId" value={tk.id} />
          <input type="hidden" name="orgId" value={tk.orgId} />
          <input type="hidden" name="intent" value="support-staff" />
          <label>
            {t("sd.nameStaff", { team: tk.team })}{" "}
            <select name="staffId" defaultValue={tk.supportStaffId ?? ""}>
              <option value="">{t("sd.nobodyNamed")}</option>
              {staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.nickname}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn btn-ghost" aria-label={t("sd.saveStaffLabel", { team: tk.team })}>
            {t("sd.saveStaff")}
          </button>
        </Form>
      ) : null}
      {tk.subjectId ? (
        <p>
          {t("sd.reported")}{" "}
          <Link to={`/staff-desk?q=${encodeURIComponent(tk.subjectId)}`}>{tk.subjectNickname ?? t("sd.deletedAccount")}</Link>
        </p>
      ) : null}
      <Form method="post" className="form">
        <input type="hidden" name="ticketId" value={tk.id} />
        <label htmlFor={`reply-${tk.id}`}>{t("sd.replyTo", { name: who })}</label>
        <textarea id={`reply-${tk.id}`} name="message" rows={2} maxLength={1000} required />
        <label>
          <input type="checkbox" name="close" /> {t("sd.closeAfter")}
        </label>
        <button type="submit" className="btn btn-primary" aria-label={t("sd.sendReplyLabel", { name: who })}>
          {t("sd.sendReply")}
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name="ticketId" value={tk.id} />
        <input type="hidden" name="intent" value="close" />
        <button type="submit" className="btn btn-ghost" aria-label={t("sd.closeLabel", { name: who })}>
          {t("sd.close")}
        </button>
      </Form>
      <Answer answer={answer} />
    </li>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useT();
  return <AccessErrorPage error={error} title={t("admin.staffDesk")} refusedTitle={t("sd.refused")} fallback={t("sd.failed")} />;
}
