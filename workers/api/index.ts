// The `/api` Hono app. Each route file is thin; domain logic lives in workers/<area> and db/queries. The areas under
// their own prefix that most requests never reach load on their first request (workers/lazy-app.ts,
// docs/decisions/070-light-enough-for-2g.md); the ones mounted at "/" share paths, so they stay in the startup chunk.
import { Hono } from "hono";
import { apiKeyCaller } from "../api-keys";
import { checkOrigin, loadSession } from "../auth/session";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";
import { lazyApp } from "../lazy-app";
import { filesApi } from "../files/routes";
import { apiKeysApi } from "./routes/api-keys";
import { auth } from "./routes/auth";
import { billing } from "./routes/billing";
import { callsApi } from "./routes/calls";
import { contacts } from "./routes/contacts";
import { content } from "./routes/content";
import { deviceLinksApi } from "./routes/device-links";
import { emergency } from "./routes/emergency";
import { health } from "./routes/health";
import { me } from "./routes/me";
import { meshApi } from "./routes/mesh";
import { notificationsApi } from "./routes/notifications";
import { pricesApi } from "./routes/prices";
import { push } from "./routes/push";
import { rewardsApi } from "./routes/rewards";
import { roomsApi } from "./routes/rooms";
import { security } from "./routes/security";

export const api = new Hono<AppBindings>()
  .use(checkOrigin)
  .use(loadSession)
  .use(apiKeyCaller)
  .route("/health", health)
  .route(
    "/ai",
    lazyApp(() => import("./routes/ai").then((m) => m.ai)),
  )
  .route(
    "/admin",
    lazyApp(() => import("./routes/admin").then((m) => m.adminApi)),
  )
  .route(
    "/analytics",
    lazyApp(() => import("./routes/analytics").then((m) => m.analyticsApi)),
  )
  .route(
    "/cache",
    lazyApp(() => import("./routes/cache").then((m) => m.cacheApi)),
  )
  .route(
    "/support",
    lazyApp(() => import("./routes/support").then((m) => m.support)),
  )
  .route(
    "/team",
    lazyApp(() => import("./routes/teams").then((m) => m.teamsApi)),
  )
  .route(
    "/dev",
    lazyApp(() => import("./routes/dev").then((m) => m.dev)),
  )
  .route(
    "/install",
    lazyApp(() => import("./routes/install").then((m) => m.install)),
  )
  .route("/files", filesApi)
  .route("/", me)
  .route("/", auth)
  .route("/", billing)
  .route("/", callsApi)
  .route("/", content)
  .route("/", pricesApi)
  .route("/", emergency)
  .route("/", contacts)
  .route("/", push)
  .route("/", notificationsApi)
  .route("/", roomsApi)
  .route("/", deviceLinksApi)
  .route("/", security)
  .route("/", rewardsApi)
  .route("/", apiKeysApi)
  .route("/", meshApi);

api.onError(onError);
api.notFound(notFound);
