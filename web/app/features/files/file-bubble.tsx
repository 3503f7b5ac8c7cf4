// A file in a chat message: thumbnail (made on the sender's device), name, size and a download button. Voice
// notes play in place once fetched. Decryption and the hash check happen on this device.
import { useEffect, useState } from "react";
import { type FileMessage, formatFileSize } from "../../../../core/files-client";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import { refusalToast } from "./refusal";

export function FileBubble({ file }: { file: FileMessage }) {
  const toast = useToast();
  const t = useT();
  const [state, setState] = useState<"idle" | "busy" | "saved">("idle");
  const [audio, setAudio] = useState<string | null>(null);
  useEffect(() => () => (audio ? URL.revokeObjectURL(audio) : undefined), [audio]);
  const voice = file.kind === "voice";

  async function fetchIt() {
    setState("busy");
    try {
      // The decryption code loads on the first download, not with the chat (bench/README.md, bundle).
      const { downloadFile, saveBlob } = await import("./transfer");
      const blob = await downloadFile(file);
      if (voice) setAudio(URL.createObjectURL(blob));
      else saveBlob(blob, file.name);
      setState("saved");
    } catch (e) {
      setState("idle");
      toast(refusalToast(e, t("files.downloadFailed"), t));
    }
  }

  return (
    <div className="grid gap-1">
      {file.thumbnail ? (
        <img className="max-h-24 max-w-24 rounded-sm" src={file.thumbnail} alt={t("files.preview", { name: file.name })} />
      ) : null}
      <p className="m-0 wrap-anywhere">
        {voice ? t("files.voice") : file.name} <span className="text-[0.85em] opacity-75">{formatFileSize(file.size)}</span>
      </p>
      {file.transcript ? <p className="file-transcript">{file.transcript}</p> : null}
      {audio ? (
        // biome-ignore lint/a11y/useMediaCaption: a voice note has its transcript above, where there is one
        <audio controls src={audio} aria-label={t("files.voice")} />
      ) : (
        <button type="button" className="btn btn-ghost" disabled={state === "busy"} onClick={() => void fetchIt()}>
          {state === "busy"
            ? t("files.decrypting")
            : voice
              ? t("files.playVoice")
              : state === "saved"
                ? t("files.downloadAgain", { name: file.name })
                : t("files.download", { name: file.name })}
        </button>
      )}
      {state === "saved" && !voice ? (
        <span className="file-ok" role="status">
          {t("files.saved")}
        </span>
      ) : null}
    </div>
  );
}
