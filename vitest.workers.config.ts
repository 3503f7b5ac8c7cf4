// Worker integration tests: run inside workerd with real D1, Durable Objects and R2 (docs/architecture.md §12).
import { readFileSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// wrangler also loads the developer's .dev.vars; each optional secret is blanked here so nothing in it (a
// DATABASE_URL of a real Turso database, real Twilio or Stripe keys) can reach a test. Tests that need a
// service set it on their own bindings, faked at its HTTP edge.
const BLANKED = {
  DATABASE_URL: "",
  DATABASE_AUTH_TOKEN: "",
  TWILIO_ACCOUNT_SID: "",
  TWILIO_WHATSAPP_FROM: "",
  TWILIO_SMS_FROM: "",
  TWILIO_API_BASE: "",
  STRIPE_SECRET_KEY: "",
  STRIPE_WEBHOOK_SECRET: "",
  PAYSTACK_SECRET_KEY: "",
  USSD_SHARED_SECRET: "",
  // The admin of worker tests (tests/workers/helpers.ts adminSession): tiers and roles go through the staff API.
  ADMIN_PHONES: "+2348099990001",
  TURN_KEY_ID: "",
  TURN_KEY_API_TOKEN: "",
};
// Every name .dev.vars may hold, so a test can prove none of them leaks through unset.
const devVarNames = readFileSync(".dev.vars.example", "utf8")
  .split("\n")
  .flatMap((line) => /^([A-Z_]+)=/.exec(line)?.[1] ?? []);

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      // The test entry is the real server without the React Router build (pages are covered by browser tests).
      main: "./tests/workers/entry.ts",
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        bindings: {
          ...BLANKED,
          SESSION_SECRET: "test-session-secret-0123456789abcdef",
          ENVIRONMENT: "development",
          APP_URL: "http://localhost:5173",
          TWILIO_AUTH_TOKEN: "test-twilio-auth-token",
          // A fixed test-only VAPID pair (never used outside tests) so Web Push runs for real in workerd.
          VAPID_PUBLIC_KEY: "BGPLdbvdOydZ0m5QKCY1m7pxLImr7I7kQ69VeufWOTEVAGRQdi67QazQ20QV8sA6iYITdzEz7_Gr6BYlbAUU2wc",
          VAPID_PRIVATE_KEY: "KSwj_Yb5M8AUafs4uQDSd-TmyRckeOEKdgueojP3xU0",
          VAPID_SUBJECT: "mailto:tests@linkup.example",
          // Small limits per client address so their tests stay short (workers/limits); requests without
          // CF-Connecting-IP, as most tests send, are not limited in development.
          ANON_SESSIONS_PER_ADDRESS_PER_HOUR: "5",
          ANON_AI_PER_ADDRESS_PER_DAY: "12",
          TEST_MIGRATIONS: await readD1Migrations("./db/migrations"),
          TEST_DEV_VAR_NAMES: devVarNames,
        },
      },
    })),
  ],
  test: {
    include: ["{workers,durable-objects,db,tests/workers}/**/*.worker.test.ts"],
    setupFiles: ["./tests/workers/apply-migrations.ts"],
    // Some tests walk a person through many requests; on a busy 2-core CI machine 5 s is not always enough.
    testTimeout: 20_000,
  },
});
