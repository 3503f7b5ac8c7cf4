// Structured logs with request ids (docs/decisions/053-nothing-lost.md): what a request logs is JSON carrying the
// id its answer names, errors keep their stack in the log only, and a room's lines carry the id of the request
// that opened the socket.
import { createExecutionContext, env, runInDurableObject, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RoomSocket } from "../tests/workers/room-socket";
import { anonymousSession, ORIGIN } from "../tests/workers/helpers";
import type { AppEnv } from "./env";
import { logLine, tapLogLines, withRequestIds } from "./logs";
import { createServer } from "./server";

const server = createServer(async () => new Response("page"));
let stopTap: (() => void) | undefined;
afterEach(() => {
  stopTap?.();
  vi.restoreAllMocks();
});

/** The lines logged from now on, each parsed: a line that is not one JSON object fails the test. */
function capture(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  stopTap = tapLogLines((line) => lines.push(JSON.parse(line)));
  return lines;
}

async function request(path: string, init: RequestInit, bindings: AppEnv) {
  const ctx = createExecutionContext();
  const res = await server.fetch(new Request(`${ORIGIN}${path}`, init), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const base = env as unknown as AppEnv;

describe("request ids", () => {
  it("names Cloudflare's Ray ID as the request id, or a fresh one for each request", async () => {
    const ray = await SELF.fetch(`${ORIGIN}/api/health`, { headers: { "cf-ray": "8f00aa11bb22cc33-LOS" } });
    expect(ray.headers.get("x-request-id")).toBe("8f00aa11bb22cc33-LOS");
    const a = (await SELF.fetch(`${ORIGIN}/api/health`)).headers.get("x-request-id");
    const b = (await SELF.fetch(`${ORIGIN}/api/health`)).headers.get("x-request-id");
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(b).not.toBe(a);
  });

  it("logs a request's lines as JSON with the id its answer names, the stack only in the log", async () => {
    const lines = capture();
    // R2 does not answer: /api/health logs the failure (with its stack) and says which check failed.
    const broken = { ...base, FILES: { head: () => Promise.reject(new Error("r2 unreachable")) } } as unknown as AppEnv;
    const res = await request("/api/health", { headers: { "cf-ray": "7a7a7a7a7a7a7a7a-LOS" } }, broken);
    expect(res.status).toBe(503);
    expect(res.headers.get("x-request-id")).toBe("7a7a7a7a7a7a7a7a-LOS");
    const line = lines.find((l) => l.msg === "health: R2");
    expect(line).toMatchObject({ level: "error", requestId: "7a7a7a7a7a7a7a7a-LOS", error: "r2 unreachable" });
    expect(String(line?.stack)).toContain("r2 unreachable");
    expect(await res.text()).not.toContain("at ");
  });

  it("shows the request id, never the stack, in a 500 answer; the log line has both", async () => {
    const lines = capture();
    const failing = {
      ...base,
      DB: {
        prepare: () => {
          throw new Error("D1 is down");
        },
        batch: () => Promise.reject(new Error("D1 is down")),
      },
    } as unknown as AppEnv;
    const res = await request("/api/auth/anonymous", { method: "POST", headers: { origin: ORIGIN } }, failing);
    expect(res.status).toBe(500);
    const id = res.headers.get("x-request-id");
    const body = await res.json<Record<string, unknown>>();
    expect(body).toEqual({ error: "Internal server error", code: "internal_error", requestId: id });
    const line = lines.find((l) => l.msg === "Unhandled error POST /api/auth/anonymous");
    expect(line).toMatchObject({ level: "error", requestId: id });
    expect(String(line?.stack)).toContain("D1 is down");
  });

  it("keeps the benchmark's and the SIGKILL runner's markers greppable in msg", () => {
    const line = logLine("info", ["linkup-d1-statement w"], "abc");
    expect(JSON.parse(line)).toEqual({ level: "info", msg: "linkup-d1-statement w", requestId: "abc" });
    expect(line).toMatch(/linkup-d1-statement [rw]/);
  });
});

describe("the Cron and the queue consumer", () => {
  it("log each run and each batch under an id of its own, kept across awaits", async () => {
    const lines = capture();
    const handler = withRequestIds<Env, unknown>({
      scheduled: async () => {
        console.log("cron: before");
        await new Promise((r) => setTimeout(r, 5));
        console.log("cron: after");
      },
      queue: async () => console.log("queue: batch"),
    });
    const ctx = createExecutionContext();
    await handler.scheduled?.({} as ScheduledController, env as unknown as Env, ctx);
    await handler.queue?.({} as MessageBatch, env as unknown as Env, ctx);
    await handler.queue?.({} as MessageBatch, env as unknown as Env, ctx);
    const id = (msg: string) => lines.filter((l) => l.msg === msg).map((l) => String(l.requestId));
    expect(id("cron: before")[0]).toMatch(/^cron-[0-9a-f]{16}$/);
    expect(id("cron: after")).toEqual(id("cron: before"));
    const batches = id("queue: batch");
    expect(batches).toHaveLength(2);
    for (const b of batches) expect(b).toMatch(/^queue-[0-9a-f]{16}$/);
    expect(batches[0]).not.toBe(batches[1]);
  });
});

describe("the room's lines", () => {
  it("carry the id of the request that opened the socket, for every frame", async () => {
    const lines = capture();
    const a = await anonymousSession();
    const roomId = "nearby:s1v0g";
    const res = await SELF.fetch(`${ORIGIN}/ws/rooms/${encodeURIComponent(roomId)}`, {
      headers: { upgrade: "websocket", cookie: a.cookie, "cf-ray": "5e5e5e5e5e5e5e5e-LOS" },
    });
    expect(res.status).toBe(101);
    res.webSocket?.accept();
    const socket = new RoomSocket(res.webSocket as WebSocket);
    await socket.waitForType("hello");
    // Whatever the room logs while it handles a frame: here one line, from the room's own frame handler (the
    // room's class as its Durable Object loaded it: the test runner may load modules apart from the test's).
    const stub = env.ROOMS.get(env.ROOMS.idFromName(roomId));
    const roomClass = await runInDurableObject(stub, (room) => Object.getPrototypeOf(Object.getPrototypeOf(room)));
    const handle = vi
      .spyOn(roomClass as { handle: () => Promise<void> }, "handle")
      .mockImplementation(async () => console.log("room: frame handled"));
    // (A bare ping is answered by the runtime without waking the room: typing frames reach it.)
    socket.send({ type: "typing", active: true });
    socket.send({ type: "typing", active: false });
    await vi.waitFor(() => expect(lines.filter((l) => l.msg === "room: frame handled")).toHaveLength(2));
    expect(handle).toHaveBeenCalledTimes(2);
    for (const l of lines.filter((x) => x.msg === "room: frame handled")) expect(l.requestId).toBe("5e5e5e5e5e5e5e5e-LOS");
    socket.ws.close();
  });
});
