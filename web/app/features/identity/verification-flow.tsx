// The onboarding choice (docs/product/identity.md): choose (Get Verified, or start anonymously) → verify-phone →
// code-entry ('Change number', 60-second countdown then Resend). Used by /enhanced-onboarding and
// /signup-verification; both end in /chat.
import { Form, Link } from "react-router";
import type { Me } from "../../../../core/api-types";
import type { PendingVerification } from "../../../../core/identity";
import { useT } from "../../i18n";
import { CodeForm, type FormError, PhoneForm, useErrorToast } from "./verification-forms";

export type FlowStep = "choose" | "verify-phone" | "code";

export function flowStep(url: URL, verification: PendingVerification | null): FlowStep {
  const step = url.searchParams.get("step");
  if (step === "code") return verification ? "code" : "verify-phone";
  if (step === "verify-phone") return "verify-phone";
  return "choose";
}

export function VerificationFlow({
  title,
  intro,
  path,
  step,
  user,
  verification,
  resendInSeconds,
  error,
}: {
  title: string;
  intro: string;
  path: string;
  step: FlowStep;
  user: Me | null;
  verification: PendingVerification | null;
  resendInSeconds: number;
  error?: FormError;
}) {
  useErrorToast(error);
  const t = useT();
  if (user?.authMode === "verified") {
    return (
      <section className="card mx-auto max-w-[640px]" aria-labelledby="flow-title">
        <h1 id="flow-title">{t("join.verified")}</h1>
        <p>
          {t("join.verifiedBefore")} <strong>{user.phone}</strong> {t("join.verifiedAfter")}
        </p>
        <Link to="/chat" className="btn btn-primary">
          {t("join.openChat")}
        </Link>
      </section>
    );
  }
  return (
    <section className="card mx-auto max-w-[640px]" aria-labelledby="flow-title">
      <h1 id="flow-title">{title}</h1>
      {step === "choose" ? (
        <>
          <p>{intro}</p>
          <div className="grid grid-cols-[repeat(auto-fit,minmax(220px,1fr))] gap-3">
            <div className="card grid gap-1">
              <h2>{t("join.getVerified")}</h2>
              <p className="text-sm">{t("join.getVerifiedBody")}</p>
              <Link to={`${path}?step=verify-phone`} className="btn btn-primary">
                {t("join.getVerified")}
              </Link>
            </div>
            <div className="card grid gap-1">
              <h2>{t("join.anonymous")}</h2>
              <p className="text-sm">{t("join.anonymousBody")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="anonymous" />
                <button type="submit" className="btn btn-ghost">
                  {t("join.anonymous")}
                </button>
              </Form>
            </div>
          </div>
        </>
      ) : step === "verify-phone" ? (
        <>
          <h2>{t("join.verifyPhone")}</h2>
          <PhoneForm error={error} nickname={user?.nickname ?? ""} defaultPhone={verification?.phone ?? ""} />
          <Link to={path} className="btn btn-ghost">
            {t("common.back")}
          </Link>
        </>
      ) : (
        <>
          <h2>{t("join.enterCode")}</h2>
          <CodeForm verification={verification!} resendInSeconds={resendInSeconds} changeHref={`${path}?step=verify-phone`} error={error} />
        </>
      )}
    </section>
  );
}
