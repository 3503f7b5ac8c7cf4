import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { dbDriver } from "../../../db";
import { type AppBindings, servicesStatus } from "../../env";

export const health = new Hono<AppBindings>().get("/", async (c) => {
  let database: "ok" | "error" = "ok";
  try {
    await c.var.db.run(sql`select 1`);
  } catch (e) {
    console.error("health: database", e);
    database = "error";
  }
  // Reaching a room proves the Durable Object binding works, not only that it is declared.
  let rooms: "ok" | "missing" | "error" = "missing";
  if (c.env.ROOMS) {
    try {
      const stub = c.env.ROOMS.get(c.env.ROOMS.idFromName("health"));
      rooms = (await stub.fetch("https://room/health")).ok ? "ok" : "error";
    } catch (e) {
      console.error("health: rooms", e);
      rooms = "error";
    }
  }
  const ok = database === "ok" && rooms === "ok";
  return c.json(
    { status: ok ? "ok" : "degraded", database: { status: database, driver: dbDriver(c.env) }, rooms, services: servicesStatus(c.env) },
    ok ? 200 : 503,
  );
});
