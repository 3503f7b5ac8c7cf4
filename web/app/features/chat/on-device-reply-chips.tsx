// Smart-reply chips of a private room, computed on this device (no request; see on-device-replies.ts).
import { onDeviceReplies } from "./on-device-replies";

export function OnDeviceReplyChips({ message, onPick }: { message: string; onPick: (text: string) => void }) {
  const replies = onDeviceReplies(message);
  if (replies.length === 0) return null;
  return (
    <div className="quick-replies smart-replies" role="group" aria-label="Smart replies">
      {replies.map((r) => (
        <button key={r.id} type="button" className="chip" onClick={() => onPick(r.text)} aria-label={`Smart reply: ${r.text}`}>
          ✨ {r.text}
        </button>
      ))}
    </div>
  );
}
