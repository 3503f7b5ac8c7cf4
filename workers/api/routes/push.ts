import { Hono } from "hono";
import { PushSubscribeSchema, PushUnsubscribeSchema } from "../../../core/sos-schemas";
import { countPushSubscriptions, deletePushSubscription, upsertPushSubscription } from "../../../db/queries/notifications";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { DomainError } from "../../../core/domain-error";
import { endpointAllowed, vapidConfigured } from "../../services/push";

export const push = new Hono<AppBindings>()
  .get("/push/vapid-public-key", (c) => {
    if (!vapidConfigured(c.env)) throw new DomainError("push_not_configured", "Push notifications are not configured on this server");
    return c.json({ publicKey: c.env.VAPID_PUBLIC_KEY });
  })
  .get("/push/status", async (c) => {
    const user = requireUser(c);
    return c.json({ configured: vapidConfigured(c.env), subscriptions: await countPushSubscriptions(c.var.db, user.id) });
  })
  .post("/push/subscribe", async (c) => {
    const user = requireUser(c);
    if (!vapidConfigured(c.env)) throw new DomainError("push_not_configured", "Push notifications are not configured on this server");
    const sub = await parseJson(c, PushSubscribeSchema);
    if (!endpointAllowed(c.env, sub.endpoint))
      throw new DomainError("push_endpoint", "Push endpoint must be an https URL of a push service");
    await upsertPushSubscription(c.var.db, user.id, { endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth });
    return c.json({ ok: true }, 201);
  })
  .delete("/push/subscribe", async (c) => {
    const user = requireUser(c);
    const { endpoint } = await parseJson(c, PushUnsubscribeSchema);
    const removed = await deletePushSubscription(c.var.db, user.id, endpoint);
    return c.json({ ok: true, removed });
  });
