// Structured logs (docs/decisions/053-nothing-lost.md): every line the Worker, its Durable Objects, the queue
// consumer and the Cron print is one JSON object {level, msg, requestId, ...fields}. The hundreds of console calls
// stay as they are: the console is wrapped once per isolate, and the request id travels in an AsyncLocalStorage
// (nodejs_compat) set where each event enters (workers/app.ts, workers/server.ts, durable-objects/logged-room.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";

/** The header every answer names its request id in (and the Worker hands a Durable Object). */
export const REQUEST_ID_HEADER = "x-request-id";

// Kept on globalThis: one store and one set of taps per isolate, even where a test runner loads this module twice
// (the Worker's copy and a Durable Object's must agree on the id and wrap the console once).
type Shared = { requestIds: AsyncLocalStorage<string>; taps: Set<(line: string) => void>; installed: boolean };
const SHARED = Symbol.for("linkup.logs");
const holder = globalThis as { [SHARED]?: Shared };
holder[SHARED] ??= { requestIds: new AsyncLocalStorage<string>(), taps: new Set(), installed: false };
const shared = holder[SHARED];
const { requestIds, taps } = shared;

/** The id of the request (or queue batch, Cron run, socket) this code runs for; undefined outside any. */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}

/** Runs `fn` with `id` as the request id of every line it logs, including work it leaves to waitUntil. */
export function withRequestId<T>(id: string, fn: () => T): T {
  return requestIds.run(id, fn);
}

/** Cloudflare's Ray ID names the request in its own dashboards too; a fresh id where there is none (local runs). */
export function requestIdFor(request: Request): string {
  return request.headers.get("cf-ray") || newRequestId();
}

export function newRequestId(prefix = ""): string {
  return `${prefix}${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

type Level = "debug" | "info" | "warn" | "error";
const LEVELS: [keyof Console & ("debug" | "log" | "info" | "warn" | "error"), Level][] = [
  ["debug", "debug"],
  ["log", "info"],
  ["info", "info"],
  ["warn", "warn"],
  ["error", "error"],
];
const RESERVED = new Set(["level", "msg", "requestId"]);

/** Every line as written, for tests that read what a request logged. Returns the function that stops it. */
export function tapLogLines(fn: (line: string) => void): () => void {
  taps.add(fn);
  return () => taps.delete(fn);
}

function errorFields(err: Error): Record<string, unknown> {
  const cause = err.cause instanceof Error ? err.cause.message : err.cause;
  // The stack goes to the log only: responses say "Internal server error" and the request id (workers/errors.ts).
  return { error: err.message, errorName: err.name, stack: err.stack, ...(cause === undefined ? {} : { cause: String(cause) }) };
}

/** One console call as one JSON object: strings and numbers make the message, errors and objects the fields. */
export function logLine(level: Level, args: unknown[], requestId = currentRequestId()): string {
  const words: string[] = [];
  const fields: Record<string, unknown> = {};
  const extra: unknown[] = [];
  for (const arg of args) {
    if (arg instanceof Error) Object.assign(fields, errorFields(arg));
    else if (arg === null || typeof arg !== "object") words.push(String(arg));
    else if (!Array.isArray(arg) && Object.keys(arg).every((k) => !RESERVED.has(k) && !(k in fields))) Object.assign(fields, arg);
    else extra.push(arg);
  }
  if (extra.length) fields.args = extra;
  const entry = { level, msg: words.join(" "), requestId: requestId ?? null, ...fields };
  try {
    return JSON.stringify(entry, safeReplacer());
  } catch {
    return JSON.stringify({ level, msg: words.join(" "), requestId: requestId ?? null, unserializable: true });
  }
}

function safeReplacer() {
  const seen = new WeakSet<object>();
  return (_key: string, value: unknown) => {
    if (typeof value === "bigint") return value.toString();
    if (value instanceof Error) return errorFields(value);
    if (value !== null && typeof value === "object") {
      if (seen.has(value)) return "[circular]";
      seen.add(value);
    }
    return value;
  };
}

/** Wraps the console once per isolate (idempotent): each call prints one JSON line through the original method. */
export function installJsonLogs(): void {
  if (shared.installed) return;
  shared.installed = true;
  for (const [method, level] of LEVELS) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const line = logLine(level, args);
      for (const tap of taps) tap(line);
      original(line);
    };
  }
}

/**
 * The first middleware of the server (workers/server.ts): the request runs under its id and the answer names it in
 * `x-request-id`, so a person can quote it to support. A page's in-process API calls (workers/in-process-api.ts)
 * run inside the page's request and keep its id.
 */
export const requestIdMiddleware: MiddlewareHandler = async (c, next) => {
  const id = currentRequestId() ?? requestIdFor(c.req.raw);
  await withRequestId(id, next);
  // A WebSocket upgrade (101) has immutable headers.
  if (c.res.status === 101) return;
  try {
    c.res.headers.set(REQUEST_ID_HEADER, id);
  } catch {
    // Headers of a response fetched from elsewhere (a Durable Object, R2) are immutable: copy it once.
    const copy = new Response(c.res.body, c.res);
    copy.headers.set(REQUEST_ID_HEADER, id);
    c.res = copy;
  }
};

/** The Worker's handlers with each Cron run and queue batch logging under an id of its own, like a request. */
export function withRequestIds<E, Q>(handler: ExportedHandler<E, Q>): ExportedHandler<E, Q> {
  const { scheduled, queue } = handler;
  return {
    ...handler,
    ...(scheduled && { scheduled: (controller, env, ctx) => withRequestId(newRequestId("cron-"), () => scheduled(controller, env, ctx)) }),
    ...(queue && { queue: (batch, env, ctx) => withRequestId(newRequestId("queue-"), () => queue(batch, env, ctx)) }),
  };
}
