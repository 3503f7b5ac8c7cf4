// Group invitations to accept or decline, leaving a group, blocking a person (docs/decisions/015-...). Plain
// forms posted to /chat (routes/chat.tsx), so they work before and without JavaScript.
import { Form, Link } from "react-router";
import { REPORT_REASONS, type ReportReason } from "../../../../core/report-reasons";
import { DIRECT_REQUEST_LIMITS } from "../../../../core/room-limits";
import type { BlockedInfo, InvitationInfo, RoomSummary } from "../../../../core/rooms";
import { useT } from "../../i18n";

function Intent({ intent, roomId, userId }: { intent: string; roomId?: string; userId?: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {roomId ? <input type="hidden" name="roomId" value={roomId} /> : null}
      {userId ? <input type="hidden" name="userId" value={userId} /> : null}
    </>
  );
}

/** Groups the person was asked into: they join only by accepting. */
export function Invitations({ invitations }: { invitations: InvitationInfo[] }) {
  const t = useT();
  if (invitations.length === 0) return null;
  return (
    <section className="card invitations" aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t("mem.invitations")}</h2>
      <ul aria-label={t("mem.groupInvitations")}>
        {invitations.map((i) => (
          <li key={i.roomId} className="flex flex-wrap items-center gap-2">
            <span>
              {i.invitedByName ? t("mem.invitedBy", { name: i.invitedByName }) : t("mem.invited")} <strong>{i.name}</strong>
            </span>
            <Form method="post" action="/chat">
              <Intent intent="accept" roomId={i.roomId} />
              <button type="submit" className="btn btn-primary" aria-label={t("mem.acceptLabel", { name: i.name })}>
                {t("mem.accept")}
              </button>
            </Form>
            <Form method="post" action="/chat">
              <Intent intent="decline" roomId={i.roomId} />
              <button type="submit" className="btn btn-ghost" aria-label={t("mem.declineLabel", { name: i.name })}>
                {t("mem.decline")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Message requests waiting for this person (docs/decisions/050-consent-before-a-stranger-reaches-you.md), except the one
 * open on screen, which shows its own answer bar.
 */
export function MessageRequests({ rooms, current }: { rooms: RoomSummary[]; current: string | null }) {
  const t = useT();
  const waiting = rooms.filter((r) => r.request?.direction === "incoming" && r.id !== current);
  if (waiting.length === 0) return null;
  return (
    <section className="card invitations" aria-labelledby="requests-title">
      <h2 id="requests-title">{t("req.title")}</h2>
      <ul aria-label={t("req.list")}>
        {waiting.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center gap-2">
            <span>{t("req.from", { name: r.name })}</span>
            <Link to={`/chat?room=${encodeURIComponent(r.id)}`} aria-label={t("req.readLabel", { name: r.name })}>
              {t("req.read")}
            </Link>
            <RequestAnswers room={r} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Accept, Decline and Block for one request: plain forms, so they work before JavaScript. */
function RequestAnswers({ room }: { room: RoomSummary }) {
  const t = useT();
  return (
    <>
      <Form method="post" action="/chat">
        <Intent intent="accept-request" roomId={room.id} />
        <button type="submit" className="btn btn-primary" aria-label={t("req.acceptLabel", { name: room.name })}>
          {t("mem.accept")}
        </button>
      </Form>
      <Form method="post" action="/chat">
        <Intent intent="decline-request" roomId={room.id} />
        <button type="submit" className="btn btn-ghost" aria-label={t("req.declineLabel", { name: room.name })}>
          {t("mem.decline")}
        </button>
      </Form>
      <Form method="post" action="/chat">
        <Intent intent="block-request" roomId={room.id} userId={room.peerId} />
        <button type="submit" className="btn btn-ghost" aria-label={t("mem.blockLabel", { name: room.name })}>
          {t("mem.block")}
        </button>
      </Form>
    </>
  );
}

/** The open direct chat while it is a request: what each side can and cannot do; the person asked answers here. */
function RequestBar({ room }: { room: RoomSummary }) {
  const t = useT();
  if (room.request?.direction === "outgoing")
    return (
      <p className="text-muted" role="status">
        {t("req.outgoingNote", { name: room.name, count: DIRECT_REQUEST_LIMITS.firstMessages })}
      </p>
    );
  return (
    <section className="card" aria-label={t("req.barLabel", { name: room.name })}>
      <p>{t("req.incomingNote", { name: room.name })}</p>
      <div className="flex flex-wrap items-center gap-2">
        <RequestAnswers room={room} />
        {room.peerId ? <ReportForm roomId={room.id} userId={room.peerId} name={room.name} /> : null}
      </div>
    </section>
  );
}

/** Leave a group; block or unblock the other person of a direct chat; answer a message request. */
export function MembershipActions({ room, blocked }: { room: RoomSummary; blocked: BlockedInfo[] }) {
  const t = useT();
  if (room.kind === "dm" && room.request?.direction === "incoming") return <RequestBar room={room} />;
  // A team room is joined and left with the team (docs/decisions/067-enterprise-teams.md).
  if (room.team)
    return (
      <p className="flex flex-wrap items-start gap-2">
        <Link to="/team">{t("mem.teamPage")}</Link>
      </p>
    );
  if (room.kind === "group")
    return (
      <Form method="post" action="/chat" className="flex flex-wrap items-start gap-2">
        <Intent intent="leave" roomId={room.id} />
        <button type="submit" className="btn btn-ghost" aria-label={t("mem.leaveLabel", { name: room.name })}>
          {t("mem.leave")}
        </button>
      </Form>
    );
  if (room.kind !== "dm" || !room.peerId) return null;
  const isBlocked = blocked.some((b) => b.userId === room.peerId);
  return (
    <div className="flex flex-wrap items-start gap-2">
      {room.request ? <RequestBar room={room} /> : null}
      <Form method="post" action="/chat">
        <Intent intent={isBlocked ? "unblock" : "block"} roomId={room.id} userId={room.peerId} />
        <button
          type="submit"
          className="btn btn-ghost"
          aria-label={t(isBlocked ? "mem.unblockLabel" : "mem.blockLabel", { name: room.name })}
        >
          {isBlocked ? t("mem.unblock") : t("mem.block")}
        </button>
      </Form>
      <ReportForm roomId={room.id} userId={room.peerId} name={room.name} />
    </div>
  );
}

const REASON_KEYS = {
  spam: "report.reason.spam",
  harassment: "report.reason.harassment",
  scam: "report.reason.scam",
  hate: "report.reason.hate",
  impersonation: "report.reason.impersonation",
  other: "report.reason.other",
} as const satisfies Record<ReportReason, string>;

/** Report the person to the staff desk (docs/decisions/038-reports-and-device-bans.md): a native disclosure and a plain form. */
export function ReportForm({ roomId, userId, name }: { roomId: string; userId: string; name: string }) {
  const t = useT();
  const id = `report-${userId}`;
  return (
    <details className="open:basis-full [&>summary]:list-none">
      <summary className="btn btn-ghost" aria-label={t("report.openLabel", { name })}>
        {t("report.open")}
      </summary>
      <Form method="post" action="/chat" className="form">
        <Intent intent="report" roomId={roomId} userId={userId} />
        <label htmlFor={`${id}-reason`}>{t("report.reason")}</label>
        <select id={`${id}-reason`} name="reason" required defaultValue="">
          <option value="" disabled>
            …
          </option>
          {REPORT_REASONS.map((r) => (
            <option key={r} value={r}>
              {t(REASON_KEYS[r])}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-details`}>{t("report.details")}</label>
        <textarea id={`${id}-details`} name="details" rows={2} maxLength={500} />
        <p className="text-muted">{t("report.note")}</p>
        <button type="submit" className="btn btn-primary">
          {t("report.send")}
        </button>
      </Form>
    </details>
  );
}
