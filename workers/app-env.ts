// The Worker's environment as a type: wrangler's bindings (Env) and the secrets. Its own module, importing
// nothing of ours, so configuration readers (workers/billing/config.ts) and workers/env.ts's checks can both name
// it without importing each other.

/** Secrets and optional settings: `.dev.vars` locally, `wrangler secret` in production (docs/architecture.md §11). */
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
  /** Paystack's secret key: calls its API and signs its webhooks (used when BILLING_PROVIDER=paystack). */
  PAYSTACK_SECRET_KEY?: string;
  DATABASE_URL?: string;
  DATABASE_AUTH_TOKEN?: string;
  ADMIN_PHONES?: string;
  USSD_SHARED_SECRET?: string;
  /** Cloudflare TURN key: the Worker makes short-lived call relay credentials from it (workers/services/turn.ts). */
  TURN_KEY_ID?: string;
  TURN_KEY_API_TOKEN?: string;
  /** "development" locally and in tests; unset in production. */
  ENVIRONMENT?: string;
  /** Development only: how many ms the "1 hour" disappearing timer lasts, for browser tests (durable-objects/disappearing.ts). */
  DISAPPEARING_TEST_HOUR_MS?: string;
  /** "1" only on the capacity benchmark's local server: D1 statements are counted (db/query-count.ts). */
  QUERY_COUNT?: string;
  /**
   * Development only, set by the browser tests' harness (tests/serve-built.mjs) and nowhere else: the key to
   * /api/dev/sql, through which a test plays a server that writes what no API writes (docs/architecture.md §12).
   */
  TEST_SQL_TOKEN?: string;
}

export type AppEnv = Env & Secrets;
