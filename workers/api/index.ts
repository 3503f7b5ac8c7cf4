// The `/api` Hono app. Each route file is thin; domain logic lives in workers/<area> and db/queries.
import { Hono } from "hono";
import { checkOrigin, loadSession } from "../auth/session";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";
import { content } from "./routes/content";
import { dev } from "./routes/dev";
import { health } from "./routes/health";
import { me } from "./routes/me";

export const api = new Hono<AppBindings>()
  .use(checkOrigin)
  .use(loadSession)
  .route("/health", health)
  .route("/dev", dev)
  .route("/", me)
  .route("/", content);

api.onError(onError);
api.notFound(notFound);
