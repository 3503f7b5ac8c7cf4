// Voice calls between the two people of a direct chat (docs/decisions/024-calls-through-the-room.md): shared texts and limits, no
// zod here so the chat bundle can import it cheaply (the frame schemas are in core/frames.ts).

/** A call nobody takes within this time ends as a missed call (the room's alarm decides, not the caller). */
export const RING_TIMEOUT_MS = 30_000;

/** The toast for an action that needs a verified phone (docs/product/identity.md): title and message. */
export const CALL_TEXTS = {
  premiumTitle: "Premium Feature",
  verifyToCall: "Voice calling requires phone verification. Verify your phone in Settings.",
  peerNotVerified: "Voice calling requires phone verification: this person has not verified a phone yet.",
  busy: "A call is already on in this chat.",
  notRinging: "This call is no longer ringing.",
  directOnly: "Calls are only between the two people of a direct chat.",
  notAccepted: "You can call once they accept your message request.",
  acceptToCall: "Accept the message request to call.",
  tooManyCalls: "You have started many calls this hour. Try again later.",
  missedTitle: (name: string) => `Missed call from ${name}`,
  missedBody: "Open LinkUp to call back.",
} as const;

/** The `meta` of the room's missed-call entry: who called whom, never anything said. */
export interface MissedCallMeta {
  event: "missed-call";
  callId: string;
  callerId: string;
  callerName: string;
  calleeId: string;
  reason: "missed" | "declined";
}

/** The missed-call entry's line as each side reads it, or null when the envelope is not one. */
export function missedCallText(envelope: { senderId: string; type: string; meta?: Record<string, unknown> }, meId: string): string | null {
  const meta = envelope.meta as Partial<MissedCallMeta> | undefined;
  if (envelope.senderId !== "system" || envelope.type !== "system" || meta?.event !== "missed-call") return null;
  const mine = meta.callerId === meId;
  if (meta.reason === "declined") return mine ? "Call declined" : `You declined a call from ${meta.callerName ?? "them"}`;
  return mine ? "Call not answered" : `Missed call from ${meta.callerName ?? "them"}`;
}
