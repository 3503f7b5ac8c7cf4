// Sends chosen files to a room: each is encrypted and uploaded, then announced by a chat message that carries its
// key (sealed end to end in private rooms, docs/protocol.md).
import { fileMessageText } from "../../../../core/files-client";
import type { ToastInput } from "../../components/toast";
import type { T } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { refusalToast } from "./refusal";
import { uploadFile } from "./transfer";

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
