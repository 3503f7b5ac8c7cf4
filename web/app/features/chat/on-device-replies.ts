// Smart replies for private rooms, computed on this device: a private chat's words never go to the server's
// assistant (issue 20, docs/protocol.md §1). A few plain rules on the last message received; no model. The
// replies are offered in the person's language (the rules also know greetings and thanks in the Nigerian ones).
import type { SmartReply } from "../../../../core/ai-schemas";
import type { MessageKey } from "../../../../core/i18n/en";

const RULES: { test: RegExp; replies: MessageKey[] }[] = [
  { test: /\b(sos|help me|emergency|danger|accident|fire)\b/i, replies: ["odr.where", "odr.coming", "odr.call112"] },
  { test: /\b(thank|thanks|thank you|nagode|daalu|e se)\b/i, replies: ["odr.welcome", "odr.anytime", "odr.thumbsUp"] },
  {
    test: /\b(hi|hello|hey|good (morning|afternoon|evening)|how far|kedu|sannu|bawo)\b/i,
    replies: ["odr.hello", "odr.howAreYou", "odr.goodToHear"],
  },
  { test: /\b(where|when|what time)\b.*\?\s*$/i, replies: ["odr.tellSoon", "odr.letMeCheck", "odr.notSure"] },
  { test: /\?\s*$/, replies: ["odr.yes", "odr.no", "odr.letMeCheck"] },
];
const FALLBACK: MessageKey[] = ["quick.gotIt", "odr.ok", "odr.talkSoon"];

/** Up to three short replies to a received message; [] for an empty message. */
export function onDeviceReplies(message: string, t: (key: MessageKey) => string): SmartReply[] {
  const text = message.trim();
  if (!text) return [];
  const rule = RULES.find((r) => r.test.test(text));
  return (rule?.replies ?? FALLBACK).map((reply, i) => ({ id: `local-${i}`, text: t(reply) }));
}
