// /subscribe?plan=premium|enterprise (docs/product/plans-and-limits.md): plan picker, monthly or yearly, the payment form,
// order summary, help card and a back button. Works without JavaScript for the local payment stand-in.
import { useEffect, useState } from "react";
import { Form, Link, useActionData, useFetcher, useLocation, useNavigate } from "react-router";
import { type PaidTier, planPrice, type BillingInterval } from "../../../core/billing";
import type { MessageKey } from "../../../core/i18n/en";
import { SUPPORT_HOURS, TRIAL_DAYS } from "../../../core/constants";
import { useToast } from "../components/toast";
import { StripePaymentForm } from "../features/billing/stripe-payment";
import { type SessionResult, subscribeAction, subscribeLoader } from "../features/billing/subscribe.server";
import { useHydrated } from "../features/identity/verification-forms";
import { metaTitle, type T, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/subscribe";
import type { Refusal } from "../i18n/refusal";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "subs.metaTitle", "Subscribe — LinkUp") }];

export function loader({ request, context }: Route.LoaderArgs) {
  return subscribeLoader(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return subscribeAction(request, context);
}

const PLAN: Record<PaidTier, MessageKey> = { premium: "pricing.premium", enterprise: "pricing.enterprise" };
const DAYS: Record<(typeof SUPPORT_HOURS)[number]["days"], MessageKey> = {
  "Monday to Friday": "cs.weekdays",
  Saturday: "cs.saturday",
  Sunday: "cs.sunday",
};
/** A title or reason the server sent, in the page's language when LinkUp knows it. */
const said = (t: T, refusal: Refusal | undefined) => (refusal ? t.error(refusal) : "");

function BackButton() {
  const navigate = useNavigate();
  const t = useT();
  return (
    <Link
      to="/pricing"
      className="btn btn-ghost"
      onClick={(e) => {
        // Back to wherever the person came from; without history (or JavaScript) the pricing page.
        if (window.history.length > 1) {
          e.preventDefault();
          navigate(-1);
        }
      }}
    >
      <span className="flip-rtl" aria-hidden="true">
        ←
      </span>{" "}
      {t("common.back")}
    </Link>
  );
}

function PlanPicker({ plan, interval }: { plan: PaidTier; interval: BillingInterval }) {
  const href = (p: PaidTier, i: BillingInterval) => `/subscribe?plan=${p}&billing=${i}`;
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <nav aria-label={t("subs.plan")} className="flex flex-wrap items-center gap-2">
        {(["premium", "enterprise"] as const).map((p) => (
          <Link
            key={p}
            to={href(p, interval)}
            replace
            className={`btn ${p === plan ? "btn-primary" : "btn-ghost"}`}
            aria-current={p === plan ? "page" : undefined}
          >
            {t(PLAN[p])}
          </Link>
        ))}
      </nav>
      <nav aria-label={t("subs.period")} className="flex flex-wrap items-center gap-2">
        {(["monthly", "yearly"] as const).map((i) => (
          <Link
            key={i}
            to={href(plan, i)}
            replace
            className={`btn ${i === interval ? "btn-primary" : "btn-ghost"}`}
            aria-current={i === interval ? "page" : undefined}
          >
            {i === "monthly" ? t("pricing.monthly") : t("pricing.yearly")}
            {i === "yearly" ? <span className="tag">{t("pricing.save")}</span> : null}
          </Link>
        ))}
      </nav>
    </div>
  );
}

function LocalPaymentForm({
  fetcher,
  session,
  amount,
  card,
}: {
  fetcher: ReturnType<typeof useFetcher>;
  session: SessionResult;
  amount: string;
  card: [string, (v: string) => void];
}) {
  const busy = fetcher.state !== "idle";
  const t = useT();
  return (
    <fetcher.Form method="post" className="form" aria-label={t("subs.testPayment")}>
      <p role="note" className="text-sm text-muted">
        <strong>{t("subs.testMode")}</strong> {t("subs.testModeBody", { ok: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" })}
      </p>
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="priceId" value={session.priceId} />
      <input type="hidden" name="clientSecret" value={session.clientSecret} />
      <label>
        {t("subs.cardNumber")}
        <input
          name="cardNumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          required
          maxLength={23}
          value={card[0]}
          onChange={(e) => card[1](e.target.value)}
        />
      </label>
      {session.paymentError ? (
        <p role="alert" className="text-danger">
          {t("pay.failedTitle")} - {said(t, session.paymentError)}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
        {busy ? t("pay.processing") : t("pay.pay", { amount })}
      </button>
    </fetcher.Form>
  );
}

export default function Subscribe({ loaderData }: Route.ComponentProps) {
  const { plan, interval, price, provider, publishableKey, user, status } = loaderData;
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  const hydrated = useHydrated();
  // After verifying the phone the person comes back to this very checkout (plan and interval kept).
  const here = useLocation();
  const toast = useToast();
  const t = useT();
  const fetcher = useFetcher<SessionResult>({ key: "subscribe-session" });
  const actionData = useActionData<SessionResult>();
  const amount = t.naira(planPrice(plan, interval));
  const planName = t("subs.linkupPlan", { plan: t(PLAN[plan]) });
  const canPay = Boolean(user?.verified && price && !status?.isActive && provider !== "unconfigured");
  // Payment sessions by price: changing the plan asks for a new one, and a late answer for another plan
  // never replaces the form being filled in.
  const [sessions, setSessions] = useState<Record<string, SessionResult>>({});
  // Kept here so what was typed survives the form being re-rendered for a fresh session.
  const card = useState("");
  useEffect(() => {
    const d = fetcher.data;
    if (d?.priceId) setSessions((s) => (s[d.priceId as string] === d ? s : { ...s, [d.priceId as string]: d }));
  }, [fetcher.data]);
  const latest = fetcher.data ?? actionData;
  const session = price ? [fetcher.data, sessions[price.priceId], actionData].find((d) => d?.priceId === price.priceId) : undefined;
  const startingFor =
    fetcher.state !== "idle" && fetcher.formData?.get("intent") === "start" ? String(fetcher.formData.get("priceId")) : null;

  useEffect(() => {
    if (!hydrated || !canPay || !price || startingFor === price.priceId) return;
    if (session?.clientSecret || session?.error) return;
    fetcher.submit({ intent: "start", priceId: price.priceId }, { method: "post" });
  }, [hydrated, canPay, price, session, startingFor, fetcher]);

  useEffect(() => {
    if (latest?.error)
      toast({ title: said(t, latest.error.title), description: said(t, latest.error.description), variant: "destructive" });
    else if (latest?.paymentError)
      toast({ title: t("pay.failedTitle"), description: said(t, latest.paymentError), variant: "destructive" });
  }, [latest, toast, t]);

  let payment: React.ReactNode;
  if (!user?.verified) {
    payment = (
      <>
        <p>{t("subs.verifyFirst")}</p>
        <Link
          to={`/signup-verification?step=verify-phone&next=${encodeURIComponent(here.pathname + here.search)}`}
          className="btn btn-primary"
        >
          {t("sec.verifyPhone")}
        </Link>
      </>
    );
  } else if (status?.isActive) {
    payment = (
      <>
        <p>
          {t("subs.alreadyHave", {
            plan: t("subs.linkupPlan", { plan: t(status.tier === "enterprise" ? PLAN.enterprise : PLAN.premium) }),
          })}
        </p>
        <Link to="/settings?tab=premium" className="btn btn-primary">
          {t("subs.managePlan")}
        </Link>
      </>
    );
  } else if (provider === "unconfigured" || !price) {
    payment = (
      <p>
        {phone ? (
          <>
            {t("subs.noCards")} <a href={`tel:${phone}`}>{phone}</a>
          </>
        ) : (
          t("subs.noCardsNoPhone")
        )}
      </p>
    );
  } else if (session?.clientSecret) {
    payment =
      session.provider === "stripe" ? (
        hydrated ? (
          <StripePaymentForm publishableKey={publishableKey} clientSecret={session.clientSecret} amount={amount} />
        ) : (
          <p>{phone ? t("subs.needsJs", { phone }) : t("subs.needsJsNoPhone")}</p>
        )
      ) : (
        <LocalPaymentForm fetcher={fetcher} session={session} amount={amount} card={card} />
      );
  } else if (session?.error) {
    payment = (
      <Form method="post" className="form">
        <p role="alert" className="text-danger">
          {said(t, session.error.title)} - {said(t, session.error.description)}
          {session.error.reason ? ` (${said(t, session.error.reason)})` : ""}
        </p>
        <input type="hidden" name="intent" value="start" />
        <input type="hidden" name="priceId" value={price.priceId} />
        <button type="submit" className="btn btn-primary">
          {t("subs.tryAgain")}
        </button>
      </Form>
    );
  } else if (hydrated) {
    payment = (
      <p role="status" className="grid justify-items-center gap-3 text-center">
        <span className="inline-block size-[0.6rem] rounded-full bg-ok" aria-hidden="true" /> {t("pay.setup")}
      </p>
    );
  } else {
    payment = (
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="start" />
        <input type="hidden" name="priceId" value={price.priceId} />
        <button type="submit" className="btn btn-primary btn-lg">
          {t("subs.continue")}
        </button>
      </Form>
    );
  }

  return (
    <div className="grid gap-[0.6rem]">
      <div className="flex flex-wrap items-center gap-2">
        <BackButton />
      </div>
      <section className="card" aria-labelledby="subscribe-title">
        <h1 id="subscribe-title">{t("subs.title", { plan: planName })}</h1>
        <PlanPicker plan={plan} interval={interval} />
      </section>
      {plan === "premium" && status?.trialAvailable && !status.isActive ? (
        <section className="card" aria-labelledby="trial-title">
          <h2 id="trial-title">{t("subs.trialTitle", { days: TRIAL_DAYS })}</h2>
          <p>{t("subs.trialBody", { days: TRIAL_DAYS })}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="trial" />
            <button type="submit" className="btn btn-primary">
              {t("pricing.startTrial")}
            </button>
          </Form>
        </section>
      ) : null}
      <section className="card" aria-labelledby="payment-title">
        <h2 id="payment-title">{t("subs.payment")}</h2>
        {payment}
      </section>
      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title">{t("subs.summary")}</h2>
        <dl className="grid grid-cols-[repeat(auto-fit,minmax(9rem,1fr))] gap-3 [&_input]:w-full [&_input]:min-w-0">
          <dt>{t("subs.plan")}</dt>
          <dd>{planName}</dd>
          <dt>{t("subs.billing")}</dt>
          <dd>{interval === "yearly" ? t("subs.yearlyFree") : t("pricing.monthly")}</dd>
          <dt>{t("nt.total")}</dt>
          <dd>{interval === "yearly" ? t("subs.perYear", { amount }) : t("subs.perMonth", { amount })}</dd>
        </dl>
        <p className="text-muted text-sm">{t("subs.cancelAnytime")}</p>
      </section>
      <section className="card" aria-labelledby="help-title">
        <h2 id="help-title">{t("qr.help")}</h2>
        {phone ? (
          <p>
            {t("subs.byPhone")} <a href={`tel:${phone}`}>{phone}</a>
          </p>
        ) : null}
        <ul className="m-0 grid list-none gap-[0.35rem] p-0 text-sm text-muted">
          {SUPPORT_HOURS.map((h) => (
            <li key={h.days}>
              {t(DAYS[h.days])}: {h.hours}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
