import { Hono } from "hono";
import { OutboxQuerySchema } from "../../../core/schemas";
import { listOutbound } from "../../../db/queries/outbox";
import { type AppBindings, twilioConfigured } from "../../env";
import { ApiError, parseWith } from "../../errors";

/** The dev outbox exists only while Twilio is not configured: then it is where codes and alerts "arrive". */
export const dev = new Hono<AppBindings>().get("/outbox", async (c) => {
  if (twilioConfigured(c.env)) throw new ApiError(404, "Not found");
  const { limit } = parseWith(OutboxQuerySchema, c.req.query());
  const rows = await listOutbound(c.var.db, limit);
  return c.json({ messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) });
});
