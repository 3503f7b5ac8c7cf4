import { Hono } from "hono";
import { dbDriver } from "../../../db";
import { pingDatabase } from "../../../db/queries/health";
import { billingHealth } from "../../billing/config";
import { type AppBindings, isDevelopment, missingConfig, servicesStatus } from "../../env";
import { roomStub } from "../../rooms/stub";
import { operatorChecks } from "../../health";

export const health = new Hono<AppBindings>().get("/", async (c) => {
  let database: "ok" | "error" = "ok";
  try {
    await pingDatabase(c.var.db);
  } catch (e) {
    console.error("health: database", e);
    database = "error";
  }
  // Reaching a room proves the Durable Object binding works, not only that it is declared.
  let rooms: "ok" | "missing" | "error" = "missing";
  if (c.env.ROOMS) {
    try {
      const stub = roomStub(c.env, "health");
      rooms = (await stub.fetch("https://room/health")).ok ? "ok" : "error";
    } catch (e) {
      console.error("health: rooms", e);
      rooms = "error";
    }
  }
  // The queue, R2, migrations and settings: each named, any failure a 503 (docs/decisions/053-nothing-lost.md).
  const checks = {
    database: { status: database === "ok" ? "ok" : "failed" },
    rooms: { status: rooms === "ok" ? "ok" : "failed" },
    ...(await operatorChecks(c.env, c.var.db)),
  };
  const working = Object.values(checks).every((check) => check.status === "ok");
  // Missing settings are named (never their values). In development local stand-ins cover them; elsewhere
  // their features refuse, so the Worker is degraded but up: 200, while a broken database or room is 503.
  const missing = missingConfig(c.env);
  const complete = isDevelopment(c.env) || missing.length === 0;
  return c.json(
    {
      status: working && complete ? "ok" : "degraded",
      database: { status: database, driver: dbDriver(c.env) },
      rooms,
      services: servicesStatus(c.env),
      // Which provider takes payments (or the development stand-in) and what it still needs, by name.
      billing: billingHealth(c.env),
      missing,
      checks,
    },
    working ? 200 : 503,
  );
});
