// /api/health's operator checks (docs/decisions/053-nothing-lost.md): the SOS queue binding, R2, the newest
// migration applied, and no development placeholder in production; each named, any failure a 503.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../tests/workers/helpers";
import type { AppEnv } from "./env";
import { DEVELOPMENT_PLACEHOLDERS, NEWEST_MIGRATION } from "./health";
import { createServer } from "./server";

const server = createServer(async () => new Response("page"));
const development = env as unknown as AppEnv;
// A deployed Worker: ENVIRONMENT unset, its own address, support number and USSD code.
const production = {
  ...development,
  ENVIRONMENT: undefined,
  APP_URL: "https://linkup.example",
  SUPPORT_PHONE: "+2348031234567",
  USSD_CODE: "*347*88#",
} as unknown as AppEnv;

type Health = { status: string; checks: Record<string, { status: string; detail?: string }> };

async function health(bindings: AppEnv): Promise<{ status: number; body: Health }> {
  const ctx = createExecutionContext();
  const res = await server.fetch(new Request(`${ORIGIN}/api/health`), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: await res.json<Health>() };
}

const failedChecks = (body: Health) => Object.keys(body.checks).filter((k) => body.checks[k].status !== "ok");

describe("GET /api/health checks", () => {
  it("names every check, all passing here", async () => {
    const { status, body } = await health(development);
    expect(status).toBe(200);
    expect(Object.keys(body.checks).sort()).toEqual(["database", "files", "migrations", "rooms", "settings", "sosQueue"]);
    expect(failedChecks(body)).toEqual([]);
    // A production Worker with its own settings passes too (degraded only by the services it lacks).
    const deployed = await health(production);
    expect(deployed.status).toBe(200);
    expect(failedChecks(deployed.body)).toEqual([]);
  });

  it("fails with 503 when the SOS queue binding is missing", async () => {
    const { status, body } = await health({ ...production, SOS_FANOUT: undefined } as unknown as AppEnv);
    expect(status).toBe(503);
    expect(failedChecks(body)).toEqual(["sosQueue"]);
    expect(body.checks.sosQueue.detail).toContain("SOS_FANOUT");
  });

  it("fails with 503 when R2 does not answer or is not bound", async () => {
    const unreachable = { ...production, FILES: { head: () => Promise.reject(new Error("network lost")) } } as unknown as AppEnv;
    const down = await health(unreachable);
    expect(down.status).toBe(503);
    expect(failedChecks(down.body)).toEqual(["files"]);
    expect(JSON.stringify(down.body)).not.toContain("network lost");
    const unbound = await health({ ...production, FILES: undefined } as unknown as AppEnv);
    expect(unbound.status).toBe(503);
    expect(unbound.body.checks.files.detail).toContain("FILES");
  });

  it("fails with 503 while the newest bundled migration is not applied", async () => {
    const name = `${NEWEST_MIGRATION.tag}.sql`;
    const row = await env.DB.prepare("SELECT id, name, applied_at FROM d1_migrations WHERE name = ?").bind(name).first();
    expect(row).not.toBeNull();
    await env.DB.prepare("DELETE FROM d1_migrations WHERE name = ?").bind(name).run();
    try {
      const { status, body } = await health(production);
      expect(status).toBe(503);
      expect(failedChecks(body)).toEqual(["migrations"]);
      expect(body.checks.migrations.detail).toContain(NEWEST_MIGRATION.tag);
    } finally {
      await env.DB.prepare("INSERT INTO d1_migrations (id, name, applied_at) VALUES (?, ?, ?)")
        .bind(row?.id, row?.name, row?.applied_at)
        .run();
    }
    expect((await health(production)).status).toBe(200);
  });

  it("fails with 503 in production while a setting is wrangler.toml's development placeholder, naming it", async () => {
    for (const name of Object.keys(DEVELOPMENT_PLACEHOLDERS) as (keyof typeof DEVELOPMENT_PLACEHOLDERS)[]) {
      const { status, body } = await health({ ...production, [name]: DEVELOPMENT_PLACEHOLDERS[name] } as AppEnv);
      expect(status, name).toBe(503);
      expect(failedChecks(body)).toEqual(["settings"]);
      expect(body.checks.settings.detail).toBe(`still the development placeholder: ${name}`);
    }
    // Unset, the support line and USSD code are left off the screens: health says so and stays up.
    const unset = await health({ ...production, SUPPORT_PHONE: "", USSD_CODE: " " } as AppEnv);
    expect(unset.status).toBe(200);
    expect(unset.body.checks.settings).toEqual({
      status: "ok",
      detail: "not set, so the screens leave them out: SUPPORT_PHONE, USSD_CODE",
    });
    expect((await health({ ...production, APP_URL: "" } as AppEnv)).status).toBe(503);
    // Development runs on them by design.
    expect((await health({ ...development, ...DEVELOPMENT_PLACEHOLDERS } as AppEnv)).status).toBe(200);
  });
});
