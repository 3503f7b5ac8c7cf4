// The React Router pages' handler (docs/architecture.md §1). workers/app.ts loads this module on the first page request,
// so an isolate that only answers the API, sockets, webhooks, Cron or the queue never evaluates React Router
// (docs/decisions/082-a-worker-that-starts-small.md); the pages' server build itself loads on first use as before.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { appContext } from "../web/app/context";
import type { AppEnv } from "./env";
import { publicEnv } from "./env";
import { type Fetch, inProcessApi, withCallCount } from "./in-process-api";
import { currentRequestId } from "./logs";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

/** Renders a page; `apiFetch` is the Worker's own fetch, which loaders and actions call in-process. */
export async function renderPage(apiFetch: Fetch, request: Request, env: AppEnv, ctx: ExecutionContext, nonce: string): Promise<Response> {
  const context = new RouterContextProvider();
  context.set(appContext, {
    env: publicEnv(env),
    // Loaders and actions reach data through the same validated API a browser uses, in-process.
    api: inProcessApi(apiFetch, request, env, ctx),
    waitUntil: (p) => ctx.waitUntil(p),
    nonce,
    requestId: currentRequestId() ?? "",
  });
  return withCallCount(await requestHandler(request, context), request, env);
}
