// Sends chosen files to a room: each is encrypted and uploaded, then announced by a chat message that carries its
// key (sealed end to end in private rooms, docs/protocol.md).
import { fileMessageText } from "../../../../core/files";
import { HttpError } from "../../../../core/http";
import type { ToastInput } from "../../components/toast";
import type { T } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { uploadFile } from "./transfer";

/** The toast for a file the server refused, in its words (translated); verification is titled 'Premium Feature'. */
export function refusalToast(e: unknown, fallbackTitle: string, t: T): ToastInput {
  if (e instanceof HttpError) {
    const body = e.json as { code?: string } | undefined;
    const premium = body?.code === "verification_required" || e.status === 402;
    return { title: premium ? t("files.premiumTitle") : fallbackTitle, description: t.error(e.errorText), variant: "destructive" };
  }
  return { title: fallbackTitle, description: t.error(e instanceof Error ? e.message : String(e)), variant: "destructive" };
}

export async function sendFiles(node: MeshNode, roomId: string, files: File[], toast: (input: ToastInput) => void, t: T): Promise<number> {
  let sent = 0;
  for (const file of files) {
    try {
      const message = await uploadFile(file, roomId);
      await node.send(roomId, fileMessageText(message));
      sent++;
    } catch (e) {
      toast(refusalToast(e, t("files.notSentName", { name: file.name }), t));
    }
  }
  return sent;
}
