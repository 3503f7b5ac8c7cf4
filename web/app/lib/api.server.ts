import { data } from "react-router";
import { type AppContext, appContext } from "../context";

type Ctx = { get: (key: typeof appContext) => AppContext };

/** GET one of LinkUp's APIs from a loader; null when the answer is a 401 (not signed in). */
export async function apiGet<T>(context: Ctx, path: string): Promise<T | null> {
  const res = await context.get(appContext).api(path);
  if (res.status === 401) return null;
  // The failed call's request id reaches the error screen, for the person to quote to support.
  if (!res.ok) throw data({ error: await res.text(), requestId: res.headers.get("x-request-id") }, { status: res.status });
  return (await res.json()) as T;
}

/** Sends JSON to the API from an action; returns the answer with any Set-Cookie to pass on. */
export async function apiSend<T>(context: Ctx, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
  const res = await context.get(appContext).api(path, {
    method,
    headers: body === undefined ? extraHeaders : { "content-type": "application/json", ...extraHeaders },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const headers = new Headers();
  for (const c of res.headers.getSetCookie()) headers.append("set-cookie", c);
  const text = await res.text();
  const json = text ? (JSON.parse(text) as T & { error?: string }) : null;
  return { ok: res.ok, status: res.status, json, headers };
}

export function publicEnvOf(context: Ctx) {
  return context.get(appContext).env;
}

/** The cookie pair a fresh Set-Cookie carries, for the next in-process call of the same action. */
export function cookieFrom(headers: Headers): Record<string, string> {
  const pair = headers.get("set-cookie")?.split(";")[0];
  return pair ? { cookie: pair } : {};
}
