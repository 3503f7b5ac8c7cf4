// zod schemas of identity requests. Unknown fields are stripped; wrong types are refused with 400.
import { z } from "zod";
import { VERIFICATION_CHANNELS } from "./identity";
import { cleanNickname } from "./names";
import { NicknameSchema } from "./schemas";

/** POST /api/auth/register — the documented shape (docs/product/plans-and-limits.md, the public API) plus the channel. */
export const RegisterSchema = z.object({
  phoneNumber: z.string().max(40),
  // Optional; an empty one is no nickname, a reserved one is refused (core/names.ts).
  nickname: z.preprocess((v) => (typeof v === "string" && cleanNickname(v) === "" ? undefined : v), NicknameSchema.optional()),
  // Documented by /api-docs; accepted and validated, not used by the web client.
  deviceToken: z.string().max(512).optional(),
  channel: z.enum(VERIFICATION_CHANNELS).default("whatsapp"),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

/**
 * POST /api/auth/verify. The code is checked for its 6 digits by the domain, to answer with the product's text
 * (docs/product/identity.md).
 */
export const VerifySchema = z.object({
  phoneNumber: z.string().max(40),
  code: z.string().max(20),
});
export type VerifyInput = z.infer<typeof VerifySchema>;

/** The reference of one session in the sessions list (GET /api/security/sessions). */
export const SessionRefSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, "not a session reference");

/** A code from the authenticator app (6 digits) or a backup code (xxxxx-xxxxx), as typed. */
export const TwoFactorCodeSchema = z.object({ code: z.string().trim().min(1, "Enter the code").max(20) });

/** Panic mode (POST /api/security/panic): end this session, optionally sending the preset SOS first. */
export const PanicSchema = z.object({
  sendSos: z.boolean().default(false),
  // Idempotency key of the SOS, as for /api/emergency/broadcast: a retried panic never alerts twice.
  clientRequestId: z.string().trim().min(8).max(64).optional(),
});

/** The preset SOS panic mode sends (the person's saved location, if any, goes with it). */
export const PANIC_SOS_MESSAGE = "I need help. This SOS was sent by LinkUp panic mode.";

/** What a person types to delete their account (DELETE /api/me); any letter case. */
export const DELETE_ACCOUNT_PHRASE = "DELETE MY ACCOUNT";
export const DELETE_ACCOUNT_WRONG = `Type ${DELETE_ACCOUNT_PHRASE} to confirm`;

export const DeleteAccountSchema = z.object({ confirm: z.string().max(100) });

export const isDeletePhrase = (typed: string) => typed.trim().toUpperCase() === DELETE_ACCOUNT_PHRASE;

// WebAuthn answers from @simplewebauthn/browser: the shape is checked here, the content by the library.
const credentialBase = {
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const PasskeyRegisterSchema = z.object({
  name: z.string().trim().min(1).max(40).default("Passkey"),
  response: z.object({
    ...credentialBase,
    response: z
      .object({
        clientDataJSON: z.string().max(4096),
        attestationObject: z.string().max(16384),
        transports: z.array(z.string().max(20)).max(10).optional(),
      })
      .passthrough(),
  }),
});

export const PasskeyProveSchema = z.object({
  response: z.object({
    ...credentialBase,
    response: z.object({
      clientDataJSON: z.string().max(4096),
      authenticatorData: z.string().max(4096),
      signature: z.string().max(1024),
      userHandle: z.string().max(1024).optional(),
    }),
  }),
});

export const PasskeyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,1024}$/);
