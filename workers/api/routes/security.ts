// The security centre's API (docs/product/security.md): sessions and devices, two-factor.
// Thin: who is asking, parse, one domain call, the answer.
import { Hono } from "hono";
import type { Context } from "hono";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import {
  PANIC_SOS_MESSAGE,
  PanicSchema,
  PasskeyIdSchema,
  PasskeyProveSchema,
  PasskeyRegisterSchema,
  SessionRefSchema,
  TwoFactorCodeSchema,
} from "../../../core/identity-schemas";
import {
  authenticationOptions,
  passkeysOf,
  provePasskey,
  registerPasskey,
  registrationOptions,
  relyingPartyOf,
  removePasskey,
} from "../../identity/passkeys";
import { newId } from "../../../core/ids";
import { broadcastSos } from "../../sos";
import { clientAddress } from "../../limits";
import type { User } from "../../../db/schema";
import { endSession, requireUser, requireVerified } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson, parseWith } from "../../errors";
import { DomainError } from "../../../core/domain-error";
import { recordSecurityEvent, securityOverview } from "../../identity/security-events";
import { endOtherSessions, endSessionByRef, sessionsOf } from "../../identity/sessions";
import {
  disableTwoFactor,
  enableTwoFactor,
  startTwoFactor,
  type TwoFactorRefusal,
  twoFactorError,
  twoFactorView,
} from "../../identity/two-factor";
import { notify } from "../../notifications";

// The name the authenticator app lists the account under.
const accountLabel = (user: User) => user.phone ?? user.nickname;

function refuse(c: Context<AppBindings>, r: TwoFactorRefusal): never {
  if (r.retryAfterSeconds) c.header("Retry-After", String(r.retryAfterSeconds));
  throw twoFactorError(r);
}

/** A security notice for a second-factor change (docs/product/security.md). */
function notifyChange(c: Context<AppBindings>, user: User, title: string, content: string) {
  return notify(
    c.env,
    c.var.db,
    user.id,
    { type: "security", title, content, priority: "high", url: "/security-settings", source: "identity" },
    (p) => c.executionCtx.waitUntil(p),
  );
}

export const security = new Hono<AppBindings>()
  // The security score, features and newest events of /advanced-security.
  .get("/security/overview", async (c) => {
    const user = requireUser(c);
    return c.json(await securityOverview(c.var.db, user));
  })
  .get("/security/sessions", async (c) => {
    const user = requireUser(c);
    return c.json({ sessions: await sessionsOf(c.var.db, user.id, c.var.sessionHash) });
  })
  .delete("/security/sessions/:ref", async (c) => {
    const user = requireUser(c);
    const ref = parseWith(SessionRefSchema, c.req.param("ref"));
    const ended = await endSessionByRef(c.var.db, user.id, ref);
    if (!ended) throw new DomainError("session_not_found", "No such session");
    // Ending this browser's own session signs it out here as well.
    const current = ended === c.var.sessionHash;
    if (current) await endSession(c);
    return c.json({ ok: true, current });
  })
  .post("/security/sessions/sign-out-others", async (c) => {
    const user = requireUser(c);
    const ended = await endOtherSessions(c.var.db, user.id, c.var.sessionHash ?? "");
    return c.json({ ok: true, ended });
  })
  // Panic mode: this browser's session ends at once (its stored data is wiped by the page and by the
  // Clear-Site-Data header of the screen's answer); the preset SOS goes out first when asked for.
  .post("/security/panic", async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, PanicSchema);
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const sos = body.sendSos
      ? await broadcastSos(
          c.env,
          c.var.db,
          {
            userId: user.id,
            message: PANIC_SOS_MESSAGE,
            emergencyType: "other",
            clientRequestId: body.clientRequestId ?? newId(),
            channel: "web",
            clientAddress: clientAddress(c.env, c.req.header("cf-connecting-ip")),
          },
          waitUntil,
        )
      : null;
    await recordSecurityEvent(c.var.db, user.id, "panic");
    await notifyChange(c, user, "Panic mode used", "A browser used panic mode: its LinkUp data was wiped and it was signed out.");
    await endSession(c);
    return c.json({ ok: true, sos: sos ? { id: sos.id, reached: sos.reached } : null });
  })
  .get("/security/passkeys", async (c) => {
    const user = requireUser(c);
    return c.json({ passkeys: await passkeysOf(c.var.db, user.id) });
  })
  // A passkey is a second factor of a phone sign-in, so like two-factor it needs a verified phone.
  .post("/security/passkeys/options", async (c) => {
    const user = requireVerified(c);
    const label = accountLabel(user);
    return c.json(await registrationOptions(c.var.db, relyingPartyOf(c.req.url), { id: user.id, label }, c.var.sessionHash as string));
  })
  .post("/security/passkeys", async (c) => {
    const user = requireVerified(c);
    const { name, response } = await parseJson(c, PasskeyRegisterSchema);
    const rp = relyingPartyOf(c.req.url);
    const passkey = await registerPasskey(c.var.db, rp, user.id, c.var.sessionHash as string, {
      name,
      response: response as RegistrationResponseJSON,
    });
    await notifyChange(c, user, "Passkey added", `“${name}” now guards each new sign-in to your account.`);
    return c.json({ passkey }, 201);
  })
  .delete("/security/passkeys/:id", async (c) => {
    const user = requireVerified(c);
    await removePasskey(c.var.db, user.id, parseWith(PasskeyIdSchema, c.req.param("id")));
    await notifyChange(c, user, "Passkey removed", "A passkey no longer signs in to your account.");
    return c.json({ ok: true });
  })
  // The app lock's passkey (core/app-lock.ts): the signed-in person proves a passkey to open the app again.
  .post("/security/passkeys/unlock/options", async (c) => {
    const user = requireUser(c);
    return c.json(await authenticationOptions(c.var.db, relyingPartyOf(c.req.url), user.id, c.var.sessionHash as string));
  })
  .post("/security/passkeys/unlock", async (c) => {
    const user = requireUser(c);
    const { response } = await parseJson(c, PasskeyProveSchema);
    await provePasskey(c.var.db, relyingPartyOf(c.req.url), user.id, c.var.sessionHash as string, response as AuthenticationResponseJSON);
    return c.json({ ok: true });
  })
  .get("/security/two-factor", async (c) => {
    const user = requireUser(c);
    return c.json(await twoFactorView(c.env, c.var.db, user.id, accountLabel(user)));
  })
  // Two-factor guards a phone sign-in, so it needs a verified phone (docs/product/identity.md).
  .post("/security/two-factor/setup", async (c) => {
    const user = requireVerified(c);
    const started = await startTwoFactor(c.env, c.var.db, user.id, accountLabel(user));
    if ("ok" in started) refuse(c, started);
    return c.json(started);
  })
  .post("/security/two-factor/enable", async (c) => {
    const user = requireVerified(c);
    const { code } = await parseJson(c, TwoFactorCodeSchema);
    const result = await enableTwoFactor(c.env, c.var.db, user.id, code);
    if (!result.ok) refuse(c, result);
    await notifyChange(
      c,
      user,
      "Two-factor authentication enabled",
      "Each new sign-in to your account now asks for a code from your authenticator app.",
    );
    return c.json({ enabled: true, backupCodes: result.backupCodes });
  })
  .post("/security/two-factor/disable", async (c) => {
    const user = requireVerified(c);
    const { code } = await parseJson(c, TwoFactorCodeSchema);
    const result = await disableTwoFactor(c.env, c.var.db, user.id, code);
    if (!result.ok) refuse(c, result);
    await notifyChange(
      c,
      user,
      "Two-factor authentication turned off",
      "Sign-ins to your account no longer ask for a code from an authenticator app.",
    );
    return c.json({ enabled: false });
  });
