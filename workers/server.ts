// Routes every request of the one Worker (DESIGN.md §1): /api, /webhooks/whatsapp, /ussd, /ws/rooms/:id
// through Hono; everything else to the React Router pages.
import { Hono } from "hono";
import { api } from "./api";
import { stripeWebhook } from "./billing/webhook";
import { type AppEnv, checkSecrets } from "./env";
import { notFound } from "./errors";
import { rooms } from "./rooms/socket";
import { ussd } from "./ussd";
import { whatsapp } from "./whatsapp";

export type PageHandler = (request: Request, env: AppEnv, ctx: ExecutionContext) => Promise<Response>;

export function createServer(pages: PageHandler) {
  const app = new Hono<{ Bindings: AppEnv }>();
  app.use(async (c, next) => {
    checkSecrets(c.env);
    await next();
  });
  app.route("/api", api);
  app.route("/webhooks/whatsapp", whatsapp);
  app.route("/webhooks/stripe", stripeWebhook);
  app.route("/ussd", ussd);
  app.route("/ws/rooms", rooms);
  // Unknown paths under the Hono apps are JSON 404s, never a page.
  for (const prefix of ["/api/*", "/webhooks/*", "/ussd/*", "/ws/*"]) app.all(prefix, notFound);
  app.all("*", (c) => pages(c.req.raw, c.env, c.executionCtx as ExecutionContext));
  return app;
}
