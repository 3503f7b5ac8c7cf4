// One call on screen: who, what is happening, the controls (accept and decline while ringing; mute, speaker and
// end while on), the running timer and the measured call quality.
import { Mic, MicOff, Phone, PhoneOff, Volume2 } from "lucide-react";
import { useEffect, useState } from "react";
import { PATH_TEXT } from "./quality";
import type { CallSession, CallView } from "./session";

const PHASE_TEXT: Record<CallView["phase"], string> = {
  incoming: "Incoming voice call",
  calling: "Calling...",
  ringing: "Ringing...",
  connecting: "Connecting...",
  connected: "Connected",
  ended: "Call ended",
};

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export function CallPanel({ session, view, onClose }: { session: CallSession; view: CallView; onClose: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (view.phase !== "connected") return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [view.phase]);
  const status =
    view.phase === "ended"
      ? (view.ended ?? PHASE_TEXT.ended)
      : view.phase === "ringing" && view.devices === 0
        ? `Ringing... ${view.peerName} does not have LinkUp open; they will see a missed call.`
        : PHASE_TEXT[view.phase];
  const q = view.quality;
  return (
    <section className="card call-panel" aria-label={`Voice call with ${view.peerName}`}>
      <h2>{view.peerName}</h2>
      <p role="status" className="call-status">
        {status}
      </p>
      {view.phase === "connected" && view.startedAt ? (
        <p className="call-timer" role="timer" aria-label="Call duration">
          {formatDuration(now - view.startedAt)}
        </p>
      ) : null}
      <div className="row call-controls">
        {view.phase === "incoming" ? (
          <>
            <button type="button" className="btn btn-primary" onClick={() => void session.accept()}>
              <Phone size={18} aria-hidden="true" /> Accept
            </button>
            <button type="button" className="btn btn-danger" onClick={() => session.decline()}>
              <PhoneOff size={18} aria-hidden="true" /> Decline
            </button>
          </>
        ) : view.phase === "ended" ? (
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="btn" aria-pressed={view.muted} onClick={() => session.toggleMute()}>
              {view.muted ? <MicOff size={18} aria-hidden="true" /> : <Mic size={18} aria-hidden="true" />} {view.muted ? "Unmute" : "Mute"}
            </button>
            <Speaker session={session} active={view.phase === "connected"} />
            <button type="button" className="btn btn-danger" onClick={() => session.hangUp()}>
              <PhoneOff size={18} aria-hidden="true" /> End call
            </button>
          </>
        )}
      </div>
      {q && view.phase === "connected" ? (
        <dl className="call-quality" aria-label="Call quality">
          <dt>Audio quality</dt>
          <dd>{q.audioQuality ?? "measuring"}</dd>
          <dt>Round-trip time</dt>
          <dd>{q.rttMs === null ? "measuring" : `${q.rttMs} ms`}</dd>
          <dt>Packet loss</dt>
          <dd>{q.lossPercent === null ? "measuring" : `${q.lossPercent}%`}</dd>
          <dt>Jitter</dt>
          <dd>{q.jitterMs === null ? "measuring" : `${q.jitterMs} ms`}</dd>
          <dt>Bitrate</dt>
          <dd>{q.bitrateKbps === null ? "measuring" : `${q.bitrateKbps} kbit/s`}</dd>
          <dt>Data received</dt>
          <dd data-bytes={q.bytesReceived}>{formatBytes(q.bytesReceived)}</dd>
          <dt>Path</dt>
          <dd>{q.path ? PATH_TEXT[q.path] : "measuring"}</dd>
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
function Speaker({ session, active }: { session: CallSession; active: boolean }) {
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
      <Volume2 size={18} aria-hidden="true" /> Speaker: {current.label || `Output ${(index % outputs.length) + 1}`}
    </button>
  );
}
