// Request schemas of /api/team (docs/decisions/067-enterprise-teams.md).
import { z } from "zod";
import { DISAPPEAR_MS, type DisappearTimer } from "./disappearing-timers";
import { UI_LANGUAGES } from "./i18n/languages";

const name = z.string().trim().min(1, "Give the team a name").max(60);
export const CreateTeamSchema = z.object({ name });
export const TeamSettingsSchema = z.object({
  name: name.optional(),
  invitePolicy: z.enum(["admins", "members"]).optional(),
  seatFeatures: z.boolean().optional(),
  /** Invitations to phones not yet on LinkUp are written in it; null: English. */
  language: z.enum(UI_LANGUAGES).nullable().optional(),
  /** The team room's disappearing timer. */
  retention: z.enum(Object.keys(DISAPPEAR_MS) as [DisappearTimer, ...DisappearTimer[]]).optional(),
});
export const CreateInviteSchema = z.object({ phone: z.string().trim().max(30).optional() });
export const JoinTeamSchema = z.object({
  code: z
    .string()
    .trim()
    .max(40)
    .transform((c) => c.toUpperCase().replace(/[^A-Z0-9]/g, ""))
    .pipe(z.string().length(10, "Enter the 10-character invitation code")),
});
export const SetRoleSchema = z.object({ role: z.enum(["admin", "member"]) });
