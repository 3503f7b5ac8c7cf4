// The Worker entry: one fetch handler for pages, APIs, webhooks and sockets, and the Durable Object class.
import { env as workerEnv } from "cloudflare:workers";
import { KEY_COUNT, WORKER_ASSETS_BASE } from "virtual:linkup/worker-assets";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { serveCatalogsFrom } from "../core/i18n/load-catalog";
import { servePhoneMetadataFrom } from "../core/phone";
import { appContext } from "../web/app/context";
import { inProcessApi, withCallCount } from "./in-process-api";
import { createServer } from "./server";
import { publicEnv } from "./env";
import { scheduled } from "./scheduled";
import { sosQueue } from "./sos/fanout";
import { currentRequestId, withRequestIds } from "./logs";
import { catalogsFromAssets, phoneMetadataFromAssets } from "./worker-assets";

export { MeshRoom } from "./rooms/mesh-room";

// The built Worker reads its catalogs and the phone metadata from its static assets; development from the sources
// (docs/decisions/082-a-worker-that-starts-small.md).
if (import.meta.env.PROD) {
  serveCatalogsFrom(catalogsFromAssets(workerEnv.ASSETS, WORKER_ASSETS_BASE, KEY_COUNT));
  servePhoneMetadataFrom(phoneMetadataFromAssets(workerEnv.ASSETS, WORKER_ASSETS_BASE));
}

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
  // Each Cron schedule's work (workers/scheduled.ts).
  scheduled,
  // The SOS fan-out past the first recipients and its dead-letter queue (docs/decisions/036, 054).
  queue: (batch, env) => sosQueue(batch, env),
} satisfies ExportedHandler<Env>);
