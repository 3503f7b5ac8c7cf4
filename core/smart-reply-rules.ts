// Smart-reply rules as catalog keys, so the chips come in the person's language: used on the device for private
// rooms (web/app/features/chat/on-device-replies.ts) and by the offline assistant for area rooms when the
// person's language is not English (workers/assistant; issue 32: Hausa screens offered "Hello! / Good to hear from you").
import type { MessageKey } from "./i18n/en";

const RULES: { test: RegExp; replies: MessageKey[] }[] = [
  { test: /\b(sos|help me|emergency|danger|accident|fire)\b/i, replies: ["odr.where", "odr.coming", "odr.call112"] },
  {
    test: /\b(thank|thanks|thank you|nagode|na gode|daalu|e se|merci|shukran)\b/i,
    replies: ["odr.welcome", "odr.anytime", "odr.thumbsUp"],
  },
  {
    test: /\b(hi|hello|hey|good (morning|afternoon|evening)|how far|kedu|ndewo|sannu|bawo|bonjour|salut|salam)\b|مرحبا|السلام/i,
    replies: ["odr.hello", "odr.howAreYou", "odr.goodToHear"],
  },
  { test: /\b(where|when|what time)\b.*\?\s*$/i, replies: ["odr.tellSoon", "odr.letMeCheck", "odr.notSure"] },
  { test: /[?؟]\s*$/, replies: ["odr.yes", "odr.no", "odr.letMeCheck"] },
];
const FALLBACK: MessageKey[] = ["quick.gotIt", "odr.ok", "odr.talkSoon"];

/** The catalog keys of up to three short replies to a message; [] for an empty message. */
export function replyKeysFor(message: string): MessageKey[] {
  const text = message.trim();
  if (!text) return [];
  return RULES.find((r) => r.test.test(text))?.replies ?? FALLBACK;
}
