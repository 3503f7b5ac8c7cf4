// /file-sharing (docs/product/screens.md): the files of your rooms, sending by picker or drag-and-drop (several at once)
// and the transfers under way. Names and keys live only in the chat messages on this device, so a file this
// device has no message for is listed without its name.
import { useEffect, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { type FileInfo, type FileMessage, formatFileSize, parseFileMessage } from "../../../../core/files";
import { formatDate } from "../../../../core/i18n/translate";
import type { RoomSummary } from "../../../../core/rooms";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import { roomMessages } from "../../mesh/db";
import { meshNodeReady, useMeshNode } from "../chat/use-mesh";
import { FileBubble } from "./file-bubble";
import { sendFiles } from "./send";
import { TransferList } from "./transfer-list";

interface Props {
  user: { id: string; nickname: string; verified: boolean };
  files: FileInfo[];
  rooms: RoomSummary[];
}

/** The file messages this device holds for the listed files, by file id. */
function useFileMessages(ready: boolean, files: FileInfo[]): Map<string, FileMessage> {
  const [found, setFound] = useState(new Map<string, FileMessage>());
  const rooms = [...new Set(files.map((f) => f.roomId))].join(" ");
  // A file sent from this page is listed after the list reloads: look again whenever the list changes.
  const ids = files.map((f) => f.id).join(" ");
  // biome-ignore lint/correctness/useExhaustiveDependencies: ids re-runs the lookup for new files
  useEffect(() => {
    if (!ready || !rooms) return;
    let live = true;
    void (async () => {
      const out = new Map<string, FileMessage>();
      for (const room of rooms.split(" ")) {
        for (const m of await roomMessages(room).catch(() => [])) {
          const file = parseFileMessage(m.text);
          if (file) out.set(file.fileId, file);
        }
      }
      if (live) setFound(out);
    })();
    return () => {
      live = false;
    };
  }, [ready, rooms, ids]);
  return found;
}

export function FileSharingScreen({ user, files, rooms }: Props) {
  const toast = useToast();
  const t = useT();
  const node = useMeshNode(user);
  const revalidator = useRevalidator();
  const messages = useFileMessages(Boolean(node), files);
  const [roomId, setRoomId] = useState(rooms[0]?.id ?? "");
  const [dragging, setDragging] = useState(false);
  const roomName = (id: string) => rooms.find((r) => r.id === id)?.name ?? t("files.chat");

  async function send(chosen: File[]) {
    if (chosen.length === 0) return;
    if (!user.verified) {
      toast({ title: t("files.premiumTitle"), description: t("errors.file_verify"), variant: "destructive" });
      return;
    }
    if (!roomId) return;
    const ready = node ?? (await meshNodeReady());
    await ready.open(roomId);
    const sent = await sendFiles(ready, roomId, chosen, toast, t);
    if (sent > 0) {
      toast({
        title: t("files.sentCount", { count: sent }),
        description: t("files.toRoom", { room: roomName(roomId) }),
        variant: "success",
      });
      revalidator.revalidate();
    }
  }

  return (
    <div className="grid gap-[0.6rem]">
      <section className="card">
        <h1>{t("files.title")}</h1>
        <p>{t("files.body")}</p>
        {rooms.length === 0 ? (
          <p>
            {t("files.joinFirst")} <Link to="/chat">{t("files.openChatLower")}</Link>.
          </p>
        ) : (
          <form className="grid gap-[0.6rem]" onSubmit={(e) => e.preventDefault()}>
            <label>
              {t("files.sendTo")}{" "}
              <select value={roomId} onChange={(e) => setRoomId(e.target.value)}>
                {rooms.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
              </select>
            </label>
            <label
              className={`drop-zone rounded-md border-2 border-dashed border-current px-4 py-6 text-center ${dragging ? "bg-[rgba(34,197,94,0.12)]" : ""}`}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(e) => {
                e.preventDefault();
                setDragging(false);
                void send(Array.from(e.dataTransfer.files));
              }}
            >
              {t("files.drop")}
              <input
                type="file"
                multiple
                className="sr-only"
                aria-label={t("files.choose")}
                onChange={(e) => {
                  const chosen = Array.from(e.currentTarget.files ?? []);
                  e.currentTarget.value = "";
                  void send(chosen);
                }}
              />
            </label>
          </form>
        )}
      </section>
      <TransferList title={t("files.activeTransfers")} />
      <section className="card" aria-labelledby="your-files">
        <h2 id="your-files">{t("files.yours")}</h2>
        {files.length === 0 ? (
          <p>{t("files.none")}</p>
        ) : (
          <ul className="file-list">
            {files.map((f) => {
              const message = messages.get(f.id);
              return (
                <li key={f.id} className="card">
                  <p>
                    <strong>{f.ownerId === user.id ? t("files.sentLabel") : t("files.received")}</strong> · {roomName(f.roomId)} ·{" "}
                    {formatFileSize(f.size)} · {message?.mime ?? f.mime} ·{" "}
                    {f.state === "ready" ? t("files.downloads", { count: f.downloadCount }) : t("files.unfinished")} ·{" "}
                    <time dateTime={new Date(f.createdAt).toISOString()}>{formatDate(f.createdAt, t.tag)}</time>
                  </p>
                  {message ? <FileBubble file={message} /> : <p>{t("files.elsewhere")}</p>}
                  <Link to={`/chat?room=${encodeURIComponent(f.roomId)}`}>{t("files.openChat")}</Link>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
