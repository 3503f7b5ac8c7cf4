// The Worker entry: one fetch handler for pages, APIs, webhooks and sockets, and the Durable Object class.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { appContext } from "../web/app/context";
import { inProcessApi } from "./in-process-api";
import { createServer } from "./server";
import { createDb } from "../db";
import { pruneAnalytics } from "./analytics";
import { runBillingClock } from "./billing";
import { publicEnv } from "./env";
import { runRetention } from "./retention";
import { resumeUnfinishedSos, SOS_SWEEP_CRON } from "./sos";
import { sosQueue } from "./sos/fanout";

export { MeshRoom } from "../durable-objects/mesh-room";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const server = createServer((request, env, ctx, nonce) => {
  const context = new RouterContextProvider();
  context.set(appContext, {
    env: publicEnv(env),
    // Loaders and actions reach data through the same validated API a browser uses, in-process.
    api: inProcessApi(server.fetch, request, env, ctx),
    waitUntil: (p) => ctx.waitUntil(p),
    nonce,
  });
  return requestHandler(request, context);
});

export default {
  fetch: server.fetch,
  // The billing clock: trial reminders and endings by the server's time (docs/decisions/018-billing.md); old
  // hourly and personal analytics go (docs/decisions/037-hourly-and-personal-analytics.md).
  scheduled: (controller, env, ctx) => {
    const db = createDb(env);
    // Every minute, on its own: SOS jobs a dead Worker left unfinished (docs/decisions/054-sos-a-durable-job.md).
    if (controller.cron === SOS_SWEEP_CRON) {
      ctx.waitUntil(resumeUnfinishedSos(env, db).catch((e) => console.error("sos: sweep", e)));
      return;
    }
    ctx.waitUntil(runBillingClock(env, db));
    ctx.waitUntil(pruneAnalytics(db).catch((e) => console.error("analytics: prune", e)));
    // Every table that grows with use keeps rows only as long as a feature reads them (docs/decisions/051-retention.md).
    ctx.waitUntil(runRetention(db).catch((e) => console.error("retention", e)));
  },
  // The SOS fan-out past the first recipients and its dead-letter queue (docs/decisions/036, 054).
  queue: (batch, env) => sosQueue(batch, env),
} satisfies ExportedHandler<Env>;
