// The Worker entry: one fetch handler for pages, APIs, webhooks and sockets, and the Durable Object class.
// What only some invocations need loads on first use (docs/decisions/082-a-worker-that-starts-small.md): the pages'
// handler with React Router (workers/pages.ts) on the first page request, the Cron work on the first Cron run, the SOS
// queue's consumer on its first batch. A failed load is forgotten, so the next invocation tries again.
import { env as workerEnv } from "cloudflare:workers";
import { KEY_COUNT, WORKER_ASSETS_BASE } from "virtual:linkup/worker-assets";
import { serveCatalogsFrom } from "../core/i18n/load-catalog";
import { servePhoneMetadataFrom } from "../core/phone";
import { createServer } from "./server";
import { withRequestIds } from "./logs";
import { catalogsFromAssets, phoneMetadataFromAssets } from "./worker-assets";

export { MeshRoom } from "./rooms/mesh-room";

// The built Worker reads its catalogs and the phone metadata from its static assets; development from the sources
// (docs/decisions/082-a-worker-that-starts-small.md).
if (import.meta.env.PROD) {
  serveCatalogsFrom(catalogsFromAssets(workerEnv.ASSETS, WORKER_ASSETS_BASE, KEY_COUNT));
  servePhoneMetadataFrom(phoneMetadataFromAssets(workerEnv.ASSETS, WORKER_ASSETS_BASE));
}

/** `load()` once per isolate; a rejected load is not kept. */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((e: unknown) => {
      loaded = undefined;
      throw e;
    }));
}

const pages = onFirstUse(() => import("./pages"));
const cron = onFirstUse(() => import("./scheduled"));
const sos = onFirstUse(() => import("./sos/fanout"));

const server = createServer(async (request, env, ctx, nonce) => (await pages()).renderPage(server.fetch, request, env, ctx, nonce));

// The Cron run and each queue batch log under an id of their own, like a request (docs/decisions/053-nothing-lost.md).
export default withRequestIds({
  fetch: server.fetch,
  // Each Cron schedule's work (workers/scheduled.ts).
  scheduled: async (controller, env, ctx) => (await cron()).scheduled(controller, env, ctx),
  // The SOS fan-out past the first recipients and its dead-letter queue (docs/decisions/036, 054).
  queue: async (batch, env) => (await sos()).sosQueue(batch, env),
} satisfies ExportedHandler<Env>);
