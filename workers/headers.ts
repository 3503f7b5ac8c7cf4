// Security headers on every answer of the Worker: pages, APIs, webhooks and anything else it serves
// (docs/decisions/010-production-is-not-development.md). Built assets get the same fixed headers from
// web/public/_headers, since the platform serves them without running the Worker.
import type { MiddlewareHandler } from "hono";
import { toBase64Url } from "../core/ids";

/** A fresh nonce per request: React Router's inline scripts carry it, any injected script does not. */
export function newNonce(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * Same-origin everything. Inline scripts and the page's one inline stylesheet need the nonce; other inline styles
 * are only `style` attributes React sets (toast widths), so only style-src-attr allows them. Voice playback and images use blob: and data: URLs.
 */
export function contentSecurityPolicy(nonce: string, https: boolean): string {
  return [
    "default-src 'self'",
    // Stripe.js (the Payment Element on /subscribe) loads from js.stripe.com, talks to api.stripe.com and draws
    // its card fields in frames from Stripe (docs/decisions/018-billing.md).
    `script-src 'self' 'nonce-${nonce}' https://js.stripe.com`,
    // The app's stylesheet is inline in each page, under the nonce (docs/decisions/070-light-enough-for-2g.md).
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self' https://api.stripe.com",
    "frame-src https://js.stripe.com https://hooks.stripe.com",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Paystack's checkout is its own page: the subscribe form is redirected there (docs/decisions/018-billing.md).
    "form-action 'self' https://checkout.paystack.com",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** What LinkUp uses: location for rooms and SOS, the microphone for voice messages, Web Bluetooth for the mesh. */
export const PERMISSIONS_POLICY =
  "geolocation=(self), microphone=(self), bluetooth=(self), camera=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), interest-cohort=()";

/** The fixed headers every answer carries (the CSP is added per request). */
export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": PERMISSIONS_POLICY,
};

export type NonceVariables = { Variables: { nonce: string } };

/** Puts a nonce on the request for the page renderer and the headers on whatever answer comes back. */
export const securityHeaders: MiddlewareHandler<NonceVariables> = async (c, next) => {
  const nonce = newNonce();
  c.set("nonce", nonce);
  await next();
  // A WebSocket upgrade (101) has immutable headers and no document to protect.
  if (c.res.status === 101) return;
  const https = new URL(c.req.url).protocol === "https:";
  const headers: Record<string, string> = { ...STATIC_SECURITY_HEADERS, "Content-Security-Policy": contentSecurityPolicy(nonce, https) };
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  try {
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  } catch {
    // Headers of a response fetched from elsewhere (a Durable Object, R2) are immutable: copy it once.
    const copy = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    c.res = copy;
  }
};
