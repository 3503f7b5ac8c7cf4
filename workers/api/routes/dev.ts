import { Hono } from "hono";
import { DevSqlSchema, OutboxQuerySchema } from "../../../core/schemas";
import { listOutbound } from "../../../db/queries/outbox";
import { type AppBindings, devOutboxEnabled, isDevelopment } from "../../env";
import { parseJson, parseWith } from "../../errors";
import { DomainError } from "../../../core/domain-error";

/**
 * The dev outbox exists only in development while Twilio is not configured: then it is where codes and alerts
 * "arrive". Anywhere else it would hand every verification code to anyone (docs/decisions/010-production-is-not-development.md).
 */
export const dev = new Hono<AppBindings>()
  .get("/outbox", async (c) => {
    if (!devOutboxEnabled(c.env)) throw new DomainError("not_found", "Not found");
    const { limit } = parseWith(OutboxQuerySchema, c.req.query());
    const rows = await listOutbound(c.var.db, limit);
    return c.json({ messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) });
  })
  /**
   * A browser test playing a malicious or broken server writes the database inside the served Worker. Writing the
   * SQLite file from another process instead made the Worker's own writes fail as busy (intermittent 500s).
   * Open only in development with the harness's key, which `npm run dev` and production never have.
   */
  .post("/sql", async (c) => {
    const key = c.env.TEST_SQL_TOKEN;
    if (!isDevelopment(c.env) || !key || c.req.header("x-test-sql-token") !== key) throw new DomainError("not_found", "Not found");
    const { sql } = await parseJson(c, DevSqlSchema);
    await c.env.DB.exec(sql);
    return c.json({ ok: true });
  });
