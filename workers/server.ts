// Routes every request of the one Worker (docs/architecture.md §1): /api, /webhooks/whatsapp, /ussd, /ws/rooms/:id
// through Hono; everything else to the React Router pages.
import { Hono } from "hono";
import { api } from "./api";
import { discardUnreadBodies, limitBodies } from "./body";
import { followBodyCopies, rememberWrites } from "./db-reads";
import { type AppEnv, checkSecrets } from "./env";
import { notFound } from "./errors";
import { type NonceVariables, securityHeaders } from "./headers";
import { lazyApp } from "./lazy-app";
import { installJsonLogs, requestIdMiddleware } from "./logs";
import { rooms } from "./rooms/socket";
import { followPassCopies, handOutPasses } from "./auth/session-pass";

/** Renders a page; `nonce` is the one the Content-Security-Policy of this answer allows inline scripts by. */
export type PageHandler = (request: Request, env: AppEnv, ctx: ExecutionContext, nonce: string) => Promise<Response>;

export function createServer(pages: PageHandler) {
  // One JSON object per log line, each with its request id (docs/decisions/053-nothing-lost.md).
  installJsonLogs();
  const app = new Hono<{ Bindings: AppEnv } & NonceVariables>();
  app.use(requestIdMiddleware);
  app.use(securityHeaders);
  // Next: every body a handler left unread is drained, so a refusal never breaks the next request.
  app.use(discardUnreadBodies);
  // A request that wrote hands on its D1 bookmark, so the person's next reads see their writes (workers/db-reads.ts).
  app.use(rememberWrites);
  // The session pass an answer issues or clears goes out as a cookie (docs/decisions/065-the-session-off-d1.md).
  app.use(handOutPasses);
  app.use(limitBodies);
  app.use(followBodyCopies);
  app.use(followPassCopies);
  app.use(async (c, next) => {
    checkSecrets(c.env);
    await next();
  });
  app.route("/api", api);
  // The phone channels and the payment webhooks load on their first request (workers/lazy-app.ts).
  app.route(
    "/webhooks/whatsapp",
    lazyApp(() => import("./whatsapp").then((m) => m.whatsapp)),
  );
  app.route(
    "/webhooks/stripe",
    lazyApp(() => import("./billing/webhook").then((m) => m.stripeWebhook)),
  );
  app.route(
    "/webhooks/paystack",
    lazyApp(() => import("./billing/webhook").then((m) => m.paystackWebhook)),
  );
  app.route(
    "/ussd",
    lazyApp(() => import("./ussd").then((m) => m.ussd)),
  );
  app.route("/ws/rooms", rooms);
  // Unknown paths under the Hono apps are JSON 404s, never a page.
  for (const prefix of ["/api/*", "/webhooks/*", "/ussd/*", "/ws/*"]) app.all(prefix, notFound);
  app.all("*", (c) => pages(c.req.raw, c.env, c.executionCtx as ExecutionContext, c.var.nonce));
  return app;
}
