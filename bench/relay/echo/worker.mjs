// The second baseline for bench/relay (docs/decisions/043-room-speed-and-shards.md): the smallest broadcast
// Durable Object — WebSocket hibernation API, parse each frame, give it a seq, ack the sender, send it to every
// other socket; no validation, storage or database. It is the primary Worker of the benchmark's `wrangler dev`
// (bench/relay/run.mjs), so it runs in the same workerd process as the app; every other request goes to the app
// through the APP service binding.
import { DurableObject } from "cloudflare:workers";

export class EchoRoom extends DurableObject {
  seq = 0;

  async fetch() {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].send(JSON.stringify({ type: "hello", room: "echo", userId: "u", latestSeq: this.seq, encrypted: false }));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  webSocketMessage(ws, raw) {
    let frame;
    try {
      frame = JSON.parse(raw);
    } catch {
      ws.send(JSON.stringify({ type: "error", code: "malformed", message: "Frame is not valid JSON" }));
      return;
    }
    if (frame.type !== "send") return;
    const seq = ++this.seq;
    ws.send(JSON.stringify({ type: "ack", id: frame.envelope.id, status: "sent", seq }));
    const out = JSON.stringify({ type: "envelope", seq, envelope: frame.envelope });
    for (const other of this.ctx.getWebSockets()) if (other !== ws) other.send(out);
  }

  webSocketClose(ws, code) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
    } catch {}
  }
}

export default {
  fetch(request, env) {
    const url = new URL(request.url);
    // Room sockets reach the app through one service binding; the minimal DO's take the same hop (through this
    // Worker's binding to itself), so both pay the same runtime path.
    if (url.pathname.startsWith("/bench-echo/")) {
      url.pathname = url.pathname.replace("/bench-echo/", "/bench-echo-do/");
      return env.SELF.fetch(new Request(url, request));
    }
    if (url.pathname.startsWith("/bench-echo-do/")) return env.ECHO.get(env.ECHO.idFromName(url.pathname)).fetch(request);
    return env.APP.fetch(request);
  },
};
