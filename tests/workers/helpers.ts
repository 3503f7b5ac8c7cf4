// Shared helpers for Worker integration tests: requests through the real Worker, with a session.
import { SELF } from "cloudflare:test";

export const ORIGIN = "http://localhost:5173";

export async function call(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  if (init.cookie) headers.set("cookie", init.cookie);
  const res = await SELF.fetch(`${ORIGIN}${path}`, {
    ...init,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  return res;
}

/** Starts an anonymous user and returns the cookie that signs its requests. */
export async function anonymousSession(): Promise<{ cookie: string; user: { id: string; nickname: string } }> {
  const res = await call("/api/auth/anonymous", { method: "POST" });
  if (res.status !== 201) throw new Error(`anonymous start failed: ${res.status}`);
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  const { user } = (await res.json()) as { user: { id: string; nickname: string } };
  return { cookie, user };
}
