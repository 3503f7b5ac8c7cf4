import { z } from "zod";
import type { Db } from "../db";
import type { User } from "../db/schema";

/** Secrets and optional settings: `.dev.vars` locally, `wrangler secret` in production (DESIGN.md §11). */
export interface Secrets {
  SESSION_SECRET?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_WHATSAPP_FROM?: string;
  TWILIO_SMS_FROM?: string;
  /** Loopback stand-in for Twilio's REST API in tests; never set in production. */
  TWILIO_API_BASE?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  DATABASE_URL?: string;
  DATABASE_AUTH_TOKEN?: string;
  ADMIN_PHONES?: string;
  USSD_SHARED_SECRET?: string;
  /** "development" locally and in tests; unset in production. */
  ENVIRONMENT?: string;
}

export type AppEnv = Env & Secrets;

export type AppBindings = {
  Bindings: AppEnv;
  Variables: { db: Db; user: User | null; sessionHash: string | null };
};

// The secret the Worker cannot run without; everything else switches a local stand-in on or off.
const RequiredSecrets = z.object({ SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters") });

/** Fails once, with the list of what is missing, instead of deep inside a request. */
export function checkSecrets(env: AppEnv): void {
  const parsed = RequiredSecrets.safeParse(env);
  if (!parsed.success) {
    const missing = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`LinkUp is missing configuration: ${missing}. Run \`npm run setup\` locally or \`wrangler secret put\`.`);
  }
}

export function twilioConfigured(env: AppEnv): boolean {
  return Boolean(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && (env.TWILIO_WHATSAPP_FROM || env.TWILIO_SMS_FROM));
}

/** Which outside services are configured: names only, never values. */
export function servicesStatus(env: AppEnv) {
  return {
    twilio: twilioConfigured(env),
    stripe: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET),
    // Locally the AI binding would reach Cloudflare over the network, so development uses the offline assistant.
    workersAi: Boolean(env.AI) && env.ENVIRONMENT !== "development",
    webPush: Boolean(env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY),
    libsql: Boolean(env.DATABASE_URL),
    files: Boolean(env.FILES),
  };
}

/** The only values the browser ever sees (epic-stack `getEnv()`). */
export function publicEnv(env: AppEnv) {
  return {
    SUPPORT_PHONE: env.SUPPORT_PHONE,
    STRIPE_PUBLISHABLE_KEY: env.STRIPE_PUBLISHABLE_KEY,
    VAPID_PUBLIC_KEY: env.VAPID_PUBLIC_KEY ?? "",
    DEV_OUTBOX: !twilioConfigured(env),
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;
