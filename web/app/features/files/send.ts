// Sends chosen files to a room: each is encrypted and uploaded, then announced by a chat message that carries its
// key (sealed end to end in private rooms, docs/protocol.md).
import { FILE_TEXTS, fileMessageText } from "../../../../core/files";
import { HttpError } from "../../../../core/http";
import type { ToastInput } from "../../components/toast";
import type { MeshNode } from "../../mesh/node";
import { uploadFile } from "./transfer";

/** The toast for a file the server refused, in its words; verification is titled 'Premium Feature'. */
export function refusalToast(e: unknown, fallbackTitle: string): ToastInput {
  if (e instanceof HttpError) {
    const body = e.json as { code?: string } | undefined;
    const premium = body?.code === "verification_required" || e.status === 402;
    return { title: premium ? FILE_TEXTS.premiumFeatureTitle : fallbackTitle, description: e.errorText, variant: "destructive" };
  }
  return { title: fallbackTitle, description: e instanceof Error ? e.message : String(e), variant: "destructive" };
}

export async function sendFiles(node: MeshNode, roomId: string, files: File[], toast: (t: ToastInput) => void): Promise<number> {
  let sent = 0;
  for (const file of files) {
    try {
      const message = await uploadFile(file, roomId);
      await node.send(roomId, fileMessageText(message));
      sent++;
    } catch (e) {
      toast(refusalToast(e, `${file.name} was not sent`));
    }
  }
  return sent;
}
