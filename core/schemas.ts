// zod schemas for every JSON body and query the API takes. Unknown fields are stripped; wrong types refused.
import { z } from "zod";
import { SETTINGS_OPTIONS } from "./constants";
import { cleanNickname, nicknameProblem, RESERVED_NAME_MESSAGE } from "./names";

const NICKNAME_MAX = 40;

/**
 * A nickname as set anywhere (registration, profile, onboarding): cleaned of invisible characters, at most 40
 * characters, and not one that passes for LinkUp (core/names.ts). A refusal carries its own message and code,
 * which the API sends as they are (workers/errors.ts `parseWith`).
 */
export const NicknameSchema = z
  .string()
  .max(400)
  .transform(cleanNickname)
  .superRefine((name, ctx) => {
    const problem = name.length > NICKNAME_MAX ? `Use at most ${NICKNAME_MAX} characters for your nickname` : nicknameProblem(name);
    if (problem)
      ctx.addIssue({
        code: "custom",
        message: problem,
        // Only the reserved-name refusal is worded for the person as is; the others read as any invalid field.
        ...(problem === RESERVED_NAME_MESSAGE ? { params: { code: "reserved_name" } } : {}),
      });
  });

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use HH:MM");

export const UpdateMeSchema = z.object({
  nickname: NicknameSchema.optional(),
  locationText: z.string().trim().max(120).nullable().optional(),
  interests: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
  language: z.enum(SETTINGS_OPTIONS.languages).optional(),
  quietStart: time.optional(),
  quietEnd: time.optional(),
  networkRange: z.enum(SETTINGS_OPTIONS.networkRange).optional(),
  powerSaving: z.enum(SETTINGS_OPTIONS.powerSaving).optional(),
  autoDelete: z.enum(SETTINGS_OPTIONS.autoDelete).optional(),
  meshNetworking: z.boolean().optional(),
  pushEnabled: z.boolean().optional(),
  anonymousMode: z.boolean().optional(),
  stealthMode: z.boolean().optional(),
  onboardingCompleted: z.boolean().optional(),
});
export type UpdateMe = z.infer<typeof UpdateMeSchema>;

export const LocationSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

export const OutboxQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/** POST /api/dev/sql (development, browser-test harness only): statements run on the main database. */
export const DevSqlSchema = z.object({ sql: z.string().min(1).max(20_000) });

/** GET /api/market/prices: filter by commodity and place (both optional). */
export const MarketQuerySchema = z.object({ commodity: z.string().trim().max(60).optional(), place: z.string().trim().max(60).optional() });
