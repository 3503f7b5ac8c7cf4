// The second step of a sign-in to an account with two-factor on: a code from the authenticator app or a
// backup code (docs/decisions/020-two-factor.md). Reached from the phone-code step; works without JavaScript.
import { Form, Link, redirect, useActionData } from "react-router";
import { safeRedirectPath } from "../../../core/redirect";
import { formError } from "../features/identity/identity.server";
import { CODE_FIELD } from "../features/identity/form-errors";
import { type FormError, InlineError, useErrorToast } from "../features/identity/verification-forms";
import { apiSend } from "../lib/api.server";
import { UsePasskey } from "../features/security/passkey-buttons";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/two-factor";
import { refusalOr } from "../i18n/refusal";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "sec.metaTwoFactor", "Two-Factor Authentication — LinkUp") },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // The second factors this sign-in may use. With no sign-in waiting (an anonymous visit, an old tab) there is
  // no phone to call confirmed: the screen says so and points to signing in (issue 32).
  const res = await apiSend<{ code: boolean; passkey: boolean }>(context, "GET", "/api/auth/second-factor");
  const waiting = Boolean(res.ok && res.json);
  const methods = res.ok && res.json ? { code: res.json.code, passkey: res.json.passkey } : { code: false, passkey: false };
  return { next: safeRedirectPath(new URL(request.url).searchParams.get("next"), "/chat"), methods, waiting };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const next = safeRedirectPath(form.get("next"), "/chat");
  const res = await apiSend<{ attemptsLeft?: number }>(context, "POST", "/api/auth/second-factor", {
    code: String(form.get("code") ?? ""),
  });
  if (!res.ok) {
    const left = res.json?.attemptsLeft;
    // The count travels as a number; the screen says it in its language.
    const description = typeof left === "number" && left > 0 ? { key: "sec.triesLeft" as const, vars: { count: left } } : undefined;
    return formError({ title: refusalOr(res.json, "errors.two_factor_wrong_code"), description, field: "code" }, res.status);
  }
  return redirect(next, { headers: res.headers });
}

export default function TwoFactor({ loaderData }: Route.ComponentProps) {
  const error = useActionData<{ error?: FormError }>()?.error;
  useErrorToast(error, CODE_FIELD);
  const t = useT();
  return (
    <section className="card mx-auto max-w-[640px]" aria-labelledby="two-factor-title">
      <h1 id="two-factor-title">{t("sec.twoFactorHeading")}</h1>
      {loaderData.waiting ? null : (
        <>
          <p>{t("sec.noSignInWaiting")}</p>
          <Link to="/signup-verification" className="btn btn-primary">
            {t("sec.getStarted")}
          </Link>
        </>
      )}
      {loaderData.methods.passkey ? (
        <>
          <p>{t("sec.usePasskeyBody")}</p>
          <UsePasskey next={loaderData.next} />
        </>
      ) : null}
      {loaderData.methods.code ? (
        <>
          <p>{loaderData.methods.passkey ? t("sec.enterCodeOr") : t("sec.enterCode")}</p>
          <Form method="post" className="form">
            <input type="hidden" name="next" value={loaderData.next} />
            <label>
              {t("sec.authCode")}
              <input name="code" autoComplete="one-time-code" maxLength={11} required aria-invalid={error?.field === "code" || undefined} />
            </label>
            <InlineError error={error} options={CODE_FIELD} />
            <button type="submit" className="btn btn-primary">
              {t("sec.verify")}
            </button>
          </Form>
        </>
      ) : null}
      <p className="text-muted text-sm">
        {t("sec.lostPhone")} <Link to="/support">{t("sec.askSupport")}</Link>.
      </p>
    </section>
  );
}
