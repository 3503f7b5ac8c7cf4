// Voice messages (docs/product/assistant.md): record in the browser, upload, get the transcript. Free users see the
// premium message; the server decides either way.
import { useState } from "react";
import type { VoiceMessageResponse } from "../../../../core/ai-schemas";
import { isPrivateRoomId } from "../../../../core/private-rooms";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import { retryTranscript } from "./client";
import { PremiumOffer } from "./premium-offer";
import { useVoiceMessage, type VoiceOutcome } from "./use-voice-message";

export type VoiceItem = Pick<VoiceMessageResponse, "id" | "transcript"> & Partial<VoiceMessageResponse>;

/** In a private chat the recorder does not record: a recording would reach the server readable. */
export function VoiceRecorder(props: { voiceLimit: number | null; phone: string; initial?: VoiceItem[]; room?: string }) {
  const t = useT();
  if (props.room && isPrivateRoomId(props.room))
    return (
      <p role="status" className="text-muted">
        {t("voice.privateOff")}
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
  const t = useT();
  const [sent, setSent] = useState<VoiceItem[]>(initial);
  const [retrying, setRetrying] = useState<string | null>(null);
  async function retry(id: string) {
    setRetrying(id);
    const transcript = await retryTranscript(id);
    setRetrying(null);
    if (transcript) setSent((list) => list.map((v) => (v.id === id ? { ...v, transcript } : v)));
    else
      toast({
        title: t("voice.notYet"),
        description: t("voice.needsAssistant"),
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

  if (voiceLimit === 0) return <PremiumOffer code="premium_feature" error={{ key: "errors.voice_premium" }} phone={phone} standing />;

  const recording = voice.status === "recording";
  return (
    <div className="grid-gap">
      <button
        type="button"
        className={`btn ${recording ? "btn-danger" : "btn-primary"}`}
        onClick={() => {
          if (voice.status === "idle") toast({ title: t("voice.started"), description: t("voice.tapAgain") });
          voice.toggle();
        }}
        disabled={voice.status === "sending"}
        aria-pressed={recording}
      >
        {recording ? `⏹ ${t("voice.stop")}` : voice.status === "sending" ? t("voice.sending") : `🎙️ ${t("voice.record")}`}
      </button>
      {problem?.kind === "error" ? (
        <p role="alert" className="text-danger">
          {t.error(problem.error)}
        </p>
      ) : null}
      {problem?.kind === "offer" ? <PremiumOffer error={problem.error} code={problem.code} phone={phone} /> : null}
      {sent.length ? (
        <ul className="m-0 grid list-none gap-[0.35rem] p-0" aria-label={t("voice.yours")}>
          {sent.map((v) => (
            <li key={v.id} className="card">
              {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the caption */}
              <audio controls src={`/api/ai/voice/${v.id}`} aria-label={t("voice.message")} />
              {v.transcript ? (
                <p>“{v.transcript}”</p>
              ) : (
                <p>
                  {t("voice.saved")} {t("voice.needsAssistant")}{" "}
                  <button type="button" className="btn btn-ghost" onClick={() => retry(v.id)} disabled={retrying === v.id}>
                    {retrying === v.id ? t("voice.transcribing") : t("voice.transcribe")}
                  </button>
                </p>
              )}
              {typeof v.usedThisMonth === "number" ? (
                <p className="text-muted text-sm">
                  {v.monthlyLimit === null || v.monthlyLimit === undefined
                    ? t("voice.usedUnlimited", { count: v.usedThisMonth })
                    : t("voice.used", { count: v.usedThisMonth, limit: v.monthlyLimit })}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
