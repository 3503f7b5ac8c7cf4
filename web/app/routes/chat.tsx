import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Me } from "../../../core/api-types";
import { PAYMENT_TEXTS } from "../../../core/billing";
import { nicknameFromPhone } from "../../../core/identity";
import type { RoomsAnswer } from "../../../core/rooms";
import { useToast } from "../components/toast";
import { useT } from "../i18n";
import { UNKNOWN_TOWN } from "../features/chat/area-chooser";
import { ChatScreen } from "../features/chat/chat-screen";
import { membershipAction } from "../features/chat/membership.server";
import { apiGet, apiSend, cookieFrom } from "../lib/api.server";
import { useRootData } from "../root";
import type { Route } from "./+types/chat";

export const meta: Route.MetaFunction = () => [{ title: "Mesh Chat · LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, rooms: null };
  if (!me.user.onboardingCompleted) throw redirect("/onboarding");
  let rooms: RoomsAnswer | null = null;
  try {
    rooms = await apiGet<RoomsAnswer>(context, "/api/rooms");
  } catch {
    rooms = null;
  }
  return { user: { id: me.user.id, nickname: me.user.nickname, tier: me.user.tier, verified: me.user.authMode === "verified" }, rooms };
}

/**
 * The join form: an anonymous session named 'User ' + the phone's last 4 characters, onboarding done. Forms
 * with an `intent` are the chat's membership actions (invitations, leaving a group, blocking).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  // The area chooser's town form.
  if (form.get("intent") === "set-town") {
    const town = String(form.get("town") ?? "").trim();
    const saved = await apiSend(context, "PATCH", "/api/me", { locationText: town || null });
    if (!saved.ok) return data({ error: saved.json?.error ?? "Could not save your town." }, { status: saved.status });
    const joined = await apiSend(context, "POST", "/api/rooms/nearby/join");
    if (joined.status === 409) return data({ error: UNKNOWN_TOWN }, { status: 409 });
    throw redirect("/chat");
  }
  const intent = String(form.get("intent") ?? "");
  if (intent) return membershipAction(context, intent, form);
  const phone = String(form.get("phone") ?? "").trim();
  if (!phone) return data({ error: null as string | null });
  const started = await apiSend(context, "POST", "/api/auth/anonymous");
  if (!started.ok) return data({ error: started.json?.error ?? "Could not connect. Please try again." }, { status: started.status });
  const patched = await apiSend(
    context,
    "PATCH",
    "/api/me",
    { nickname: nicknameFromPhone(phone), onboardingCompleted: true },
    cookieFrom(started.headers),
  );
  if (!patched.ok) return data({ error: patched.json?.error ?? "Could not save your profile." }, { status: patched.status });
  // A redirect, so the next request carries the new session cookie (with or without JavaScript).
  throw redirect("/chat?joined=1", { headers: started.headers });
}

export default function Chat({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  const toast = useToast();
  const t = useT();
  const [params, setParams] = useSearchParams();
  const joined = params.get("joined") === "1";
  useEffect(() => {
    if (!joined) return;
    toast({ title: "Connected to LinkUp Mesh!", variant: "success" });
    setParams(
      (p) => {
        p.delete("joined");
        return p;
      },
      { replace: true },
    );
  }, [joined, toast, setParams]);
  const subscription = params.get("subscription");
  const paidTier = loaderData.user && loaderData.user.tier !== "free" ? loaderData.user.tier : null;
  useEffect(() => {
    if (subscription === "success" && paidTier)
      toast({ title: PAYMENT_TEXTS.successTitle, description: PAYMENT_TEXTS.successBody, variant: "success" });
  }, [subscription, paidTier, toast]);
  if (!loaderData.user) return <JoinForm error={actionData?.error ?? null} />;
  return (
    <>
      {params.get("reported") === "1" ? (
        <p role="status" className="success">
          {t("report.sent")}
        </p>
      ) : null}
      {subscription ? <SubscriptionBanner kind={subscription} tier={paidTier} /> : null}
      <ChatScreen
        key={loaderData.user.id}
        me={loaderData.user}
        initialRooms={loaderData.rooms}
        supportPhone={root?.env.SUPPORT_PHONE ?? ""}
        cookiesAccepted={root?.cookiesAccepted ?? false}
        actionError={actionData?.error ?? null}
      />
    </>
  );
}

/** After checkout or the trial: the tier as the server has it now (a payment may take a moment to confirm). */
function SubscriptionBanner({ kind, tier }: { kind: string; tier: string | null }) {
  const name = tier === "enterprise" ? "Enterprise" : "Premium";
  return (
    <p role="status" className={tier ? "success" : "muted"}>
      {tier
        ? kind === "trial"
          ? `Your LinkUp ${name} trial is active.`
          : `LinkUp ${name} is active. Thank you!`
        : "We are confirming your payment. Premium appears here as soon as it is confirmed; reload in a moment."}{" "}
      <Link to="/settings?tab=premium">Manage your plan</Link>
    </p>
  );
}

function JoinForm({ error }: { error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/chat";
  return (
    <section className="card center join-mesh" aria-labelledby="join-title">
      <h1 id="join-title">Join the mesh</h1>
      <p>Enter your phone number to start chatting with people near you. No code needed to start.</p>
      <Form method="post" action="/chat" className="form">
        <label>
          Phone number
          <input name="phone" type="tel" autoComplete="tel" placeholder="0803 000 0000" />
        </label>
        {error ? <p role="alert">{error}</p> : null}
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? "Connecting..." : "Join Mesh Network"}
        </button>
      </Form>
    </section>
  );
}
