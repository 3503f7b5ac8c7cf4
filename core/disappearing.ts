// Disappearing messages (docs/decisions/040-disappearing-messages.md): the schemas the Worker and the room parse
// with; the timers and checks themselves are in core/disappearing-timers.ts (no zod, for the chat's first load).
import { z } from "zod";
import { SETTINGS_OPTIONS } from "./constants";

export * from "./disappearing-timers";

export const DisappearTimerSchema = z.enum(SETTINGS_OPTIONS.autoDelete);

/** PUT /api/rooms/:id/disappearing. */
export const SetDisappearingSchema = z.object({ timer: DisappearTimerSchema }).strict();

export const DisappearingMetaSchema = z.object({
  event: z.literal("disappearing"),
  by: z.string().max(64),
  byName: z.string().max(60),
  timer: DisappearTimerSchema,
});
