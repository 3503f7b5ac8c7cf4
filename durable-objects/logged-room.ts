// The MeshRoom the Worker exports: the room itself (durable-objects/mesh-room.ts) with each event it handles run
// under a request id, so its log lines join the request's (docs/decisions/053-nothing-lost.md). An upgrade runs
// under the id the Worker hands over in `x-request-id`; the socket keeps that id as a hibernation tag (tags survive
// hibernation, docs: developers.cloudflare.com/durable-objects/api/websockets/), so every frame, close and error
// of the socket logs the id of the request that opened it.
import { currentRequestId, newRequestId, REQUEST_ID_HEADER, requestIdFor, withRequestId } from "../workers/logs";
import { MeshRoom as Room } from "./mesh-room";

const TAG = "request-id:";
const RAW = Symbol("raw state");

/**
 * The state the room sees: sockets it accepts get the current request id as one more tag, which its own getTags
 * never shows (the room reads a socket's tags as the people in it).
 */
function taggingSockets(ctx: DurableObjectState): DurableObjectState {
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === RAW) return target;
      if (prop === "acceptWebSocket")
        return (ws: WebSocket, tags: string[] = []) => {
          const id = currentRequestId();
          target.acceptWebSocket(ws, id ? [...tags, `${TAG}${id}`] : tags);
        };
      if (prop === "getTags") return (ws: WebSocket) => target.getTags(ws).filter((t) => !t.startsWith(TAG));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The id of the request that opened this socket; a fresh one for a socket accepted before ids were tagged. */
export function socketRequestId(ctx: DurableObjectState, ws: WebSocket): string {
  const raw = (ctx as DurableObjectState & { [RAW]?: DurableObjectState })[RAW] ?? ctx;
  const tag = raw.getTags(ws).find((t) => t.startsWith(TAG));
  return tag ? tag.slice(TAG.length) : newRequestId("socket-");
}

export class MeshRoom extends Room {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The base class takes only the real state; the room reaches it as this.ctx from here on.
    Object.defineProperty(this, "ctx", { value: taggingSockets(ctx), writable: false, configurable: true });
  }

  override fetch(request: Request): Promise<Response> {
    const id = request.headers.get(REQUEST_ID_HEADER) || requestIdFor(request);
    return withRequestId(id, () => super.fetch(request));
  }

  override webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer): Promise<void> {
    return withRequestId(socketRequestId(this.ctx, ws), () => super.webSocketMessage(ws, raw));
  }

  override webSocketClose(ws: WebSocket, code: number): Promise<void> {
    return withRequestId(socketRequestId(this.ctx, ws), () => super.webSocketClose(ws, code));
  }

  override webSocketError(ws: WebSocket): Promise<void> {
    return withRequestId(socketRequestId(this.ctx, ws), () => super.webSocketError(ws));
  }

  override alarm(): Promise<void> {
    return withRequestId(newRequestId("alarm-"), () => super.alarm());
  }
}
