// The row of smart-reply chips, whoever computed the replies (the assistant for public rooms, this device for
// private ones).
import { Sparkles } from "lucide-react";
import { useT } from "../../i18n";

export function ReplyChips({ replies, onPick }: { replies: { id: string; text: string }[]; onPick: (text: string) => void }) {
  const t = useT();
  if (replies.length === 0) return null;
  return (
    <div className="quick-replies smart-replies" role="group" aria-label={t("ml.predictionTitle")}>
      {replies.map((r) => (
        <button
          key={r.id}
          type="button"
          className="chip"
          onClick={() => onPick(r.text)}
          aria-label={t("chat.smartReply", { text: r.text })}
        >
          <Sparkles aria-hidden="true" size={14} /> {r.text}
        </button>
      ))}
    </div>
  );
}
