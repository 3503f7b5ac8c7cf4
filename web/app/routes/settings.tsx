// Settings (docs/product/settings-and-notifications.md): five tabs, every field saved on the server
// with PATCH /api/me, so they follow the person to another device once they sign in with their phone.
import { useEffect } from "react";
import { Form, Link, useActionData } from "react-router";
import type { Me } from "../../../core/api-types";
import type { SubscriptionStatus } from "../../../core/billing";
import { PRICES_NGN, TIER_LIMITS, SETTINGS_OPTIONS, TRIAL_DAYS } from "../../../core/constants";
import { PLACES } from "../../../core/places";
import { apiGet } from "../lib/api.server";
import { useRootData } from "../root";
import { completeLanguageNames, languageLabels, metaTitle, type T, useT } from "../i18n";
import { formatDate } from "../../../core/i18n/translate";
import type { MessageKey } from "../../../core/i18n/en";
import { SETTINGS_SECTIONS } from "../features/identity/settings-sections";
import { type SettingsTab, settingsAction, tabOf } from "../features/identity/settings.server";
import { type FormError, InlineError, useErrorToast, useHydrated } from "../features/identity/form-errors";
import type { Route } from "./+types/settings";
import { lazyPart } from "../features/chat/lazy-part";

// Parts that need the browser anyway load after the page (bench/README.md, bundle).
const UpdateLocation = lazyPart(() => import("../features/identity/update-location").then((m) => m.UpdateLocation));
import { TIMER_LABELS } from "../features/chat/timer-labels";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "set.metaTitle", "Settings — LinkUp") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const tab = tabOf(url);
  const plan = me && tab === "premium" ? await apiGet<SubscriptionStatus>(context, "/api/subscription/status") : null;
  // Town names for the profile's suggestions come with the data, so the page's JS does not carry the places list.
  const towns = tab === "profile" ? PLACES.map((p) => p.name) : [];
  const flag = url.searchParams.get("saved");
  const saved = flag && flag in SAVED_TEXT ? (flag as keyof typeof SAVED_TEXT) : null;
  // Cancelling asks first (issue 32): a link to the question, so it works without JavaScript too.
  const confirmCancel = tab === "premium" && url.searchParams.get("confirm") === "cancel";
  return { user: me?.user ?? null, tab, plan, towns, saved, confirmCancel };
}

export function action({ request, context }: Route.ActionArgs) {
  return settingsAction(request, context);
}

/** What the status line says after a save, by the `saved` flag the action redirected with. */
const SAVED_TEXT = {
  "1": "set.saved",
  "plan-cancel": "set.plan.cancelDone",
  "plan-resume": "set.plan.resumeDone",
  "plan-change": "set.plan.changeDone",
} as const satisfies Record<string, MessageKey>;

const TAB_LABELS: Record<SettingsTab, MessageKey> = {
  profile: "set.tab.profile",
  premium: "set.tab.premium",
  network: "set.tab.network",
  privacy: "set.tab.privacy",
  notifications: "set.tab.notifications",
};

const capital = (s: string) => s[0].toUpperCase() + s.slice(1);

function Select({
  label,
  name,
  value,
  options,
  labels,
  hint,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly string[];
  labels?: Record<string, string>;
  hint?: string;
}) {
  const hintId = hint ? `${name}-hint` : undefined;
  return (
    <label>
      {label}
      <select name={name} defaultValue={value} aria-describedby={hintId}>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? capital(o)}
          </option>
        ))}
      </select>
      {hint ? (
        <span id={hintId} className="text-muted text-sm">
          {hint}
        </span>
      ) : null}
    </label>
  );
}

function Toggle({ label, name, checked, hint }: { label: string; name: string; checked: boolean; hint?: string }) {
  return (
    <label className="inline-flex items-center gap-[0.35rem] font-normal">
      <input type="checkbox" name={name} defaultChecked={checked} /> {label}
      {hint ? <span className="text-muted text-sm"> — {hint}</span> : null}
    </label>
  );
}

function SaveForm({ tab, children, submit }: { tab: SettingsTab; children: React.ReactNode; submit: string }) {
  return (
    <Form method="post" className="form" noValidate>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="tab" value={tab} />
      {children}
      <button type="submit" className="btn btn-primary">
        {submit}
      </button>
    </Form>
  );
}

function ProfileTab({ user, towns, error }: { user: Me; towns: string[]; error?: FormError }) {
  const t = useT();
  return (
    <SaveForm tab="profile" submit={t("set.saveProfile")}>
      <label>
        {t("verify.nickname")}
        <input name="nickname" defaultValue={user.nickname} maxLength={40} aria-invalid={error?.field === "nickname" || undefined} />
      </label>
      <div className="field">
        <span>{t("set.phone")}</span>
        {user.phone ? (
          <p>
            <strong>{user.phone}</strong> <span className="pill">{t("set.verified")}</span>
          </p>
        ) : (
          <p>
            {t("set.notVerified")} <Link to="/signup-verification?step=verify-phone">{t("sec.verifyPhone")}</Link> {t("set.keepIdentity")}
          </p>
        )}
      </div>
      {user.authMode === "verified" ? (
        <p>
          <Link to="/team">{t("set.team")}</Link> — {t("set.teamHint")}
        </p>
      ) : null}
      {/* The role comes from the server's /api/me; the dashboard's own API guards decide again. */}
      {user.role === "staff" || user.role === "admin" ? (
        <p>
          <Link to="/staff-desk">{t("admin.staffDesk")}</Link> — {t("set.staffDeskHint")}
        </p>
      ) : null}
      {user.role === "admin" ? (
        <p>
          <Link to="/database-admin">{t("admin.databaseAdmin")}</Link> — {t("set.databaseAdminHint")}
        </p>
      ) : null}
      <label>
        {t("set.location")}
        <input
          name="locationText"
          defaultValue={user.locationText ?? ""}
          maxLength={120}
          autoComplete="address-level2"
          list="settings-towns"
        />
      </label>
      <datalist id="settings-towns">
        {towns.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <Select
        label={t("settings.language")}
        name="language"
        value={user.settings.language}
        options={SETTINGS_OPTIONS.languages}
        labels={languageLabels(t, SETTINGS_OPTIONS.languages)}
        hint={t("settings.languageHint", { complete: completeLanguageNames() })}
      />
      <InlineError error={error} />
    </SaveForm>
  );
}

function PlanButton({ intent, label, fields = {} }: { intent: string; label: string; fields?: Record<string, string> }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="tab" value="premium" />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className="btn btn-ghost">
        {label}
      </button>
    </Form>
  );
}

const day = (t: T, iso: string | null) => (iso ? formatDate(iso, t.tag, { day: "numeric", month: "long", year: "numeric" }) : "");
const TIER: Record<string, MessageKey> = { free: "pricing.community", premium: "pricing.premium", enterprise: "pricing.enterprise" };

/** What the server says of the person's plan, and what they can do with it (cancel, resume, change). */
function PlanDetails({ plan, confirmCancel }: { plan: SubscriptionStatus; confirmCancel: boolean }) {
  const paid = plan.source === "stripe";
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      {plan.source === "trial" ? <p>{t("set.plan.trialUntil", { date: day(t, plan.trialEndsAt) })}</p> : null}
      {plan.source === "complimentary" ? <p>{t("set.plan.complimentary")}</p> : null}
      {paid && plan.status === "past_due" ? (
        <p role="alert" className="error text-danger">
          {t("set.plan.pastDue", { date: day(t, plan.graceEndsAt) })}
        </p>
      ) : null}
      {paid && plan.cancelAtPeriodEnd ? <p>{t("set.plan.cancelled")}</p> : null}
      {paid && plan.nextBilling ? (
        <p>
          {t("set.plan.nextBilling", {
            date: day(t, plan.nextBilling),
            interval: plan.interval === "yearly" ? t("set.plan.yearly") : t("set.plan.monthly"),
          })}
        </p>
      ) : null}
      {plan.pendingTier ? <p>{t("set.plan.pending", { plan: t(TIER[plan.pendingTier] ?? "pricing.premium") })}</p> : null}
      {paid && confirmCancel && !plan.cancelAtPeriodEnd ? (
        <div role="alertdialog" aria-labelledby="cancel-q" className="card grid gap-[0.6rem]">
          <p id="cancel-q">
            <strong>{t("set.plan.cancelConfirm")}</strong>
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <PlanButton intent="plan-cancel" label={t("set.plan.cancelYes")} />
            <Link to="/settings?tab=premium" className="btn btn-primary">
              {t("set.plan.keep")}
            </Link>
          </div>
        </div>
      ) : null}
      {paid ? (
        <div className="flex flex-wrap items-center gap-2">
          {plan.cancelAtPeriodEnd ? (
            <PlanButton intent="plan-resume" label={t("set.plan.resume")} />
          ) : confirmCancel ? null : (
            <Link to="/settings?tab=premium&confirm=cancel" className="btn btn-ghost">
              {t("set.plan.cancel")}
            </Link>
          )}
          {plan.tier === "enterprise" && !plan.pendingTier ? (
            <PlanButton
              intent="plan-change"
              label={t("set.plan.downgrade")}
              fields={{ tier: "premium", interval: plan.interval ?? "monthly" }}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function PremiumTab({
  user,
  phone,
  plan,
  confirmCancel,
}: {
  user: Me;
  phone: string;
  plan: SubscriptionStatus | null;
  confirmCancel: boolean;
}) {
  const paid = plan?.source === "stripe";
  const t = useT();
  if (user.tier === "enterprise") {
    return (
      <div className="grid gap-[0.6rem]">
        <h2>{t("set.plan.enterpriseActive")}</h2>
        <p>{t("set.plan.enterpriseBody")}</p>
        {/* No subscription of their own: the tier is a team seat's (docs/decisions/067-enterprise-teams.md). */}
        {plan && !plan.source ? <p>{t("set.plan.fromSeat")}</p> : null}
        <p>
          <Link to="/team">{t("set.team")}</Link> — {t("set.teamHint")}
        </p>
        {plan ? <PlanDetails plan={plan} confirmCancel={confirmCancel} /> : null}
      </div>
    );
  }
  if (user.tier === "premium") {
    return (
      <div className="grid gap-[0.6rem]">
        <h2>{t("set.plan.premiumActive")}</h2>
        <p>{t("set.plan.premiumBody")}</p>
        {plan ? <PlanDetails plan={plan} confirmCancel={confirmCancel} /> : null}
        {paid ? (
          <PlanButton
            intent="plan-change"
            label={t("set.plan.upgradeEnterprise")}
            fields={{ tier: "enterprise", interval: plan?.interval ?? "monthly" }}
          />
        ) : (
          <Link to="/subscribe?plan=enterprise" className="btn btn-primary">
            {t("set.plan.upgradeEnterprise")}
          </Link>
        )}
      </div>
    );
  }
  return (
    <div className="grid gap-[0.6rem]">
      <h2>{t("set.plan.goPremium")}</h2>
      <p>
        {t("set.plan.goPremiumBody", {
          price: t.naira(PRICES_NGN.premium.monthly),
          days: TRIAL_DAYS,
          voice: TIER_LIMITS.premium.voiceMessages ?? 0,
        })}
      </p>
      {plan && plan.status !== "none" && plan.source === "stripe" ? <p className="text-muted">{t("set.plan.ended")}</p> : null}
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/subscribe?plan=premium" className="btn btn-primary">
          {t("set.plan.tryFree", { days: TRIAL_DAYS })}
        </Link>
        {phone ? (
          <a href={`tel:${phone}`} className="btn btn-ghost">
            {t("offer.call", { phone })}
          </a>
        ) : null}
      </div>
    </div>
  );
}

/**
 * 'Settings saved' belongs to the save that redirected here: the flag leaves the address bar once shown, so
 * a reload or a shared link does not say it again. history.replaceState, not a navigation: the loader would
 * run again and take the message away at once.
 */
function useConsumedFlag(name: string | null) {
  useEffect(() => {
    if (!name) return;
    const url = new URL(window.location.href);
    url.searchParams.delete(name);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }, [name]);
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { user, tab, saved, plan, towns, confirmCancel } = loaderData;
  const actionData = useActionData<{ error?: FormError }>();
  const error = actionData?.error;
  useErrorToast(error);
  useConsumedFlag(saved ? "saved" : null);
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  const t = useT();
  const hydrated = useHydrated();
  if (!user) {
    return (
      <section className="card mx-auto max-w-[640px]" aria-labelledby="settings-title">
        <h1 id="settings-title">{t("set.title")}</h1>
        <p>{t("set.signedOut")}</p>
        <Link to="/signup-verification" className="btn btn-primary">
          {t("sec.getStarted")}
        </Link>
      </section>
    );
  }
  return (
    <div className="grid gap-4">
      <section className="card" aria-labelledby="settings-title">
        <h1 id="settings-title">{t("set.title")}</h1>
        <p className="text-muted text-sm">
          {t("set.signedInAs")} <strong>{user.nickname}</strong> · {user.authMode === "verified" ? t("set.verified") : t("set.anonymousId")}{" "}
          · {t("set.planName", { plan: t(TIER[user.tier] ?? "pricing.community") })}
        </p>
        <nav aria-label={t("set.tabsLabel")} className="mb-3 flex flex-wrap gap-1 border-b border-line">
          {(Object.keys(TAB_LABELS) as SettingsTab[]).map((id) => (
            <Link
              key={id}
              to={`/settings?tab=${id}`}
              className={`border-b-3 px-3 py-2 no-underline ${id === tab ? "border-b-primary font-semibold" : "border-b-transparent"}`}
              aria-current={id === tab ? "page" : undefined}
            >
              {t(TAB_LABELS[id])}
            </Link>
          ))}
        </nav>
        {saved ? (
          <p role="status" className="text-ok">
            {t(SAVED_TEXT[saved])}
          </p>
        ) : null}
        <div className="tab-panel">
          {tab === "profile" ? <ProfileTab user={user} towns={towns} error={error} /> : null}
          {tab === "premium" ? <PremiumTab user={user} phone={phone} plan={plan} confirmCancel={confirmCancel} /> : null}
          {tab === "network" ? (
            <>
              <SaveForm tab="network" submit={t("set.saveNetwork")}>
                <Toggle label={t("set.mesh")} name="meshNetworking" checked={user.settings.meshNetworking} hint={t("set.meshHint")} />
              </SaveForm>
              <p>
                <Link to="/cache-status">{t("set.offline")}</Link>
              </p>
            </>
          ) : null}
          {tab === "privacy" ? (
            <SaveForm tab="privacy" submit={t("set.savePrivacy")}>
              <Toggle label={t("set.anonymous")} name="anonymousMode" checked={user.settings.anonymousMode} hint={t("set.anonymousHint")} />
              <Select
                label={t("set.autoDelete")}
                name="autoDelete"
                value={user.settings.autoDelete}
                options={SETTINGS_OPTIONS.autoDelete}
                labels={Object.fromEntries(SETTINGS_OPTIONS.autoDelete.map((o) => [o, t(TIMER_LABELS[o])]))}
                hint={t("set.autoDeleteHint")}
              />
            </SaveForm>
          ) : null}
          {tab === "notifications" ? (
            <SaveForm tab="notifications" submit={t("set.saveAlerts")}>
              <Toggle label={t("set.push")} name="pushEnabled" checked={user.settings.pushEnabled} />
              <fieldset>
                <legend>{t("set.quiet")}</legend>
                <div className="flex flex-wrap items-center gap-2">
                  <label>
                    {t("set.from")}
                    <input type="time" name="quietStart" defaultValue={user.settings.quietStart} />
                  </label>
                  <label>
                    {t("set.to")}
                    <input type="time" name="quietEnd" defaultValue={user.settings.quietEnd} />
                  </label>
                </div>
              </fieldset>
            </SaveForm>
          ) : null}
        </div>
      </section>

      <section className="card" aria-labelledby="quick-actions">
        <h2 id="quick-actions">{t("set.quick")}</h2>
        <div className="flex flex-wrap items-center gap-2">
          {hydrated ? (
            <UpdateLocation />
          ) : (
            <button type="button" className="btn btn-ghost" disabled title={t("set.needsJs")}>
              {t("set.updateLocation")}
            </button>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value="reset" />
            <input type="hidden" name="tab" value={tab} />
            <button type="submit" className="btn btn-ghost">
              {t("set.reset")}
            </button>
          </Form>
        </div>
      </section>

      {/* Sections other areas add (emergency contacts, …): see features/identity/settings-sections.tsx. */}
      {SETTINGS_SECTIONS.length ? (
        <ul className="m-0 grid list-none gap-4 p-0" aria-label={t("set.more")}>
          {SETTINGS_SECTIONS.map(({ id, title, Component }) => (
            <li key={id} id={id} className="card">
              <h2>{t(title)}</h2>
              <Component user={user} />
            </li>
          ))}
        </ul>
      ) : null}

      <section className="card" aria-labelledby="account">
        <h2 id="account">{t("set.account")}</h2>
        <Form
          method="post"
          onSubmit={(e) => {
            // With JavaScript: withdraw this device's key and delete its data before the session ends.
            e.preventDefault();
            const form = e.currentTarget;
            import("../mesh/sign-out")
              .then((m) => m.forgetThisDevice(user.id))
              .catch(() => {})
              .finally(() => form.submit());
          }}
        >
          <input type="hidden" name="intent" value="logout" />
          <button type="submit" className="btn btn-danger">
            {t("set.signOut")}
          </button>
        </Form>
      </section>
    </div>
  );
}
