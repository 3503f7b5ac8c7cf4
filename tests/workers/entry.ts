// Worker entry for integration tests: the same server as workers/app.ts, with pages answered by a marker
// instead of the React Router build (which only exists after `vite build`).
import { createServer } from "../../workers/server";
import { scheduled } from "../../workers/scheduled";
import { sosQueue } from "../../workers/sos/fanout";
import { withRequestIds } from "../../workers/logs";

export { MeshRoom } from "../../durable-objects/logged-room";

const server = createServer(async () => new Response("page", { status: 200, headers: { "x-linkup-page": "1" } }));

export default withRequestIds({
  fetch: server.fetch,
  scheduled,
  queue: (batch, env) => sosQueue(batch, env),
} satisfies ExportedHandler<Env>);
