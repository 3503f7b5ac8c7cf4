// Stripe's Payment Element, loaded only on /subscribe and only when a publishable key is configured. Stripe.js
// comes from js.stripe.com as Stripe requires (PCI); nothing of it is bundled.
import { useEffect, useRef, useState } from "react";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";

interface StripeJs {
  elements(opts: { clientSecret: string }): { create(kind: "payment"): { mount(el: HTMLElement): void; destroy(): void } };
  confirmPayment(opts: { elements: unknown; confirmParams: { return_url: string } }): Promise<{ error?: { message?: string } }>;
}
type StripeFactory = (key: string) => StripeJs;

let loading: Promise<StripeFactory> | null = null;
function loadStripe(): Promise<StripeFactory> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "https://js.stripe.com/v3";
    script.onload = () => resolve((window as unknown as { Stripe: StripeFactory }).Stripe);
    script.onerror = () => {
      loading = null;
      reject(new Error("stripe-unavailable"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export function StripePaymentForm({
  publishableKey,
  clientSecret,
  amount,
}: {
  publishableKey: string;
  clientSecret: string;
  amount: string;
}) {
  const toast = useToast();
  const t = useT();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: StripeJs; elements: ReturnType<StripeJs["elements"]> } | null>(null);
  const [state, setState] = useState<"loading" | "idle" | "processing">("loading");

  useEffect(() => {
    let element: { destroy(): void } | null = null;
    let cancelled = false;
    loadStripe()
      .then((factory) => {
        if (cancelled || !mountRef.current) return;
        const stripe = factory(publishableKey);
        const elements = stripe.elements({ clientSecret });
        const payment = elements.create("payment");
        payment.mount(mountRef.current);
        element = payment;
        stripeRef.current = { stripe, elements };
        setState("idle");
      })
      .catch(() => toast({ title: t("pay.initErrorTitle"), description: t("pay.stripeUnavailable"), variant: "destructive" }));
    return () => {
      cancelled = true;
      element?.destroy();
    };
  }, [publishableKey, clientSecret, toast, t]);

  const pay = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!stripeRef.current) return;
    setState("processing");
    const { stripe, elements } = stripeRef.current;
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}/chat?subscription=success` },
    });
    // On success Stripe navigates to the return URL; only failures come back here.
    // Stripe words its own errors in the page's language (the Payment Element follows the browser's locale).
    if (error) toast({ title: t("pay.failedTitle"), description: error.message, variant: "destructive" });
    setState("idle");
  };

  return (
    <form onSubmit={pay} className="form" aria-label={t("pay.cardPayment")}>
      <div ref={mountRef} />
      <button type="submit" className="btn btn-primary btn-lg" disabled={state !== "idle"}>
        {state === "processing" ? t("pay.processing") : t("pay.pay", { amount })}
      </button>
    </form>
  );
}
