// The chat info panel's disappearing-messages control (docs/decisions/040-disappearing-messages.md): apart from the
// lines in ./disappearing.tsx, which every chat renders, so it loads with the lazy info panel (./panels.tsx).
import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { DISAPPEAR_MS, type DisappearTimer, isDisappearTimer } from "../../../../core/disappearing-timers";
import { apiRequest } from "../../../../core/http";
import { useT } from "../../i18n";
import { currentMeshNode } from "../../mesh/current";
import { TIMER_LABELS } from "./timer-labels";

const TIMERS = Object.keys(DISAPPEAR_MS) as DisappearTimer[];

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
              // A private room believes only the change a member's device seals (docs/protocol.md §7b).
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
