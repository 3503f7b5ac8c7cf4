// Request schemas of /api/team (docs/decisions/067-enterprise-teams.md).
import { z } from "zod";

const name = z.string().trim().min(1, "Give the team a name").max(60);
export const CreateTeamSchema = z.object({ name });
export const TeamSettingsSchema = z.object({
  name: name.optional(),
  invitePolicy: z.enum(["admins", "members"]).optional(),
  seatFeatures: z.boolean().optional(),
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
