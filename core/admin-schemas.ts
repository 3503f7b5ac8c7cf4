// Inputs of the staff desk and the admin console (spec part 2, admin dashboard).
import { z } from "zod";

/** An admin makes someone staff or takes it back; admin itself comes only from ADMIN_PHONES. */
export const SetRoleSchema = z.object({ role: z.enum(["user", "staff"]) });

/** Find a person by phone (any written form) or by a piece of the nickname. */
export const FindPeopleQuerySchema = z.object({ q: z.string().trim().min(2).max(64) });
