import { Hono } from "hono";
import { EmergencyBroadcastSchema } from "../../../core/sos-schemas";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { clientAddress } from "../../limits";
import { noteSosAddressOf } from "../../rewards";
import { broadcastSos, nearbySos, resolveSos, respondToSos } from "../../sos";

// An emergency is never behind verification or a tier: any signed-in user (anonymous too) may send one.
export const emergency = new Hono<AppBindings>()
  .post("/emergency/broadcast", async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, EmergencyBroadcastSchema);
    const clientAddr = clientAddress(c.env, c.req.header("cf-connecting-ip"));
    const result = await broadcastSos(c.env, c.var.db, { ...body, userId: user.id, channel: "web", clientAddress: clientAddr }, (p) =>
      c.executionCtx.waitUntil(p),
    );
    await noteSosAddressOf(c.env, c.var.db, { sosId: result.id }, clientAddr);
    return c.json(result, result.created ? 201 : 200);
  })
  .post("/emergency/:id/respond", async (c) => {
    const user = requireUser(c);
    const answer = await respondToSos(c.env, c.var.db, c.req.param("id"), user, (p) => c.executionCtx.waitUntil(p));
    // Where the answer came from: an answer from the SOS's own address earns no reward (workers/rewards).
    const address = clientAddress(c.env, c.req.header("cf-connecting-ip"));
    await noteSosAddressOf(c.env, c.var.db, { sosId: answer.id, responderId: user.id }, address);
    return c.json(answer);
  })
  .post("/emergency/:id/resolve", async (c) => {
    const user = requireUser(c);
    const row = await resolveSos(c.env, c.var.db, c.req.param("id"), user);
    return c.json({ id: row.id, status: row.status, resolvedAt: row.resolvedAt?.toISOString() ?? null });
  })
  .get("/emergency/nearby", async (c) => {
    const user = requireUser(c);
    return c.json(await nearbySos(c.var.db, user));
  });
