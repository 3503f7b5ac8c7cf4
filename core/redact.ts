// What a sent WhatsApp or SMS leaves behind outside development (docs/decisions/048-secrets-at-rest-and-the-console.md):
// the words, without what would let a reader act as the recipient or find the sender. Every run of four or
// more digits (a verification code, a phone number, a coordinate's decimals, written with or without spaces,
// dashes or dots between them) becomes ••••••, the same length whatever it hid, and every link becomes [link].

export const REDACTED_DIGITS = "••••••";

const LINK = /\b(?:https?:\/\/|www\.)\S+/gi;
const DIGIT_RUN = /\+?\d(?:[\s.-]?\d){3,}/g;

export function redactMessageBody(body: string): string {
  return body.replace(LINK, "[link]").replace(DIGIT_RUN, REDACTED_DIGITS);
}
