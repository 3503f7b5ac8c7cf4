// The `/api` Hono app. Each route file is thin; domain logic lives in workers/<area> and db/queries.
import { Hono } from "hono";
import { apiKeyCaller } from "../api-keys";
import { checkOrigin, loadSession } from "../auth/session";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";
import { filesApi } from "../files/routes";
import { adminApi } from "./routes/admin";
import { ai } from "./routes/ai";
import { analyticsApi } from "./routes/analytics";
import { apiKeysApi } from "./routes/api-keys";
import { cacheApi } from "./routes/cache";
import { auth } from "./routes/auth";
import { billing } from "./routes/billing";
import { callsApi } from "./routes/calls";
import { contacts } from "./routes/contacts";
import { content } from "./routes/content";
import { dev } from "./routes/dev";
import { deviceLinksApi } from "./routes/device-links";
import { emergency } from "./routes/emergency";
import { health } from "./routes/health";
import { install } from "./routes/install";
import { me } from "./routes/me";
import { meshApi } from "./routes/mesh";
import { notificationsApi } from "./routes/notifications";
import { pricesApi } from "./routes/prices";
import { push } from "./routes/push";
import { rewardsApi } from "./routes/rewards";
import { roomsApi } from "./routes/rooms";
import { security } from "./routes/security";
import { support } from "./routes/support";
import { teamsApi } from "./routes/teams";

export const api = new Hono<AppBindings>()
  .use(checkOrigin)
  .use(loadSession)
  .use(apiKeyCaller)
  .route("/health", health)
  .route("/ai", ai)
  .route("/admin", adminApi)
  .route("/analytics", analyticsApi)
  .route("/cache", cacheApi)
  .route("/support", support)
  .route("/team", teamsApi)
  .route("/dev", dev)
  .route("/install", install)
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
