import { z } from "zod";
import type { Db } from "../db";
import type { User } from "../db/schema";
import type { AppEnv } from "./app-env";
import type { ChatLists } from "../db/queries/chat-lists";
import { billingRequirements } from "./billing/config";
import { supportPhone } from "./contact-config";
import { isDevelopment } from "./development";

export type { AppEnv, Secrets } from "./app-env";

export type AppBindings = {
  Bindings: AppEnv;
  Variables: {
    db: Db;
    user: User | null;
    sessionHash: string | null;
    /** The account a session signs in to once its second factor is proven (workers/identity/two-factor.ts). */
    pendingSecondFactorUserId: string | null;
    /** The session user's unread notifications, read with the session (null before; another user's for an API key). */
    sessionUnread: { userId: string; count: number; sosNearby?: string | null } | null;
    /** The chat screen's rooms and lists, read with the session on a /chat page load (docs/decisions/065). */
    sessionChatLists: { userId: string; lists: ChatLists } | null;
  };
};

// The typed configuration, checked once per set of bindings: SESSION_SECRET is required everywhere; optional
// secrets, when present, must have a usable shape. Which services are configured is decided below.
const optional = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional();
const ConfigSchema = z.object({
  SESSION_SECRET: z.string({ error: "SESSION_SECRET is required" }).min(16, "SESSION_SECRET must be at least 16 characters"),
  ENVIRONMENT: optional(
    z.enum(["development", "production", "staging"], { error: "ENVIRONMENT must be development, production or staging" }),
  ),
  APP_URL: optional(z.url({ error: "APP_URL must be a URL" })),
  DATABASE_URL: optional(z.url({ protocol: /^(libsql|https?|wss?)$/, error: "DATABASE_URL must be a libsql:// or https:// URL" })),
  TWILIO_ACCOUNT_SID: optional(z.string().startsWith("AC", "TWILIO_ACCOUNT_SID starts with AC")),
});

const checked = new WeakSet<object>();

/** Fails once, with the list of what is wrong, instead of deep inside a request. */
export function checkSecrets(env: AppEnv): void {
  if (checked.has(env)) return;
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`LinkUp is missing configuration: ${problems}. Run \`npm run setup\` locally or \`wrangler secret put\`.`);
  }
  checked.add(env);
}

export { isDevelopment };

export function twilioConfigured(env: AppEnv): boolean {
  return Boolean(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && (env.TWILIO_WHATSAPP_FROM || env.TWILIO_SMS_FROM));
}

/** The dev outbox stands in for Twilio only in development; elsewhere WhatsApp and SMS need Twilio. */
export function devOutboxEnabled(env: AppEnv): boolean {
  return isDevelopment(env) && !twilioConfigured(env);
}

/** Whether WhatsApp/SMS can go anywhere: through Twilio, or in development into the dev outbox. */
export function messagingAvailable(env: AppEnv): boolean {
  return twilioConfigured(env) || isDevelopment(env);
}

/** Which outside services are configured: names only, never values. */
export function servicesStatus(env: AppEnv) {
  return {
    twilio: twilioConfigured(env),
    stripe: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET),
    paystack: Boolean(env.PAYSTACK_SECRET_KEY),
    // Locally the AI binding would reach Cloudflare over the network, so development uses the offline assistant.
    workersAi: Boolean(env.AI) && !isDevelopment(env),
    webPush: Boolean(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY),
    libsql: Boolean(env.DATABASE_URL),
    files: Boolean(env.FILES),
    ussd: Boolean(env.USSD_SHARED_SECRET),
    turn: Boolean(env.TURN_KEY_ID && env.TURN_KEY_API_TOKEN),
  };
}

/**
 * The settings a production Worker needs for every feature, by name (never values): each missing one makes
 * its feature refuse, and /api/health report `degraded`. In development local stand-ins cover them.
 */
export function missingConfig(env: AppEnv): string[] {
  const missing: string[] = [];
  if (!env.TWILIO_ACCOUNT_SID) missing.push("TWILIO_ACCOUNT_SID");
  if (!env.TWILIO_AUTH_TOKEN) missing.push("TWILIO_AUTH_TOKEN");
  if (!env.TWILIO_WHATSAPP_FROM && !env.TWILIO_SMS_FROM) missing.push("TWILIO_WHATSAPP_FROM or TWILIO_SMS_FROM");
  missing.push(...billingRequirements(env));
  if (!env.VAPID_PUBLIC_KEY) missing.push("VAPID_PUBLIC_KEY");
  if (!env.VAPID_PRIVATE_KEY) missing.push("VAPID_PRIVATE_KEY");
  if (!env.USSD_SHARED_SECRET) missing.push("USSD_SHARED_SECRET");
  if (!env.AI) missing.push("AI");
  return missing;
}

/** The only values the browser ever sees (epic-stack `getEnv()`). */
export function publicEnv(env: AppEnv) {
  return {
    SUPPORT_PHONE: supportPhone(env),
    STRIPE_PUBLISHABLE_KEY: env.STRIPE_PUBLISHABLE_KEY,
    VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY ?? "",
    DEV_OUTBOX: devOutboxEnabled(env),
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;
