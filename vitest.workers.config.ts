// Worker integration tests: run inside workerd with real D1, Durable Objects and R2 (DESIGN.md, STYLE.md).
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      // The test entry is the real server without the React Router build (pages are covered by browser tests).
      main: "./tests/workers/entry.ts",
      wrangler: { configPath: "./wrangler.toml" },
      remoteBindings: false,
      miniflare: {
        bindings: {
          SESSION_SECRET: "test-session-secret-0123456789abcdef",
          ENVIRONMENT: "development",
          APP_URL: "http://localhost:5173",
          TWILIO_AUTH_TOKEN: "test-twilio-auth-token",
          TEST_MIGRATIONS: await readD1Migrations("./db/migrations"),
        },
      },
    })),
  ],
  test: {
    include: ["{workers,durable-objects,db,tests/workers}/**/*.worker.test.ts"],
    setupFiles: ["./tests/workers/apply-migrations.ts"],
  },
});
