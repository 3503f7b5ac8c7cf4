// One call on screen: who, what is happening, the controls (accept and decline while ringing; mute, speaker and
// end while on), the running timer and the measured call quality.
import { Mic, MicOff, Phone, PhoneOff, Volume2 } from "lucide-react";
import { useEffect, useState } from "react";
import { type T, useT } from "../../i18n";
import type { CallQuality } from "./quality";
import type { CallSession, CallView } from "./session";

const PHASE_TEXT = {
  incoming: "calls.incoming",
  calling: "calls.calling",
  ringing: "calls.ringing",
  connecting: "calls.connecting",
  connected: "calls.connected",
  ended: "calls.ended",
} as const satisfies Record<CallView["phase"], string>;

const PATH_TEXT = {
  "direct-local": "calls.path.directLocal",
  "direct-internet": "calls.path.directInternet",
  relayed: "calls.path.relayed",
} as const satisfies Record<NonNullable<CallQuality["path"]>, string>;

const QUALITY_TEXT = {
  excellent: "calls.q.excellent",
  good: "calls.q.good",
  fair: "calls.q.fair",
  poor: "calls.q.poor",
} as const satisfies Record<NonNullable<CallQuality["audioQuality"]>, string>;

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export function CallPanel({ session, view, onClose }: { session: CallSession; view: CallView; onClose: () => void }) {
  const t = useT();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (view.phase !== "connected") return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [view.phase]);
  const status =
    view.phase === "ended"
      ? view.ended
        ? t.error(view.ended)
        : t(PHASE_TEXT.ended)
      : view.phase === "ringing" && view.devices === 0
        ? t("calls.ringingAbsent", { name: view.peerName })
        : t(PHASE_TEXT[view.phase]);
  const q = view.quality;
  return (
    <section className="card call-panel sticky top-2 z-[5] grid gap-2 [&_h2]:m-0" aria-label={t("calls.with", { name: view.peerName })}>
      <h2>{view.peerName}</h2>
      <p role="status" className="call-status">
        {status}
      </p>
      {view.phase === "connected" && view.startedAt ? (
        <p className="m-0 text-[1.4rem] [font-variant-numeric:tabular-nums]" role="timer" aria-label={t("calls.duration")}>
          {formatDuration(now - view.startedAt)}
        </p>
      ) : null}
      <div className="call-controls flex flex-wrap items-center gap-2">
        {view.phase === "incoming" ? (
          <>
            <button type="button" className="btn btn-primary" onClick={() => void session.accept()}>
              <Phone size={18} aria-hidden="true" /> {t("calls.accept")}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => session.decline()}>
              <PhoneOff size={18} aria-hidden="true" /> {t("calls.decline")}
            </button>
          </>
        ) : view.phase === "ended" ? (
          <button type="button" className="btn" onClick={onClose}>
            {t("calls.close")}
          </button>
        ) : (
          <>
            <button type="button" className="btn" aria-pressed={view.muted} onClick={() => session.toggleMute()}>
              {view.muted ? <MicOff size={18} aria-hidden="true" /> : <Mic size={18} aria-hidden="true" />}{" "}
              {view.muted ? t("calls.unmute") : t("calls.mute")}
            </button>
            <Speaker session={session} active={view.phase === "connected"} t={t} />
            <button type="button" className="btn btn-danger" onClick={() => session.hangUp()}>
              <PhoneOff size={18} aria-hidden="true" /> {t("calls.end")}
            </button>
          </>
        )}
      </div>
      {q && view.phase === "connected" ? (
        <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-3 gap-y-[0.2rem] [&_dd]:m-0" aria-label={t("calls.quality")}>
          <dt>{t("calls.audioQuality")}</dt>
          <dd>{q.audioQuality ? t(QUALITY_TEXT[q.audioQuality]) : t("calls.measuring")}</dd>
          <dt>{t("calls.rtt")}</dt>
          <dd>{q.rttMs === null ? t("calls.measuring") : `${q.rttMs} ms`}</dd>
          <dt>{t("calls.loss")}</dt>
          <dd>{q.lossPercent === null ? t("calls.measuring") : `${q.lossPercent}%`}</dd>
          <dt>{t("calls.jitter")}</dt>
          <dd>{q.jitterMs === null ? t("calls.measuring") : `${q.jitterMs} ms`}</dd>
          <dt>{t("calls.bitrate")}</dt>
          <dd>{q.bitrateKbps === null ? t("calls.measuring") : `${q.bitrateKbps} kbit/s`}</dd>
          <dt>{t("calls.received")}</dt>
          <dd data-bytes={q.bytesReceived}>{formatBytes(q.bytesReceived)}</dd>
          <dt>{t("calls.path")}</dt>
          <dd>{q.path ? t(PATH_TEXT[q.path]) : t("calls.measuring")}</dd>
        </dl>
      ) : null}
    </section>
  );
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} Bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Where the other person's voice plays: browsers that can choose an output (setSinkId) and have more than one
 * get a button that moves to the next; elsewhere there is nothing honest to offer, so no button.
 */
function Speaker({ session, active, t }: { session: CallSession; active: boolean; t: T }) {
  const [outputs, setOutputs] = useState<MediaDeviceInfo[]>([]);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!active || !("setSinkId" in HTMLMediaElement.prototype)) return;
    navigator.mediaDevices
      .enumerateDevices()
      .then((all) => setOutputs(all.filter((d) => d.kind === "audiooutput")))
      .catch(() => setOutputs([]));
  }, [active]);
  if (outputs.length < 2) return null;
  const current = outputs[index % outputs.length];
  return (
    <button
      type="button"
      className="btn"
      onClick={async () => {
        const next = (index + 1) % outputs.length;
        await (session.audio as HTMLAudioElement & { setSinkId(id: string): Promise<void> })
          .setSinkId(outputs[next].deviceId)
          .catch(() => {});
        setIndex(next);
      }}
    >
      <Volume2 size={18} aria-hidden="true" />{" "}
      {t("calls.speaker", { name: current.label || t("calls.output", { number: (index % outputs.length) + 1 }) })}
    </button>
  );
}
