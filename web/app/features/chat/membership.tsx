// Group invitations to accept or decline, leaving a group, blocking a person (docs/decisions/015-...). Plain
// forms posted to /chat (routes/chat.tsx), so they work before and without JavaScript.
import { Form } from "react-router";
import { REPORT_REASONS, type ReportReason } from "../../../../core/report-reasons";
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
          <li key={i.roomId} className="row">
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

/** Leave a group; block or unblock the other person of a direct chat. */
export function MembershipActions({ room, blocked }: { room: RoomSummary; blocked: BlockedInfo[] }) {
  const t = useT();
  if (room.kind === "group")
    return (
      <Form method="post" action="/chat" className="membership-actions">
        <Intent intent="leave" roomId={room.id} />
        <button type="submit" className="btn btn-ghost" aria-label={t("mem.leaveLabel", { name: room.name })}>
          {t("mem.leave")}
        </button>
      </Form>
    );
  if (room.kind !== "dm" || !room.peerId) return null;
  const isBlocked = blocked.some((b) => b.userId === room.peerId);
  return (
    <div className="membership-actions">
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
    <details className="report">
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
        <p className="muted">{t("report.note")}</p>
        <button type="submit" className="btn btn-primary">
          {t("report.send")}
        </button>
      </Form>
    </details>
  );
}
