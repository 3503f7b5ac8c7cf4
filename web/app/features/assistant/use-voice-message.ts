// Recording a voice message in the browser and sending it for transcription (premium: 50 a month). Asks the
// server first, so a free user gets the premium message before recording anything.
import { useCallback, useEffect, useRef, useState } from "react";
import type { VoiceMessageResponse } from "../../../../core/ai-schemas";
import { apiRequest } from "../../../../core/http";
import type { Offer, Refusal } from "../../i18n/refusal";
import { sendVoiceMessage } from "./client";

export type VoiceOutcome = { kind: "sent"; voice: VoiceMessageResponse } | ({ kind: "offer" } & Offer) | { kind: "error"; error: Refusal };

type Usage = { voiceMessages: { usedThisMonth: number; limit: number | null } };

export function useVoiceMessage(onOutcome: (outcome: VoiceOutcome) => void, room?: string) {
  const [status, setStatus] = useState<"idle" | "recording" | "sending">("idle");
  const recorder = useRef<MediaRecorder | null>(null);
  const report = useRef(onOutcome);
  report.current = onOutcome;

  useEffect(
    () => () => {
      for (const t of recorder.current?.stream.getTracks() ?? []) t.stop();
    },
    [],
  );

  const start = useCallback(async () => {
    try {
      const usage = await apiRequest<Usage>("GET", "/api/ai/usage");
      const { limit, usedThisMonth } = usage.voiceMessages;
      if (limit === 0) return report.current({ kind: "offer", error: { key: "errors.voice_premium" }, code: "premium_feature" });
      if (limit !== null && usedThisMonth >= limit)
        return report.current({ kind: "offer", error: { key: "errors.voice_month_full", vars: { limit } }, code: "limit_reached" });
    } catch {
      return report.current({ kind: "error", error: { key: "voice.signIn" } });
    }
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      return report.current({ kind: "error", error: { key: "files.cannotRecord" } });
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return report.current({ kind: "error", error: { key: "files.micRefused" } });
    }
    const rec = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = async () => {
      for (const t of stream.getTracks()) t.stop();
      setStatus("sending");
      const answer = await sendVoiceMessage(new Blob(chunks, { type: rec.mimeType || "audio/webm" }), room);
      setStatus("idle");
      report.current(answer.kind === "ok" ? { kind: "sent", voice: answer.voice } : answer);
    };
    rec.start();
    recorder.current = rec;
    setStatus("recording");
  }, [room]);

  const stop = useCallback(() => {
    recorder.current?.stop();
    recorder.current = null;
  }, []);

  /** The chat's voice-record toggle: start, or stop and send. */
  const toggle = useCallback(() => (status === "recording" ? stop() : status === "idle" ? start() : undefined), [status, start, stop]);

  return { status, start, stop, toggle };
}
