// A voice note in a chat (docs/decisions/023-encrypted-files-in-rooms.md): recorded here, sent to the room as an
// encrypted file that every member can play. In an area room it is transcribed first, as before; in a private
// room nothing readable leaves the device, so there is no transcript.
import { useEffect, useRef, useState } from "react";
import { roomKind } from "../../../../core/room-ids";
import { fileMessageText } from "../../../../core/files-client";
import { isPrivateRoomId } from "../../../../core/private-rooms";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { sendVoiceMessage } from "../assistant/client";
import { PremiumOffer } from "../assistant/premium-offer";
import { refusalToast } from "./refusal";
import { uploadFile } from "./transfer";
import type { Offer } from "../../i18n/refusal";

export function VoiceNote({
  node,
  roomId,
  voiceLimit,
  phone,
}: {
  node: MeshNode | null;
  roomId: string | null;
  voiceLimit: number | null;
  phone: string;
}) {
  const toast = useToast();
  const t = useT();
  const [status, setStatus] = useState<"idle" | "recording" | "sending">("idle");
  const [offer, setOffer] = useState<Offer | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  useEffect(
    () => () => {
      for (const t of recorder.current?.stream.getTracks() ?? []) t.stop();
    },
    [],
  );

  const privateNote =
    roomId && isPrivateRoomId(roomId) ? (
      <p role="status" className="text-muted">
        {t("files.noTranscript")}
      </p>
    ) : null;
  if (voiceLimit === 0)
    return (
      <div className="grid-gap">
        {privateNote}
        <PremiumOffer code="premium_feature" error={{ key: "errors.voice_premium" }} phone={phone} standing />
      </div>
    );

  async function send(audio: Blob) {
    if (!node || !roomId) return;
    setStatus("sending");
    try {
      const mime = (audio.type || "audio/webm").split(";")[0];
      let transcript: string | undefined;
      let voiceId: string | undefined;
      if (roomKind(roomId) === "nearby") {
        const answer = await sendVoiceMessage(new Blob([audio], { type: mime }), roomId);
        if (answer.kind === "offer") return setOffer(answer);
        if (answer.kind === "error")
          return toast({ title: t("files.voiceNotSent"), description: t.error(answer.error), variant: "destructive" });
        voiceId = answer.voice.id;
        transcript = answer.voice.transcript || undefined;
      }
      const file = new File([audio], `voice-message.${mime.split("/")[1] ?? "webm"}`, { type: mime });
      const message = await uploadFile(file, roomId, { kind: "voice", voiceId, transcript });
      await node.send(roomId, fileMessageText(message));
    } catch (e) {
      toast(refusalToast(e, t("files.voiceNotSent"), t));
    } finally {
      setStatus("idle");
    }
  }

  async function start() {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined")
      return toast({ title: t("files.voiceNotSent"), description: t("files.cannotRecord"), variant: "destructive" });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      return toast({
        title: t("files.voiceNotSent"),
        description: t("files.micRefused"),
        variant: "destructive",
      });
    }
    const rec = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    rec.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      void send(new Blob(chunks, { type: rec.mimeType || "audio/webm" }));
    };
    rec.start();
    recorder.current = rec;
    setStatus("recording");
    toast({ title: t("files.recordingStarted"), description: t("files.tapToSend") });
  }

  function stop() {
    recorder.current?.stop();
    recorder.current = null;
  }

  return (
    <div className="grid-gap">
      <button
        type="button"
        className={`btn ${status === "recording" ? "btn-danger" : "btn-primary"}`}
        onClick={() => (status === "recording" ? stop() : status === "idle" ? void start() : undefined)}
        disabled={status === "sending" || !roomId}
        aria-pressed={status === "recording"}
      >
        {status === "recording" ? t("files.stopAndSend") : status === "sending" ? t("files.sending") : t("files.record")}
      </button>
      {privateNote}
      {offer ? <PremiumOffer error={offer.error} code={offer.code} phone={phone} /> : null}
    </div>
  );
}
