// POST /ussd: the Africa's Talking USSD callback (docs/architecture.md §7). Answers text/plain 'CON …' or 'END …'.
import { Hono } from "hono";
import { UssdRequestSchema } from "../../core/ussd-schemas";
import { createDb } from "../../db";
import { channelPhone } from "../channels";
import { type AppBindings, type AppEnv, isDevelopment } from "../env";
import { notFound, onError, parseWith } from "../errors";
import { DomainError } from "../../core/domain-error";
import { answerUssd } from "./session";

function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * The gateway must send USSD_SHARED_SECRET: as `?secret=` on the callback URL (Africa's Talking cannot add
 * headers) or as an `X-USSD-Secret` header. Without the secret configured, only development answers: anyone
 * else could speak as any phone number (docs/decisions/010-production-is-not-development.md).
 */
function checkSecret(env: AppEnv, req: Request): void {
  const expected = env.USSD_SHARED_SECRET;
  if (!expected) {
    if (isDevelopment(env)) return;
    console.warn("ussd: request refused, USSD_SHARED_SECRET is not set");
    throw new DomainError("ussd_not_configured", "USSD is not configured on this server");
  }
  const given = req.headers.get("x-ussd-secret") ?? new URL(req.url).searchParams.get("secret") ?? "";
  if (!sameSecret(given, expected)) {
    console.warn("ussd: request refused, missing or wrong shared secret");
    throw new DomainError("ussd_secret", "USSD request refused: missing or wrong shared secret");
  }
}

export const ussd = new Hono<AppBindings>().post("/", async (c) => {
  checkSecret(c.env, c.req.raw);
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw new DomainError("form_malformed", "Malformed form body");
  }
  const input = parseWith(UssdRequestSchema, form);
  const phone = await channelPhone(input.phoneNumber);
  if (!phone) throw new DomainError("invalid_phone", "Invalid request: phoneNumber must be a phone number");
  const screen = await answerUssd(c.env, createDb(c.env), input, phone, (p) => c.executionCtx.waitUntil(p));
  return c.body(screen, 200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
});
ussd.onError(onError);
ussd.notFound(notFound);
