// The Worker entry: one fetch handler for pages, APIs, webhooks and sockets, and the Durable Object class.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { appContext } from "../web/app/context";
import { inProcessApi, withCallCount } from "./in-process-api";
import { createServer } from "./server";
import { createDb } from "../db";
import { pruneAnalytics } from "./analytics";
import { runBillingClock } from "./billing";
import { publicEnv } from "./env";
import { cleanUnfinishedUploads } from "./files/cleanup";
import { runRetention } from "./retention";
import { resumeUnfinishedSos, SOS_SWEEP_CRON } from "./sos";
import { sosQueue } from "./sos/fanout";
import { currentRequestId, withRequestIds } from "./logs";

export { MeshRoom } from "../durable-objects/logged-room";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const server = createServer(async (request, env, ctx, nonce) => {
  const context = new RouterContextProvider();
  context.set(appContext, {
    env: publicEnv(env),
    // Loaders and actions reach data through the same validated API a browser uses, in-process.
    api: inProcessApi(server.fetch, request, env, ctx),
    waitUntil: (p) => ctx.waitUntil(p),
    nonce,
    requestId: currentRequestId() ?? "",
  });
  return withCallCount(await requestHandler(request, context), request, env);
});

// The Cron run and each queue batch log under an id of their own, like a request (docs/decisions/053-nothing-lost.md).
export default withRequestIds({
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
    // Multipart uploads never completed: aborted in R2 and removed after a day (docs/decisions/055-webhooks-and-files-survive-a-crash.md).
    ctx.waitUntil(cleanUnfinishedUploads(env, db).catch((e) => console.error("files: cleanup", e)));
  },
  // The SOS fan-out past the first recipients and its dead-letter queue (docs/decisions/036, 054).
  queue: (batch, env) => sosQueue(batch, env),
} satisfies ExportedHandler<Env>);
