import type { Context } from "hono";

/** Whether the browser reached us over HTTPS, so cookies are set `Secure` (local development is plain HTTP). */
export function isSecureRequest(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:";
}
