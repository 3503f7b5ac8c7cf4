// Smart-reply chips from POST /api/ai/smart-replies for the last received message.
import { useEffect, useRef, useState } from "react";
import type { SmartReply } from "../../../../core/ai-schemas";
import { fetchSmartReplies } from "./client";
import { ReplyChips } from "./reply-chips";

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
  return <ReplyChips replies={replies} onPick={onPick} />;
}
