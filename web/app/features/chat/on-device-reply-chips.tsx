// Smart-reply chips of a private room, computed on this device (no request; see on-device-replies.ts).
import { useT } from "../../i18n";
import { ReplyChips } from "../assistant/reply-chips";
import { onDeviceReplies } from "./on-device-replies";

export function OnDeviceReplyChips({ message, onPick }: { message: string; onPick: (text: string) => void }) {
  const t = useT();
  return <ReplyChips replies={onDeviceReplies(message, t)} onPick={onPick} />;
}
