import { Hono } from "hono";
import { OutboxQuerySchema } from "../../../core/schemas";
import { listOutbound } from "../../../db/queries/outbox";
import { type AppBindings, devOutboxEnabled } from "../../env";
import { parseWith } from "../../errors";
import { DomainError } from "../../../core/domain-error";

/**
 * The dev outbox exists only in development while Twilio is not configured: then it is where codes and alerts
 * "arrive". Anywhere else it would hand every verification code to anyone (docs/decisions/010-production-is-not-development.md).
 */
export const dev = new Hono<AppBindings>().get("/outbox", async (c) => {
  if (!devOutboxEnabled(c.env)) throw new DomainError("not_found", "Not found");
  const { limit } = parseWith(OutboxQuerySchema, c.req.query());
  const rows = await listOutbound(c.var.db, limit);
  return c.json({ messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) });
});
