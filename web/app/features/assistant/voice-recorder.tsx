// Voice messages (spec part 1 §5): record in the browser, upload, get the transcript. Free users see the
// premium message; the server decides either way.
import { useState } from "react";
import { VOICE_PREMIUM_MESSAGE } from "../../../../core/ai-command";
import type { VoiceMessageResponse } from "../../../../core/ai-schemas";
import { isPrivateRoomId } from "../../../../core/private-rooms";
import { useToast } from "../../components/toast";
import { retryTranscript } from "./client";
import { PremiumOffer } from "./premium-offer";
import { useVoiceMessage, type VoiceOutcome } from "./use-voice-message";

export type VoiceItem = Pick<VoiceMessageResponse, "id" | "transcript"> & Partial<VoiceMessageResponse>;

/** In a private chat the recorder does not record: a recording would reach the server readable. */
export function VoiceRecorder(props: { voiceLimit: number | null; phone: string; initial?: VoiceItem[]; room?: string }) {
  if (props.room && isPrivateRoomId(props.room))
    return (
      <p role="status" className="muted">
        Transcription is off in private chats: voice recordings here are not sent to the server.
      </p>
    );
  return <Recorder {...props} />;
}

function Recorder({
  voiceLimit,
  phone,
  initial = [],
  room,
}: {
  voiceLimit: number | null;
  phone: string;
  initial?: VoiceItem[];
  room?: string;
}) {
  const toast = useToast();
  const [sent, setSent] = useState<VoiceItem[]>(initial);
  const [retrying, setRetrying] = useState<string | null>(null);
  async function retry(id: string) {
    setRetrying(id);
    const transcript = await retryTranscript(id);
    setRetrying(null);
    if (transcript) setSent((list) => list.map((v) => (v.id === id ? { ...v, transcript } : v)));
    else
      toast({
        title: "Not yet",
        description: "Transcription needs the online assistant, which isn't reachable right now.",
        variant: "destructive",
      });
  }
  const [problem, setProblem] = useState<Exclude<VoiceOutcome, { kind: "sent" }> | null>(null);
  const voice = useVoiceMessage((outcome) => {
    if (outcome.kind === "sent") {
      setProblem(null);
      setSent((list) => [outcome.voice, ...list]);
    } else setProblem(outcome);
  }, room);

  if (voiceLimit === 0) return <PremiumOffer code="premium_feature" error={VOICE_PREMIUM_MESSAGE} phone={phone} standing />;

  const recording = voice.status === "recording";
  return (
    <div className="grid-gap">
      <button
        type="button"
        className={`btn ${recording ? "btn-danger" : "btn-primary"}`}
        onClick={() => {
          if (voice.status === "idle") toast({ title: "Voice Recording Started", description: "Tap again to send audio message" });
          voice.toggle();
        }}
        disabled={voice.status === "sending"}
        aria-pressed={recording}
      >
        {recording ? "⏹ Stop and send voice message" : voice.status === "sending" ? "Sending…" : "🎙️ Record voice message"}
      </button>
      {problem?.kind === "error" ? (
        <p role="alert" className="error">
          {problem.error}
        </p>
      ) : null}
      {problem?.kind === "offer" ? <PremiumOffer error={problem.error} code={problem.code} phone={phone} /> : null}
      {sent.length ? (
        <ul className="list-plain" aria-label="Your voice messages">
          {sent.map((v) => (
            <li key={v.id} className="card">
              {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the caption */}
              <audio controls src={`/api/ai/voice/${v.id}`} aria-label="Voice message" />
              {v.transcript ? (
                <p>“{v.transcript}”</p>
              ) : (
                <p>
                  Saved. Transcription needs the online assistant, which isn't reachable right now.{" "}
                  <button type="button" className="btn btn-ghost" onClick={() => retry(v.id)} disabled={retrying === v.id}>
                    {retrying === v.id ? "Transcribing…" : "Transcribe now"}
                  </button>
                </p>
              )}
              {typeof v.usedThisMonth === "number" ? (
                <p className="muted small">
                  {v.usedThisMonth}
                  {v.monthlyLimit === null || v.monthlyLimit === undefined ? "" : ` of ${v.monthlyLimit}`} voice messages this month
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
