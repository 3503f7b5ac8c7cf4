// Disappearing messages (docs/decisions/040-disappearing-messages.md): the timers a direct chat or group may
// have, the shape of the room's announcement, and the expiry checks devices and the room share.
import { z } from "zod";
import { SETTINGS_OPTIONS } from "./constants";

/** The spec's auto-delete choices (part 1 §9) are the timers a chat may have; "never" is off. */
export const DisappearTimerSchema = z.enum(SETTINGS_OPTIONS.autoDelete);
export type DisappearTimer = z.infer<typeof DisappearTimerSchema>;

const HOUR = 3600 * 1000;
/** How long a message lives under each timer (0: it does not disappear). */
export const DISAPPEAR_MS: Record<DisappearTimer, number> = {
  never: 0,
  "1hour": HOUR,
  "1day": 24 * HOUR,
  "1week": 7 * 24 * HOUR,
  "1month": 30 * 24 * HOUR,
};

/** PUT /api/rooms/:id/disappearing. */
export const SetDisappearingSchema = z.object({ timer: DisappearTimerSchema }).strict();

/** The meta of the room's system line announcing a change; devices word it in their own language. */
export interface DisappearingMeta {
  event: "disappearing";
  by: string;
  byName: string;
  timer: DisappearTimer;
}

export const DisappearingMetaSchema = z.object({
  event: z.literal("disappearing"),
  by: z.string().max(64),
  byName: z.string().max(60),
  timer: DisappearTimerSchema,
});

/** Whether a stored or shown message has passed its expiry (the room stamps `expiresAt`; none: it stays). */
export function isExpired(message: { expiresAt?: number | null }, now: number): boolean {
  return typeof message.expiresAt === "number" && message.expiresAt <= now;
}

/** The earliest expiry still to come among these messages, or null. */
export function nextExpiry(messages: Iterable<{ expiresAt?: number | null }>, now: number): number | null {
  let next: number | null = null;
  for (const m of messages)
    if (typeof m.expiresAt === "number" && m.expiresAt > now && (next === null || m.expiresAt < next)) next = m.expiresAt;
  return next;
}
