import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Me } from "../../../core/api-types";
import { nicknameFromPhone } from "../../../core/identity";
import type { RoomsAnswer } from "../../../core/rooms";
import { useToast } from "../components/toast";
import { metaTitle, useT } from "../i18n";
import { UNKNOWN_TOWN } from "../features/chat/area-chooser";
import { ChatScreen } from "../features/chat/chat-screen";
import { membershipAction } from "../features/chat/membership.server";
import { apiGet, apiSend, cookieFrom } from "../lib/api.server";
import { useRootData } from "../root";
import type { Route } from "./+types/chat";
import { type Refusal, refusalOr } from "../i18n/refusal";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "chat.metaTitle", "Mesh Chat · LinkUp") }];

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
    if (!saved.ok) return data({ error: refusalOr(saved.json, "joinMesh.err.town") }, { status: saved.status });
    const joined = await apiSend(context, "POST", "/api/rooms/nearby/join");
    if (joined.status === 409) return data({ error: UNKNOWN_TOWN }, { status: 409 });
    throw redirect("/chat");
  }
  const intent = String(form.get("intent") ?? "");
  if (intent) return membershipAction(context, intent, form);
  const phone = String(form.get("phone") ?? "").trim();
  if (!phone) return data({ error: null as string | null });
  const started = await apiSend(context, "POST", "/api/auth/anonymous");
  if (!started.ok) return data({ error: refusalOr(started.json, "joinMesh.err.connect") }, { status: started.status });
  const patched = await apiSend(
    context,
    "PATCH",
    "/api/me",
    { nickname: nicknameFromPhone(phone), onboardingCompleted: true },
    cookieFrom(started.headers),
  );
  if (!patched.ok) return data({ error: refusalOr(patched.json, "joinMesh.err.profile") }, { status: patched.status });
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
    toast({ title: t("joinMesh.connected"), variant: "success" });
    setParams(
      (p) => {
        p.delete("joined");
        return p;
      },
      { replace: true },
    );
  }, [joined, toast, setParams, t]);
  const subscription = params.get("subscription");
  const paidTier = loaderData.user && loaderData.user.tier !== "free" ? loaderData.user.tier : null;
  useEffect(() => {
    if (subscription === "success" && paidTier)
      toast({ title: t("pay.successTitle"), description: t("pay.successBody"), variant: "success" });
  }, [subscription, paidTier, toast, t]);
  if (!loaderData.user) return <JoinForm error={actionData?.error ?? null} />;
  return (
    <>
      {params.get("reported") === "1" ? (
        <p role="status" className="text-ok">
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
  const t = useT();
  const plan = t("subs.linkupPlan", { plan: t(tier === "enterprise" ? "pricing.enterprise" : "pricing.premium") });
  return (
    <p role="status" className={tier ? "text-ok" : "text-muted"}>
      {tier ? (kind === "trial" ? t("subs.trialActive", { plan }) : t("subs.active", { plan })) : t("subs.confirming")}{" "}
      <Link to="/settings?tab=premium">{t("subs.managePlan")}</Link>
    </p>
  );
}

function JoinForm({ error }: { error: Refusal | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction === "/chat";
  const t = useT();
  return (
    <section className="card grid justify-items-center gap-3 text-center join-mesh" aria-labelledby="join-title">
      <h1 id="join-title">{t("joinMesh.title")}</h1>
      <p>{t("joinMesh.intro")}</p>
      <Form method="post" action="/chat" className="form">
        <label>
          {t("verify.phone")}
          <input name="phone" type="tel" autoComplete="tel" placeholder="0803 000 0000" />
        </label>
        {error ? <p role="alert">{t.error(error)}</p> : null}
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? t("joinMesh.connecting") : t("joinMesh.submit")}
        </button>
      </Form>
    </section>
  );
}
