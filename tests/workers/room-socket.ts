// A test client for /ws/rooms/:id: a real WebSocket through the Worker with a session cookie, which records
// every server frame and waits for the ones a test expects.
import { SELF } from "cloudflare:test";
import type { Envelope } from "../../core/envelope";
import { type ClientFrame, parseServerFrame, type ServerFrame } from "../../core/frames";
import { newId } from "../../core/ids";
import { applyPresence, type PresenceView } from "../../core/presence";
import { anonymousSession, ORIGIN } from "./helpers";

export class RoomSocket {
  readonly frames: ServerFrame[] = [];
  readonly bad: string[] = [];
  /** UTF-8 size of every frame received, in order. */
  readonly sizes: number[] = [];
  closed: { code: number } | null = null;
  /** Who is here as this socket's client would show it: its presence pages and deltas folded (core/presence.ts). */
  presence: PresenceView | null = null;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (e) => {
      this.sizes.push(new TextEncoder().encode(e.data as string).byteLength);
      const parsed = parseServerFrame(e.data as string);
      if (parsed.ok) {
        this.frames.push(parsed.frame);
        if (parsed.frame.type === "presence" || parsed.frame.type === "presence-delta")
          this.presence = applyPresence(this.presence, parsed.frame);
      } else this.bad.push(String(e.data));
      for (const w of this.waiters.splice(0)) w();
    });
    ws.addEventListener("close", (e) => {
      this.closed = { code: e.code };
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** A protocol frame, or (for refusal tests) any object. */
  send(frame: ClientFrame): void;
  send(frame: Record<string, unknown>): void;
  send(frame: ClientFrame | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | ArrayBuffer): void {
    this.ws.send(data);
  }

  of<T extends ServerFrame["type"]>(type: T): Extract<ServerFrame, { type: T }>[] {
    return this.frames.filter((f): f is Extract<ServerFrame, { type: T }> => f.type === type);
  }

  /** Waits until `pick` finds something among the frames received so far (2 s by default). */
  async waitFor<R>(pick: (frames: ServerFrame[]) => R | undefined | false, timeoutMs = 2000): Promise<R> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = pick(this.frames);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`Timed out; frames: ${JSON.stringify(this.frames).slice(0, 1500)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async waitForType<T extends ServerFrame["type"]>(type: T, where: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true) {
    return this.waitFor(() => this.of(type).find(where));
  }

  /** Waits until the folded presence view passes `check` (the counts and people a screen would show). */
  async waitForPresence(check: (view: PresenceView) => boolean, timeoutMs = 2000): Promise<PresenceView> {
    return this.waitFor(() => (this.presence && check(this.presence) ? this.presence : undefined), timeoutMs);
  }

  close(): void {
    try {
      this.ws.close(1000, "bye");
    } catch {
      // already closed
    }
  }
}

/** Opens the room socket; answers the HTTP status when the upgrade is refused. */
export async function openRoom(roomId: string, cookie?: string): Promise<{ status: number; socket?: RoomSocket; body?: unknown }> {
  const headers: Record<string, string> = { upgrade: "websocket" };
  if (cookie) headers.cookie = cookie;
  const res = await SELF.fetch(`${ORIGIN}/ws/rooms/${encodeURIComponent(roomId)}`, { headers });
  if (res.status !== 101 || !res.webSocket) return { status: res.status, body: await res.json().catch(() => null) };
  res.webSocket.accept();
  const socket = new RoomSocket(res.webSocket);
  await socket.waitForType("hello");
  return { status: 101, socket };
}

export async function mustOpen(roomId: string, cookie: string): Promise<RoomSocket> {
  const { status, socket, body } = await openRoom(roomId, cookie);
  if (!socket) throw new Error(`upgrade refused: ${status} ${JSON.stringify(body)}`);
  return socket;
}

export function textEnvelope(room: string, senderId: string, text: string, extra: Partial<Envelope> = {}): Envelope {
  return {
    id: newId(),
    room,
    senderId,
    timestamp: Date.now(),
    type: "text",
    ttl: 8,
    meshRoute: [],
    isEncrypted: false,
    priority: "normal",
    content: { text },
    ...extra,
  };
}

/**
 * Lets a room's minute pass and runs its alarm: the room writes its D1 batch now
 * (docs/decisions/056-the-room-is-the-record-of-its-messages.md). Answers whether an alarm ran.
 */
export async function flushRoom(roomId: string): Promise<boolean> {
  const { env, runDurableObjectAlarm, runInDurableObject } = await import("cloudflare:test");
  const stub = env.ROOMS.get(env.ROOMS.idFromName(roomId));
  await runInDurableObject(stub, (_room, state) => {
    state.storage.sql.exec("UPDATE meta SET value = '0' WHERE key = 'flush_at'");
  });
  return runDurableObjectAlarm(stub);
}

const GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz";

/**
 * Two people send `each` messages apiece into a fresh area room under `areaPrefix` (a geohash prefix, up to five
 * characters); answers the room, its coarse area (three characters) and who sent.
 */
export async function busyAreaRoom(areaPrefix: string, each: number) {
  const roomId = `nearby:${areaPrefix}${Array.from({ length: 5 - areaPrefix.length }, () => GEOHASH[Math.floor(Math.random() * 32)]).join("")}`;
  const people = [await anonymousSession(), await anonymousSession()];
  for (const p of people) {
    const socket = await mustOpen(roomId, p.cookie);
    for (let i = 0; i < each; i++) socket.send({ type: "send", envelope: textEnvelope(roomId, p.user.id, `line ${i}`) });
    await socket.waitFor(() => socket.of("ack").length === each);
    socket.close();
  }
  return { roomId, area: roomId.slice("nearby:".length, "nearby:".length + 3), people: people.map((p) => p.user.id) };
}
