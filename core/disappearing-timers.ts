// Disappearing messages without zod (docs/decisions/040-disappearing-messages.md): the timers, their lengths, the
// room's announcement and the expiry checks. The chat loads this; core/disappearing.ts adds the schemas the
// Worker and the room parse with, so zod stays out of the chat's first load.
import type { SETTINGS_OPTIONS } from "./constants";

/** The auto-delete choices (docs/product/settings-and-notifications.md) are the timers a chat may have; "never" is off. */
export type DisappearTimer = (typeof SETTINGS_OPTIONS.autoDelete)[number];

const HOUR = 3600 * 1000;
/** How long a message lives under each timer (0: it does not disappear). */
export const DISAPPEAR_MS: Record<DisappearTimer, number> = {
  never: 0,
  "1hour": HOUR,
  "1day": 24 * HOUR,
  "1week": 7 * 24 * HOUR,
  "1month": 30 * 24 * HOUR,
};

export const isDisappearTimer = (v: unknown): v is DisappearTimer => typeof v === "string" && Object.hasOwn(DISAPPEAR_MS, v);

/** The meta of the room's system line announcing a change; devices word it in their own language. */
export interface DisappearingMeta {
  event: "disappearing";
  by: string;
  byName: string;
  timer: DisappearTimer;
}

/** The same verdict as DisappearingMetaSchema (core/disappearing.test.ts checks they agree). */
export function isDisappearingMeta(v: unknown): v is DisappearingMeta {
  if (typeof v !== "object" || v === null) return false;
  const m = v as Record<string, unknown>;
  return (
    m.event === "disappearing" &&
    typeof m.by === "string" &&
    m.by.length <= 64 &&
    typeof m.byName === "string" &&
    m.byName.length <= 60 &&
    isDisappearTimer(m.timer)
  );
}

/** Whether a stored or shown message has passed its expiry (the room stamps `expiresAt`; none: it stays). */
export function isExpired(message: { expiresAt?: number | null }, now: number): boolean {
  return typeof message.expiresAt === "number" && message.expiresAt <= now;
}
