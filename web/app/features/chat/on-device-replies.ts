// Smart replies for private rooms, computed on this device: a private chat's words never go to the server's
// assistant (issue 20, docs/protocol.md §1). A few plain rules on the last message received; no model.
import type { SmartReply } from "../../../../core/ai-schemas";

const RULES: { test: RegExp; replies: string[] }[] = [
  { test: /\b(sos|help me|emergency|danger|accident|fire)\b/i, replies: ["Where are you?", "I'm coming", "Call 112 now"] },
  { test: /\b(thank|thanks|thank you|nagode|daalu|e se)\b/i, replies: ["You're welcome", "Anytime", "👍"] },
  {
    test: /\b(hi|hello|hey|good (morning|afternoon|evening)|how far|kedu|sannu|bawo)\b/i,
    replies: ["Hello!", "Hi, how are you?", "Good to hear from you"],
  },
  { test: /\b(where|when|what time)\b.*\?\s*$/i, replies: ["I'll tell you soon", "Let me check", "Not sure yet"] },
  { test: /\?\s*$/, replies: ["Yes", "No", "Let me check"] },
];
const FALLBACK = ["Got it", "OK", "Talk soon"];

/** Up to three short replies to a received message, with a rough confidence; [] for an empty message. */
export function onDeviceReplies(message: string): SmartReply[] {
  const text = message.trim();
  if (!text) return [];
  const rule = RULES.find((r) => r.test.test(text));
  return (rule?.replies ?? FALLBACK).map((reply, i) => ({ id: `local-${i}`, text: reply, confidence: rule ? 0.7 : 0.4 }));
}
