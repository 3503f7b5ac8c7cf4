// The Worker entry: one fetch handler for pages, APIs, webhooks and sockets, and the Durable Object class.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { appContext } from "../web/app/context";
import { createServer } from "./server";
import { publicEnv } from "./env";

export { MeshRoom } from "../durable-objects/mesh-room";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

const server = createServer((request, env, ctx) => {
  const context = new RouterContextProvider();
  context.set(appContext, {
    env: publicEnv(env),
    // Loaders and actions reach data through the same validated API a browser uses, in-process.
    api: (path, init) => {
      const headers = new Headers(init?.headers);
      const cookie = request.headers.get("cookie");
      if (cookie && !headers.has("cookie")) headers.set("cookie", cookie);
      const ua = request.headers.get("user-agent");
      if (ua) headers.set("user-agent", ua);
      const url = new URL(path, request.url);
      return Promise.resolve(server.fetch(new Request(url, { ...init, headers }), env, ctx));
    },
    waitUntil: (p) => ctx.waitUntil(p),
  });
  return requestHandler(request, context);
});

export default { fetch: server.fetch } satisfies ExportedHandler<Env>;
