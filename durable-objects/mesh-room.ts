// MeshRoom: one Durable Object per room. Relays envelopes between the room's sockets (hibernation API).
// History, resume, receipts and presence grow in the mesh-chat issue.
import { DurableObject } from "cloudflare:workers";
import type { Envelope } from "../core/envelope";

interface Attachment {
  userId: string;
  nickname: string;
}

export class MeshRoom extends DurableObject<Env> {
  /** Health probe and WebSocket upgrades (already authenticated by the Worker). */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok");
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("Expected WebSocket", { status: 426 });
    const userId = url.searchParams.get("user");
    if (!userId) return new Response("Missing user", { status: 400 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].serializeAttachment({ userId, nickname: url.searchParams.get("nickname") ?? "" } satisfies Attachment);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** Relays each frame to every other socket of the room. */
  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    for (const other of this.ctx.getWebSockets()) if (other !== ws) other.send(message);
  }

  /**
   * Server-side delivery (SOS, system notices, assistant replies): stores and relays an envelope as if a
   * member had sent it. Answers how many sockets it reached. The SOS and assistant modules call this.
   */
  async deliver(envelope: Envelope): Promise<{ delivered: number }> {
    const frame = JSON.stringify({ type: "envelope", envelope });
    const sockets = this.ctx.getWebSockets();
    for (const ws of sockets) ws.send(frame);
    return { delivered: sockets.length };
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    ws.close(code, "closing");
  }
}
