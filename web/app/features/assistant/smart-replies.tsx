// Smart-reply chips from POST /api/ai/smart-replies for the last received message.
import { useEffect, useRef, useState } from "react";
import type { SmartReply } from "../../../../core/ai-schemas";
import { fetchSmartReplies } from "./client";

export function SmartReplyChips({
  message,
  context,
  onPick,
}: {
  message: string | null;
  context?: string[];
  onPick: (text: string) => void;
}) {
  const [replies, setReplies] = useState<SmartReply[]>([]);
  // Context changes with every message; the replies answer the last message, so only it refetches.
  const contextRef = useRef(context);
  contextRef.current = context;
  useEffect(() => {
    let live = true;
    setReplies([]);
    if (message) fetchSmartReplies(message, contextRef.current).then((r) => live && setReplies(r));
    return () => {
      live = false;
    };
  }, [message]);
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
