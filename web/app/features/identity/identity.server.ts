// Server side of the identity screens: every form posts here through the routes' actions, which call the
// same /api endpoints a script would (in-process, with the visitor's cookies). Works without JavaScript.
import { data, redirect } from "react-router";
import type { Me } from "../../../../core/api-types";
import { IDENTITY_TEXT, nicknameFromPhone, type PendingVerification, VERIFICATION_CHANNELS } from "../../../../core/identity";
import { safeRedirectPath } from "../../../../core/redirect";
import { apiGet, apiSend, cookieFrom } from "../../lib/api.server";
import type { FormError } from "./verification-forms";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export function formError(err: FormError, status = 400) {
  return data({ error: err }, { status });
}

/** The signed-in user (or null) and the live code, for screens showing the verify and code steps. */
export async function loadIdentity(context: Ctx) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const pending = me ? await apiGet<{ verification: PendingVerification | null }>(context, "/api/auth/verification") : null;
  const verification = pending?.verification ?? null;
  const resendInSeconds = verification ? Math.max(0, Math.ceil((Date.parse(verification.resendAt) - Date.now()) / 1000)) : 0;
  return { user: me?.user ?? null, verification, resendInSeconds };
}

/** Merges Set-Cookie headers of several API answers into one set for the redirect. */
function joinHeaders(...all: Headers[]): Headers {
  const out = new Headers();
  for (const h of all) for (const c of h.getSetCookie()) out.append("set-cookie", c);
  return out;
}

/** Starts an anonymous identity unless one exists; returns the cookie headers to pass on. */
async function ensureUser(context: Ctx, hasUser: boolean) {
  if (hasUser) return { headers: new Headers(), cookie: {} as Record<string, string> };
  const started = await apiSend(context, "POST", "/api/auth/anonymous");
  if (!started.ok) throw data({ error: { title: refusalOr(started.json, "aif.err.start") } }, { status: started.status });
  return { headers: started.headers, cookie: cookieFrom(started.headers) };
}

/** Anonymous start: optionally with the chat join form's phone, which only names the user ('User 4567'). */
export async function startAnonymous(context: Ctx, form: FormData, to: string) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const { headers, cookie } = await ensureUser(context, Boolean(me));
  const phone = String(form.get("phone") ?? "").trim();
  const patch: Record<string, unknown> = { onboardingCompleted: true };
  if (phone && !me?.user.phone) patch.nickname = nicknameFromPhone(phone);
  await apiSend(context, "PATCH", "/api/me", patch, cookie);
  return redirect(to, { headers });
}

/** Sends a code: POST /api/auth/register. Answers with a redirect to the code step, or the form error. */
export async function sendCode(context: Ctx, form: FormData, codeStepUrl: string) {
  const phoneNumber = String(form.get("phoneNumber") ?? "").trim();
  const nickname = String(form.get("nickname") ?? "").trim();
  const channelRaw = String(form.get("channel") ?? "whatsapp");
  const channel = (VERIFICATION_CHANNELS as readonly string[]).includes(channelRaw) ? channelRaw : "whatsapp";
  if (!phoneNumber)
    return formError({ title: IDENTITY_TEXT.phoneRequiredTitle, description: IDENTITY_TEXT.phoneRequired, field: "phoneNumber" });
  if (form.get("requireNickname") === "1" && !nickname) {
    return formError({ title: IDENTITY_TEXT.nicknameRequiredTitle, description: IDENTITY_TEXT.nicknameRequired, field: "nickname" });
  }
  const res = await apiSend<{ verification: PendingVerification; code?: string }>(context, "POST", "/api/auth/register", {
    phoneNumber,
    channel,
    ...(nickname ? { nickname } : {}),
  });
  if (!res.ok) {
    const message = refusalOr(res.json, "errors.send_failed");
    // Refusals with their own reason keep it; anything else is the send failure (docs/product/identity.md).
    // A refused nickname is about the nickname field, not the phone.
    const field = res.json?.code === "reserved_name" ? "nickname" : "phoneNumber";
    return formError({ title: [400, 429, 503].includes(res.status) ? message : { key: "errors.send_failed" }, field }, res.status);
  }
  return redirect(codeStepUrl, { headers: res.headers });
}

/** Checks a code: POST /api/auth/verify. On success the (possibly merged) session cookie is passed on. */
export async function verifyCode(context: Ctx, form: FormData, nextUrl: string, then?: Record<string, unknown>) {
  const phoneNumber = String(form.get("phoneNumber") ?? "");
  const code = String(form.get("code") ?? "").trim();
  const res = await apiSend<{ user?: Me; merged: boolean; attemptsLeft?: number; secondFactorRequired?: boolean }>(
    context,
    "POST",
    "/api/auth/verify",
    {
      phoneNumber,
      code,
    },
  );
  if (!res.ok) {
    const description =
      typeof res.json?.attemptsLeft === "number" && res.json.attemptsLeft > 0
        ? { key: "sec.triesLeft" as const, vars: { count: res.json.attemptsLeft } }
        : undefined;
    return formError({ title: refusalOr(res.json, "errors.wrong_code"), description, field: "code" }, res.status);
  }
  // Two-factor on: the phone code was the first step; the authenticator's code comes next.
  if (res.json?.secondFactorRequired) return redirect(`/two-factor?next=${encodeURIComponent(nextUrl)}`, { headers: res.headers });
  // The verified session's cookie is new: later calls of this action must carry it.
  if (then) await apiSend(context, "PATCH", "/api/me", then, cookieFrom(res.headers));
  return redirect(nextUrl, { headers: res.headers });
}

/** Saves fields with PATCH /api/me, starting an anonymous identity first if there is none. */
export async function saveProfile(context: Ctx, patch: Record<string, unknown>, to: string) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const { headers, cookie } = await ensureUser(context, Boolean(me));
  const res = await apiSend(context, "PATCH", "/api/me", patch, cookie);
  if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.save") }, res.status);
  return redirect(to, { headers: joinHeaders(headers, res.headers) });
}

/**
 * The action of the choose → verify-phone → code flow at `path`: every way ends in /chat, or back where the person
 * came from when the page was opened with `?next=` (a checkout that needed a verified phone first, issue 32).
 */
export async function verificationFlowAction(request: Request, context: Ctx, path: string) {
  const form = await request.formData();
  const next = new URL(request.url).searchParams.get("next");
  const done = safeRedirectPath(next, "/chat");
  const keep = next && done === next ? `&next=${encodeURIComponent(done)}` : "";
  switch (form.get("intent")) {
    case "anonymous":
      return startAnonymous(context, form, "/chat");
    case "send-code":
      return sendCode(context, form, `${path}?step=code${keep}`);
    case "verify":
      return verifyCode(context, form, done, { onboardingCompleted: true });
    default:
      return formError({ title: "Unknown action" });
  }
}
