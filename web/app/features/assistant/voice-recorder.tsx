// Voice messages (spec part 1 §5): record in the browser, upload, get the transcript. Free users see the
// premium message; the server decides either way.
import { useRef, useState } from "react";
import { VOICE_PREMIUM_MESSAGE } from "../../../../core/ai-command";
import type { VoiceMessageResponse } from "../../../../core/ai-schemas";
import { useToast } from "../../components/toast";
import { sendVoiceMessage } from "./client";
import { PremiumOffer } from "./premium-offer";

type State =
  | { kind: "idle" }
  | { kind: "recording" }
  | { kind: "sending" }
  | { kind: "error"; error: string }
  | { kind: "offer"; error: string; code: string };

export function VoiceRecorder({ voiceLimit, phone }: { voiceLimit: number | null; phone: string }) {
  const toast = useToast();
  const [state, setState] = useState<State>({ kind: "idle" });
  const [sent, setSent] = useState<VoiceMessageResponse[]>([]);
  const recorder = useRef<MediaRecorder | null>(null);

  if (voiceLimit === 0) return <PremiumOffer code="premium_feature" error={VOICE_PREMIUM_MESSAGE} phone={phone} standing />;

  async function start() {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      setState({ kind: "error", error: "This browser cannot record audio." });
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
      rec.onstop = async () => {
        for (const t of stream.getTracks()) t.stop();
        setState({ kind: "sending" });
        const answer = await sendVoiceMessage(new Blob(chunks, { type: rec.mimeType || "audio/webm" }));
        if (answer.kind === "ok") {
          setSent((list) => [answer.voice, ...list]);
          setState({ kind: "idle" });
        } else setState(answer);
      };
      rec.start();
      recorder.current = rec;
      setState({ kind: "recording" });
      toast({ title: "Voice Recording Started", description: "Tap again to send audio message" });
    } catch {
      setState({ kind: "error", error: "Microphone access was refused. Allow the microphone for this site to record." });
    }
  }

  function stop() {
    recorder.current?.stop();
    recorder.current = null;
  }

  const recording = state.kind === "recording";
  return (
    <div className="grid-gap">
      <button
        type="button"
        className={`btn ${recording ? "btn-danger" : "btn-primary"}`}
        onClick={recording ? stop : start}
        disabled={state.kind === "sending"}
        aria-pressed={recording}
      >
        {recording ? "⏹ Stop and send voice message" : state.kind === "sending" ? "Sending…" : "🎙️ Record voice message"}
      </button>
      {state.kind === "error" ? (
        <p role="alert" className="error">
          {state.error}
        </p>
      ) : null}
      {state.kind === "offer" ? <PremiumOffer error={state.error} code={state.code} phone={phone} /> : null}
      {sent.length ? (
        <ul className="list-plain" aria-label="Your voice messages">
          {sent.map((v) => (
            <li key={v.id} className="card">
              {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the caption */}
              <audio controls src={`/api/ai/voice/${v.id}`} aria-label="Voice message" />
              <p>
                {v.transcript ? `“${v.transcript}”` : "Saved. Transcription needs the online assistant, which isn't reachable right now."}
              </p>
              <p className="muted small">
                {v.usedThisMonth}
                {v.monthlyLimit === null ? "" : ` of ${v.monthlyLimit}`} voice messages this month
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
