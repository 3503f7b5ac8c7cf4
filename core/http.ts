// The client's request conventions (docs/product/client-conventions.md), kept pure so they are tested once.

/** An error whose message is 'status: body' (or the status text when the body is empty). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText = "",
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = "HttpError";
  }

  /** The `error` field of the JSON envelope when there is one, else the raw body. */
  get errorText(): string {
    try {
      const parsed = JSON.parse(this.body) as { error?: unknown };
      if (typeof parsed.error === "string") return parsed.error;
    } catch {}
    return this.body || this.message;
  }

  /** The parsed JSON body, when it is JSON. */
  get json(): unknown {
    try {
      return JSON.parse(this.body);
    } catch {
      return undefined;
    }
  }
}

/** Queries retry up to 3 times, never when the error says 401 or 403. Mutations never retry. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("401") || message.includes("403")) return false;
  return failureCount < 3;
}

/** Retry delay doubling from 1 s, capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/**
 * Generic request: JSON body (with a JSON content type) only when present, cookies always sent; a non-OK
 * answer throws HttpError.
 */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown, fetcher: typeof fetch = fetch): Promise<T> {
  const res = await fetcher(url, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new HttpError(res.status, await res.text(), res.statusText);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** Default data load: GET with retries per the rules above; `on401: 'null'` turns a 401 into null. */
export async function queryJson<T>(
  url: string,
  opts: { on401?: "null" | "throw"; fetcher?: typeof fetch; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T | null> {
  const sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  for (let failures = 0; ; failures++) {
    try {
      return await apiRequest<T>("GET", url, undefined, opts.fetcher);
    } catch (error) {
      if (opts.on401 === "null" && error instanceof HttpError && error.status === 401) return null;
      if (!shouldRetryQuery(failures, error)) throw error;
      await sleep(retryDelay(failures));
    }
  }
}
