// Disappearing messages on screen (docs/decisions/040-disappearing-messages.md): the timer's names, the line
// the room writes when someone changes it, and the chat info panel's control. The room keeps the timer and
// stamps each message's expiry; devices delete what expired (web/app/mesh/expiry.ts).
import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { DISAPPEAR_MS, type DisappearTimer, isDisappearingMeta, isDisappearTimer } from "../../../../core/disappearing-timers";
import { apiRequest } from "../../../../core/http";
import { useT } from "../../i18n";
import { currentMeshNode } from "../../mesh/current";
import { securityLine } from "./security-lines";
import { TIMER_LABELS } from "./timer-labels";

const TIMERS = Object.keys(DISAPPEAR_MS) as DisappearTimer[];

/** The room's announcement of a timer change, in the reader's language; null for any other message. */
export function useDisappearingLine(): (meta: Record<string, unknown> | undefined) => string | null {
  const t = useT();
  return (meta) => {
    if (!isDisappearingMeta(meta)) return null;
    const { byName, timer } = meta;
    return timer === "never" ? t("dis.off", { name: byName }) : t("dis.on", { name: byName, timer: t(TIMER_LABELS[timer]) });
  };
}

/**
 * A contact's (or this account's) devices changed, the server offered keys or a group's members that were refused,
 * or a group message was refused for the epoch it names: the line the sealing layer leaves, in the person's language.
 */
export function useDeviceChangeLine(): (meta: Record<string, unknown> | undefined) => string | null {
  const t = useT();
  return (meta) => securityLine(t, meta);
}

/** The chat's timer, read and set by any member (the room announces a change to everyone). */
export function DisappearingControl({ roomId, team = false }: { roomId: string; team?: boolean }) {
  const t = useT();
  const id = useId();
  const [timer, setTimer] = useState<DisappearTimer | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const path = `/api/rooms/${encodeURIComponent(roomId)}/disappearing`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once per chat (t is a new function each render)
  useEffect(() => {
    apiRequest<{ timer: DisappearTimer }>("GET", path)
      .then((a) => setTimer(a.timer))
      .catch(() => setStatus(t("dis.failed")));
  }, [path]);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("dis.title")}</h3>
      <p className="text-muted text-sm">{t("dis.hint")}</p>
      {timer && team ? (
        // A team room keeps its organisation's message retention, set on the team page (docs/decisions/067-enterprise-teams.md).
        <p>
          {t("dis.timer")}: {t(TIMER_LABELS[timer])}. <Link to="/team">{t("dis.teamManaged")}</Link>
        </p>
      ) : timer ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            const chosen = new FormData(e.currentTarget).get("timer");
            if (!isDisappearTimer(chosen)) return;
            apiRequest<{ timer: DisappearTimer }>("PUT", path, { timer: chosen })
              // A direct chat believes only the change a member's device seals (docs/protocol.md §7b).
              .then(async (a) => {
                await currentMeshNode()?.announceTimer(roomId, a.timer);
                setTimer(a.timer);
                setStatus(t("dis.saved"));
              })
              .catch(() => setStatus(t("dis.failed")));
          }}
        >
          <label>
            {t("dis.timer")}
            <select name="timer" defaultValue={timer}>
              {TIMERS.map((o) => (
                <option key={o} value={o}>
                  {t(TIMER_LABELS[o])}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn">
            {t("dis.save")}
          </button>
        </form>
      ) : null}
      {status ? <p role="status">{status}</p> : null}
    </section>
  );
}
