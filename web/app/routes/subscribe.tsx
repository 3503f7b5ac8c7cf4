// /subscribe?plan=premium|enterprise (spec part 2 #9, #10): plan picker, monthly or yearly, the payment form,
// order summary, help card and a back button. Works without JavaScript for the local payment stand-in.
import { useEffect, useState } from "react";
import { Form, Link, useActionData, useFetcher, useNavigate } from "react-router";
import { PAYMENT_TEXTS, PLAN_NAMES, type PaidTier, naira, planPrice, type BillingInterval } from "../../../core/billing";
import { SUPPORT_HOURS, TRIAL_DAYS } from "../../../core/constants";
import { useToast } from "../components/toast";
import { StripePaymentForm } from "../features/billing/stripe-payment";
import { type SessionResult, subscribeAction, subscribeLoader } from "../features/billing/subscribe.server";
import { useHydrated } from "../features/identity/verification-forms";
import { useRootData } from "../root";
import type { Route } from "./+types/subscribe";

export const meta: Route.MetaFunction = () => [{ title: "Subscribe — LinkUp" }];

export function loader({ request, context }: Route.LoaderArgs) {
  return subscribeLoader(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return subscribeAction(request, context);
}

const perPeriod = (interval: BillingInterval) => (interval === "yearly" ? "year" : "month");

function BackButton() {
  const navigate = useNavigate();
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
      ← Back
    </Link>
  );
}

function PlanPicker({ plan, interval }: { plan: PaidTier; interval: BillingInterval }) {
  const href = (p: PaidTier, i: BillingInterval) => `/subscribe?plan=${p}&billing=${i}`;
  return (
    <div className="stack">
      <nav aria-label="Plan" className="row">
        {(["premium", "enterprise"] as const).map((p) => (
          <Link
            key={p}
            to={href(p, interval)}
            replace
            className={`btn ${p === plan ? "btn-primary" : "btn-ghost"}`}
            aria-current={p === plan ? "page" : undefined}
          >
            {PLAN_NAMES[p]}
          </Link>
        ))}
      </nav>
      <nav aria-label="Billing period" className="row">
        {(["monthly", "yearly"] as const).map((i) => (
          <Link
            key={i}
            to={href(plan, i)}
            replace
            className={`btn ${i === interval ? "btn-primary" : "btn-ghost"}`}
            aria-current={i === interval ? "page" : undefined}
          >
            {i === "monthly" ? "Monthly" : "Yearly"}
            {i === "yearly" ? <span className="tag">Save 17%</span> : null}
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
  return (
    <fetcher.Form method="post" className="form" aria-label="Test payment">
      <p role="note" className="honest-note">
        <strong>Test mode: no real payment.</strong> This is LinkUp's local payment stand-in, present only in development. Pay with{" "}
        <strong>4242 4242 4242 4242</strong>, or use <strong>4000 0000 0000 0002</strong> to see a declined card.
      </p>
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="priceId" value={session.priceId} />
      <input type="hidden" name="clientSecret" value={session.clientSecret} />
      <label>
        Card number
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
        <p role="alert" className="error">
          {PAYMENT_TEXTS.failedTitle} - {session.paymentError}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
        {busy ? "Processing..." : `Pay ${amount}`}
      </button>
    </fetcher.Form>
  );
}

export default function Subscribe({ loaderData }: Route.ComponentProps) {
  const { plan, interval, price, provider, publishableKey, user, status } = loaderData;
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  const hydrated = useHydrated();
  const toast = useToast();
  const fetcher = useFetcher<SessionResult>({ key: "subscribe-session" });
  const actionData = useActionData<SessionResult>();
  const amount = naira(planPrice(plan, interval));
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
    if (latest?.error) toast({ title: latest.error.title, description: latest.error.description, variant: "destructive" });
    else if (latest?.paymentError) toast({ title: PAYMENT_TEXTS.failedTitle, description: latest.paymentError, variant: "destructive" });
  }, [latest, toast]);

  let payment: React.ReactNode;
  if (!user?.verified) {
    payment = (
      <>
        <p>Subscriptions are for verified people: verify your phone number first, then come back to pay.</p>
        <Link to="/signup-verification?step=verify-phone" className="btn btn-primary">
          Verify your phone
        </Link>
      </>
    );
  } else if (status?.isActive) {
    payment = (
      <>
        <p>You already have LinkUp {status.tier === "enterprise" ? "Enterprise" : "Premium"}. Change or cancel your plan in Settings.</p>
        <Link to="/settings?tab=premium" className="btn btn-primary">
          Manage your plan
        </Link>
      </>
    );
  } else if (provider === "unconfigured" || !price) {
    payment = (
      <p>
        Card payments are not available right now. Call <a href={`tel:${phone}`}>{phone}</a> and our team will set up your plan.
      </p>
    );
  } else if (session?.clientSecret) {
    payment =
      session.provider === "stripe" ? (
        hydrated ? (
          <StripePaymentForm publishableKey={publishableKey} clientSecret={session.clientSecret} amount={amount} />
        ) : (
          <p>Card payment needs JavaScript. Please enable it, or call {phone} to pay by phone.</p>
        )
      ) : (
        <LocalPaymentForm fetcher={fetcher} session={session} amount={amount} card={card} />
      );
  } else if (session?.error) {
    payment = (
      <Form method="post" className="form">
        <p role="alert" className="error">
          {session.error.title} - {session.error.description}
          {session.error.reason ? ` (${session.error.reason})` : ""}
        </p>
        <input type="hidden" name="intent" value="start" />
        <input type="hidden" name="priceId" value={price.priceId} />
        <button type="submit" className="btn btn-primary">
          Try again
        </button>
      </Form>
    );
  } else if (hydrated) {
    payment = (
      <p role="status" className="center">
        <span className="dot dot-on" aria-hidden="true" /> {PAYMENT_TEXTS.setup}
      </p>
    );
  } else {
    payment = (
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="start" />
        <input type="hidden" name="priceId" value={price.priceId} />
        <button type="submit" className="btn btn-primary btn-lg">
          Continue to payment
        </button>
      </Form>
    );
  }

  return (
    <div className="stack">
      <div className="row">
        <BackButton />
      </div>
      <section className="card" aria-labelledby="subscribe-title">
        <h1 id="subscribe-title">Subscribe to LinkUp {PLAN_NAMES[plan]}</h1>
        <PlanPicker plan={plan} interval={interval} />
      </section>
      {plan === "premium" && status?.trialAvailable && !status.isActive ? (
        <section className="card" aria-labelledby="trial-title">
          <h2 id="trial-title">Try Premium free for {TRIAL_DAYS} days</h2>
          <p>No card needed, nothing to cancel: the trial simply ends after {TRIAL_DAYS} days, and we remind you the day before.</p>
          <Form method="post">
            <input type="hidden" name="intent" value="trial" />
            <button type="submit" className="btn btn-primary">
              Start Free Trial
            </button>
          </Form>
        </section>
      ) : null}
      <section className="card" aria-labelledby="payment-title">
        <h2 id="payment-title">Payment</h2>
        {payment}
      </section>
      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title">Order summary</h2>
        <dl className="pair">
          <dt>Plan</dt>
          <dd>LinkUp {PLAN_NAMES[plan]}</dd>
          <dt>Billing</dt>
          <dd>{interval === "yearly" ? "Yearly (2 months free)" : "Monthly"}</dd>
          <dt>Total</dt>
          <dd>
            <strong>{amount}</strong> / {perPeriod(interval)}
          </dd>
        </dl>
        <p className="muted small">Cancel anytime: you keep your plan until the end of the period you paid for.</p>
      </section>
      <section className="card" aria-labelledby="help-title">
        <h2 id="help-title">Need help?</h2>
        <p>
          Call us on <a href={`tel:${phone}`}>{phone}</a>: we can also set up your plan by phone.
        </p>
        <ul className="list-plain small muted">
          {SUPPORT_HOURS.map((h) => (
            <li key={h.days}>
              {h.days}: {h.hours}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
