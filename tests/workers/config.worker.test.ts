// The Worker tests run on their own configuration: whatever the developer's .dev.vars holds (a DATABASE_URL
// of a real Turso database, real Twilio keys), no optional secret of it reaches a test.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dbDriver } from "../../db";
import type { AppEnv } from "../../workers/env";
import { call } from "./helpers";

const bindings = env as unknown as AppEnv & { TEST_DEV_VAR_NAMES: string[] };
// Set by the test configuration itself to test-only values.
const TEST_VALUES = [
  "SESSION_SECRET",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
  "VAPID_SUBJECT",
  "TWILIO_AUTH_TOKEN",
  "ENVIRONMENT",
  "ADMIN_PHONES",
];

describe("test configuration", () => {
  it("blanks every optional secret .dev.vars could hold, so the suite never writes to a real database", async () => {
    expect(bindings.TEST_DEV_VAR_NAMES).toContain("DATABASE_URL");
    for (const name of bindings.TEST_DEV_VAR_NAMES) {
      if (TEST_VALUES.includes(name)) continue;
      expect(bindings[name as keyof AppEnv], name).toBe("");
    }
    expect(bindings.SESSION_SECRET).toBe("test-session-secret-0123456789abcdef");
    expect(bindings.TWILIO_AUTH_TOKEN).toBe("test-twilio-auth-token");
    // The one admin of the suite is a test phone, never a developer's own.
    expect(bindings.ADMIN_PHONES).toBe("+2348099990001");
    // The suite's database is the local D1 of workerd, and the Worker agrees.
    expect(dbDriver(bindings)).toBe("d1");
    const health = await (await call("/api/health")).json<{ database: { driver: string }; services: Record<string, boolean> }>();
    expect(health.database.driver).toBe("d1");
    expect(health.services).toMatchObject({ libsql: false, twilio: false, stripe: false, ussd: false });
  });
});
