// POST /api/auth/register and /api/auth/verify (docs/product/identity.md) and the pending code for the
// code-entry screen. Anonymous start and logout live in me.ts. Thin: parse, call the identity module, answer.
import type { Context } from "hono";
import { Hono } from "hono";
import { fromAcceptLanguage } from "../../../core/i18n/languages";
import { PasskeyProveSchema, RegisterSchema, TwoFactorCodeSchema, VerifySchema } from "../../../core/identity-schemas";
import { claimPendingSession, deleteSession } from "../../../db/queries/sessions";
import { createUser } from "../../../db/queries/users";
import { recordEvent } from "../../analytics";
import { toMe } from "../../auth/me";
import { requireUser, startSession } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { DomainError } from "../../../core/domain-error";
import { clientAddress, requireAnonymousStartAllowed } from "../../limits";
import { requireDeviceNotBanned } from "../../auth/device";
import { notify } from "../../notifications";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { authenticationOptions, provePasskey, relyingPartyOf } from "../../identity/passkeys";
import { proveSecondFactor, secondFactorMethods, twoFactorError } from "../../identity/two-factor";
import {
  confirmVerification,
  finishSecondFactorSignIn,
  notifyNewSignIn,
  pendingVerification,
  type Refusal,
  startVerification,
} from "../../identity/verification";

function refusal(c: Context<AppBindings>, r: Refusal): never {
  if (r.retryAfterSeconds) c.header("Retry-After", String(r.retryAfterSeconds));
  const extra: Record<string, unknown> = { reason: r.reason };
  if (r.retryAfterSeconds !== undefined) extra.retryAfterSeconds = r.retryAfterSeconds;
  if (r.attemptsLeft !== undefined) extra.attemptsLeft = r.attemptsLeft;
  if (r.values) extra.values = r.values;
  throw new DomainError(r.code, r.error, extra);
}

const NO_SIGN_IN_WAITING = "No sign-in is waiting for a second code";

function pendingUserId(c: Context<AppBindings>): string {
  const userId = c.var.pendingSecondFactorUserId;
  if (!userId || !c.var.sessionHash) throw new DomainError("no_sign_in_waiting", NO_SIGN_IN_WAITING);
  return userId;
}

/**
 * The second factor is proven: the half-signed-in session is claimed (once, however many requests race), the
 * identity that typed the phone code is merged now, and a fresh token starts the full session.
 */
async function completeSignIn(c: Context<AppBindings>, userId: string) {
  const claimed = c.var.sessionHash ? await claimPendingSession(c.var.db, c.var.sessionHash) : undefined;
  if (!claimed || claimed.userId !== userId) throw new DomainError("no_sign_in_waiting", NO_SIGN_IN_WAITING);
  const user = await finishSecondFactorSignIn(c.env, c.var.db, userId, claimed.pendingMergeFrom);
  if (!user) throw new DomainError("sign_in_required", "Sign in required");
  await startSession(c, userId);
  return toMe(user);
}

export const auth = new Hono<AppBindings>()
  .post("/auth/register", async (c) => {
    const body = await parseJson(c, RegisterSchema);
    let user = c.var.user;
    if (!user) {
      // A first visit can verify straight away: the code belongs to a fresh anonymous identity.
      await requireDeviceNotBanned(c);
      await requireAnonymousStartAllowed(c);
      user = await createUser(c.var.db, { language: fromAcceptLanguage(c.req.header("accept-language")) ?? undefined });
      await recordEvent(c.var.db, "signup");
      await startSession(c, user.id);
    }
    const result = await startVerification(c.env, c.var.db, {
      phone: body.phoneNumber,
      nickname: body.nickname,
      channel: body.channel,
      ip: clientAddress(c.env, c.req.header("cf-connecting-ip")),
      userId: user.id,
    });
    if (!result.ok) refusal(c, result);
    return c.json({ verification: result.verification });
  })
  .post("/auth/verify", async (c) => {
    const requester = requireUser(c);
    const body = await parseJson(c, VerifySchema);
    const result = await confirmVerification(c.env, c.var.db, { phone: body.phoneNumber, code: body.code, userId: requester.id });
    if (!result.ok) refusal(c, result);
    // A proven phone gets a fresh session token; the old one (deleted already on a merge) ends.
    if (c.var.sessionHash) await deleteSession(c.var.db, c.var.sessionHash);
    // With two-factor on, the phone code is only the first step: the session signs in once a second factor is
    // proven, and only then is the identity that typed the code merged (docs/decisions/046-sign-in-is-one-state-machine.md).
    const methods = await secondFactorMethods(c.var.db, result.user.id);
    const secondFactorRequired = methods.code || methods.passkey;
    await startSession(c, result.user.id, { secondFactorPending: secondFactorRequired, pendingMergeFrom: result.pendingMergeFrom });
    // A security event: signing into an existing account is a new sign-in (told at once, so a person whose phone
    // code was taken learns it even while the second factor holds); a first proof is a phone verified.
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    if (result.merged || result.pendingMergeFrom)
      await notifyNewSignIn(c.env, c.var.db, result.user.id, { via: "web", phone: result.user.phone ?? body.phoneNumber }, waitUntil);
    else
      await notify(
        c.env,
        c.var.db,
        result.user.id,
        {
          type: "security",
          title: "Phone verified",
          content: `${result.user.phone} is now verified on LinkUp.`,
          priority: "high",
          url: "/settings",
          source: "identity",
        },
        waitUntil,
      );
    if (secondFactorRequired) return c.json({ secondFactorRequired: true, merged: result.merged, methods });
    return c.json({ user: toMe(result.user), merged: result.merged });
  })
  // Which second factors the waiting sign-in may use (the /two-factor screen shows those).
  .get("/auth/second-factor", async (c) => c.json(await secondFactorMethods(c.var.db, pendingUserId(c))))
  .post("/auth/second-factor", async (c) => {
    const userId = pendingUserId(c);
    const { code } = await parseJson(c, TwoFactorCodeSchema);
    const methods = await secondFactorMethods(c.var.db, userId);
    // With only a passkey, a code proves nothing (proveSecondFactor would wave it through as "not on").
    if (!methods.code && methods.passkey) throw new DomainError("use_passkey", "Use your passkey to finish signing in");
    const result = await proveSecondFactor(c.env, c.var.db, userId, code);
    if (!result.ok) {
      if (result.retryAfterSeconds) c.header("Retry-After", String(result.retryAfterSeconds));
      throw twoFactorError(result);
    }
    return c.json({ user: await completeSignIn(c, userId), usedBackupCode: result.usedBackup });
  })
  .post("/auth/second-factor/passkey/options", async (c) => {
    const userId = pendingUserId(c);
    return c.json(await authenticationOptions(c.var.db, relyingPartyOf(c.req.url), userId, c.var.sessionHash as string));
  })
  .post("/auth/second-factor/passkey", async (c) => {
    const userId = pendingUserId(c);
    const { response } = await parseJson(c, PasskeyProveSchema);
    await provePasskey(c.var.db, relyingPartyOf(c.req.url), userId, c.var.sessionHash as string, response as AuthenticationResponseJSON);
    return c.json({ user: await completeSignIn(c, userId) });
  })
  .get("/auth/verification", async (c) => {
    const user = requireUser(c);
    return c.json({ verification: await pendingVerification(c.var.db, user.id) });
  });
