// Onboarding (docs/product/screens.md, docs/product/identity.md): 5 steps with a progress percent. Mobile (user agent or ≤ 768 px):
// welcome, phone, profile, AI intro, security. Desktop: welcome, phone, profile, AI intro, mesh setup with
// 'Try FREE for 7 Days'. The phone step is real verification; 'Skip for now' goes to /chat.
import { useEffect, useState } from "react";
import { Form, Link, useActionData } from "react-router";
import { MOBILE_MAX_WIDTH, PRICES_NGN, TIER_LIMITS, TRIAL_DAYS } from "../../../core/constants";
import { IDENTITY_TEXT, INTERESTS } from "../../../core/identity";
import { showToastOnArrival } from "../components/toast";
import { formError, loadIdentity, saveProfile, sendCode, startAnonymous, verifyCode } from "../features/identity/identity.server";
import { CodeForm, type FormError, InlineError, PhoneForm, Progress, useErrorToast } from "../features/identity/verification-forms";
import { useRootData } from "../root";
import type { Route } from "./+types/onboarding";
import type { MessageKey } from "../../../core/i18n/en";
import { useT } from "../i18n";

const STEPS = 5;
const DESKTOP_TITLES = [
  "onb.title.desktop.0",
  "onb.title.desktop.1",
  "onb.title.desktop.2",
  "onb.title.desktop.3",
  "onb.title.desktop.4",
] satisfies MessageKey[];
const MOBILE_TITLES = [
  "onb.title.mobile.0",
  "onb.title.mobile.1",
  "onb.title.mobile.2",
  "onb.title.mobile.3",
  "onb.title.mobile.4",
] satisfies MessageKey[];

export const meta: Route.MetaFunction = () => [{ title: "Get started — LinkUp" }];

function stepOf(url: URL): number {
  const n = Number(url.searchParams.get("step") ?? "0");
  return Number.isInteger(n) && n >= 0 && n < STEPS ? n : 0;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const identity = await loadIdentity(context);
  return { ...identity, step: stepOf(url), changeNumber: url.searchParams.get("change") === "1" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  switch (form.get("intent")) {
    case "skip":
      return startAnonymous(context, form, "/chat");
    case "send-code":
      return sendCode(context, form, "/onboarding?step=1");
    case "verify":
      return verifyCode(context, form, "/onboarding?step=2");
    case "profile": {
      const nickname = String(form.get("nickname") ?? "").trim();
      if (!nickname) {
        return formError({ title: IDENTITY_TEXT.nicknameRequiredTitle, description: IDENTITY_TEXT.nicknameRequired, field: "nickname" });
      }
      const location = String(form.get("location") ?? "").trim();
      const interests = form
        .getAll("interests")
        .map(String)
        .filter((i) => INTERESTS.includes(i));
      return saveProfile(context, { nickname, locationText: location || null, interests }, "/onboarding?step=3");
    }
    case "complete":
      return saveProfile(context, { onboardingCompleted: true }, "/chat");
    case "trial":
      return saveProfile(context, { onboardingCompleted: true }, "/subscribe?plan=premium");
    default:
      return formError({ title: "Unknown action" });
  }
}

/** Mobile by user agent on the server; a narrow window switches once JavaScript runs. */
function useMobile(byUserAgent: boolean) {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const mq = window.matchMedia(`(max-width: ${MOBILE_MAX_WIDTH}px)`);
    const update = () => setNarrow(mq.matches);
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, []);
  return byUserAgent || narrow;
}

function Next({ to, label }: { to: string; label?: string }) {
  const t = useT();
  return (
    <Link to={to} className="btn btn-primary">
      {label ?? t("onb.continue")}
    </Link>
  );
}

export default function Onboarding({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const mobile = useMobile(Boolean(root?.mobileUserAgent));
  const t = useT();
  const actionData = useActionData<{ error?: FormError }>();
  const error = actionData?.error;
  useErrorToast(error);
  const { step, user, verification, resendInSeconds, changeNumber } = loaderData;
  const titles = mobile ? MOBILE_TITLES : DESKTOP_TITLES;
  // Finishing welcomes the person on the chat it leads to, once the chat is there (a slow move would drop a toast
  // raised on this page: toasts belong to the page they are raised on).
  const welcome = () => showToastOnArrival("/chat", { title: IDENTITY_TEXT.welcome, variant: "success" });

  return (
    <section
      className={`card onboarding mx-auto max-w-[640px] ${mobile ? "onboarding-mobile" : "onboarding-desktop"}`}
      aria-labelledby="onboarding-title"
    >
      <Progress step={step} total={STEPS} />
      <h1 id="onboarding-title">{t(titles[step])}</h1>

      {step === 0 ? (
        <>
          <p>{t("onb.intro")}</p>
          <ul className="list">
            <li>{t("onb.point1")}</li>
            <li>{t("onb.point2")}</li>
            <li>{t("onb.point3")}</li>
          </ul>
          <Next to="/onboarding?step=1" label={t("onb.getStarted")} />
          <p className="text-muted text-sm">
            {t("onb.prefer")} <Link to="/enhanced-onboarding">{t("onb.preferLink")}</Link>
          </p>
        </>
      ) : null}

      {step === 1 ? (
        user?.authMode === "verified" ? (
          <>
            <p>{t("onb.verified", { phone: user.phone ?? "" })}</p>
            <Next to="/onboarding?step=2" />
          </>
        ) : verification && !changeNumber ? (
          <CodeForm verification={verification} resendInSeconds={resendInSeconds} changeHref="/onboarding?step=1&change=1" error={error} />
        ) : (
          <>
            <p>{t("onb.codeIntro")}</p>
            <PhoneForm
              error={error}
              submitLabel={mobile ? t("onb.continue") : t("onb.verify")}
              defaultPhone={verification?.phone ?? ""}
              disableWhenEmpty={mobile}
            />
          </>
        )
      ) : null}

      {step === 2 ? (
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="profile" />
          <label>
            {t("onb.nickname")}
            <input
              name="nickname"
              defaultValue={user?.nickname ?? ""}
              maxLength={40}
              autoComplete="nickname"
              aria-invalid={error?.field === "nickname" || undefined}
            />
          </label>
          <label>
            {t("onb.location")}
            <input name="location" defaultValue={user?.locationText ?? ""} maxLength={120} autoComplete="address-level2" />
          </label>
          <fieldset>
            <legend>{t("onb.interests")}</legend>
            <div className="flex flex-wrap gap-[0.4rem]">
              {INTERESTS.map((i) => (
                <label key={i} className="chip">
                  <input type="checkbox" name="interests" value={i} defaultChecked={user?.interests.includes(i)} /> {i}
                </label>
              ))}
            </div>
          </fieldset>
          <InlineError error={error} />
          <button type="submit" className="btn btn-primary">
            {t("onb.continue")}
          </button>
        </Form>
      ) : null}

      {step === 3 ? (
        <>
          <p>{t("onb.aiIntro")}</p>
          <ul className="list">
            <li>
              <code>@ai translate hello to Hausa</code>
            </li>
            <li>
              <code>@ai market price of rice in Kano</code>
            </li>
            <li>
              <code>@ai weather</code>
            </li>
            <li>
              <code>@ai emergency</code> {t("onb.aiEmergency")}
            </li>
          </ul>
          <Next to="/onboarding?step=4" />
        </>
      ) : null}

      {step === 4 && mobile ? (
        <>
          <p>{t("onb.secure1")}</p>
          <p>{t("onb.secure2")}</p>
          <Form method="post" onSubmit={welcome}>
            <input type="hidden" name="intent" value="complete" />
            <button type="submit" className="btn btn-primary">
              {t("onb.startChatting")}
            </button>
          </Form>
        </>
      ) : null}

      {step === 4 && !mobile ? (
        <>
          <p>{t("onb.meshIntro")}</p>
          <div className="card grid gap-1">
            <h2>{t("onb.premium")}</h2>
            <p>
              {t("onb.premiumBody", {
                price: t.naira(PRICES_NGN.premium.monthly),
                days: TRIAL_DAYS,
                voice: TIER_LIMITS.premium.voiceMessages ?? 0,
              })}
            </p>
            <Form
              method="post"
              onSubmit={() => {
                try {
                  localStorage.setItem("linkup_premium_interest", "true");
                } catch {}
              }}
            >
              <input type="hidden" name="intent" value="trial" />
              <button type="submit" className="btn btn-primary">
                {t("onb.trial", { days: TRIAL_DAYS })}
              </button>
            </Form>
          </div>
          <Form method="post" onSubmit={welcome}>
            <input type="hidden" name="intent" value="complete" />
            <button type="submit" className="btn btn-ghost">
              {t("onb.startChatting")}
            </button>
          </Form>
        </>
      ) : null}

      <div className="mt-4 flex flex-wrap items-center gap-2">
        {step > 0 ? (
          <Link to={`/onboarding?step=${step - 1}`} className="btn btn-ghost">
            {t("common.back")}
          </Link>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="skip" />
          <button type="submit" className="btn btn-ghost">
            {t("onb.skip")}
          </button>
        </Form>
      </div>
    </section>
  );
}
