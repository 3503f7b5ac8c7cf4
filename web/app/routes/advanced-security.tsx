// Advanced security center (docs/product/security.md): feature toggles, the security score, the first 4 security events
// and the backup codes, all from the account's stored state (the score is the share of enabled features); the
// safety numbers of private chats, worked out on this device.
import { useEffect, useState } from "react";
import { Form, Link, useActionData } from "react-router";
import type { MessageKey } from "../../../core/i18n/en";
import { formatAgo } from "../../../core/i18n/translate";
import {
  SCORE_TONE,
  SECURITY_EVENTS,
  type SecurityEventKind,
  type SecurityFeature,
  type SecurityFeatureId,
  type SecurityOverview,
  type SecuritySeverity,
  withDeviceFacts,
} from "../../../core/security";
import { readConfig } from "../features/security/app-lock";
import { advancedSecurityAction, loadAdvancedSecurity } from "../features/security/security.server";
import { type FormError, InlineError, useErrorToast } from "../features/identity/verification-forms";
import { metaTitle, type T, useT } from "../i18n";
import { SafetyNumberList } from "../features/security/safety-numbers";
import type { Route } from "./+types/advanced-security";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sec.metaAdvanced", "Advanced Security — LinkUp") }];

export function loader({ context }: Route.LoaderArgs) {
  return loadAdvancedSecurity(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return advancedSecurityAction(request, context);
}

/** Where a feature that is not a plain setting is switched on. */
const MANAGED_AT: Partial<Record<SecurityFeatureId, { to: string; label: MessageKey }>> = {
  two_factor: { to: "/security-settings?tab=authentication", label: "sec.manage2fa" },
  biometric_auth: { to: "/security-settings?tab=biometric", label: "sec.managePasskeys" },
  panic_mode: { to: "/security-settings?tab=biometric", label: "sec.managePanic" },
  app_lock: { to: "/security-settings?tab=biometric", label: "sec.manageAppLock" },
  disappearing_messages: { to: "/settings?tab=privacy", label: "sec.manageDisappearing" },
};

// The server names features and events in English (core/security.ts); the screen reads them by id in its
// language, and keeps the server's words for one it has no key for yet.
const FEATURE_TEXT: Partial<Record<SecurityFeatureId, [MessageKey, MessageKey]>> = {
  e2e_encryption: ["sec.f.e2e", "sec.f.e2eBody"],
  quantum_resistant: ["sec.f.quantum", "sec.f.quantumBody"],
  biometric_auth: ["sec.f.passkey", "sec.f.passkeyBody"],
  two_factor: ["sec.twoFactorTitle", "sec.f.twoFactorBody"],
  mesh_anonymization: ["sec.f.mesh", "sec.f.meshBody"],
  disappearing_messages: ["sec.f.disappearing", "sec.f.disappearingBody"],
  panic_mode: ["sec.f.panic", "sec.f.panicBody"],
  app_lock: ["sec.f.appLock", "sec.f.appLockBody"],
  stealth_mode: ["sec.stealthTitle", "sec.f.stealthBody"],
};
const EVENT_TEXT: Partial<Record<SecurityEventKind, MessageKey>> = {
  sign_in: "sec.e.sign_in",
  two_factor_on: "sec.e.two_factor_on",
  two_factor_off: "sec.e.two_factor_off",
  failed_code: "sec.e.failed_code",
  code_lockout: "sec.e.code_lockout",
  panic: "sec.e.panic",
  key_added: "sec.e.key_added",
  key_changed: "sec.e.key_changed",
  key_removed: "sec.e.key_removed",
  passkey_added: "sec.e.passkey_added",
  passkey_removed: "sec.e.passkey_removed",
  export: "sec.e.export",
  deletion_requested: "sec.e.deletion_requested",
};
const SEVERITY: Record<SecuritySeverity, MessageKey> = {
  low: "sec.severity.low",
  medium: "sec.severity.medium",
  high: "sec.severity.high",
  critical: "sec.severity.critical",
};
const SCORE_LABEL = { Excellent: "sec.score.Excellent", Good: "sec.score.Good", Fair: "sec.score.Fair", Poor: "sec.score.Poor" } as const;

const featureTitle = (f: SecurityFeature, t: T) => (FEATURE_TEXT[f.id] ? t(FEATURE_TEXT[f.id]![0]) : f.title);
const featureBody = (f: SecurityFeature, t: T) => (FEATURE_TEXT[f.id] ? t(FEATURE_TEXT[f.id]![1]) : f.description);

/** An event's line in the language; a detail the server adds after the known words ("…: a browser on …") stays. */
function eventLine(e: { kind: SecurityEventKind; message: string }, t: T) {
  const key = EVENT_TEXT[e.kind];
  const base = SECURITY_EVENTS[e.kind]?.message;
  return key && base && e.message.startsWith(base) ? t(key) + e.message.slice(base.length) : e.message;
}

const TOGGLED_HERE: SecurityFeatureId[] = ["mesh_anonymization", "stealth_mode"];

function FeatureControl({ f }: { f: SecurityFeature }) {
  const t = useT();
  if (f.id === "e2e_encryption") return <span className="text-muted text-sm">{t("sec.alwaysOn")}</span>;
  if (!f.offered && !MANAGED_AT[f.id]) return <span className="text-muted text-sm">{t("sec.notOffered")}</span>;
  if (TOGGLED_HERE.includes(f.id)) {
    return (
      <Form method="post">
        <input type="hidden" name="intent" value={f.id} />
        <input type="hidden" name="on" value={String(!f.enabled)} />
        <button
          type="submit"
          className={`btn ${f.enabled ? "btn-ghost" : "btn-primary"}`}
          aria-label={t(f.enabled ? "sec.turnOffLabel" : "sec.turnOnLabel", { feature: featureTitle(f, t) })}
        >
          {f.enabled ? t("sec.turnOff") : t("sec.turnOn")}
        </button>
      </Form>
    );
  }
  const at = MANAGED_AT[f.id];
  return at ? (
    <Link to={at.to} className="btn btn-ghost" aria-label={t(at.label)}>
      {t("sec.manage")}
    </Link>
  ) : null;
}

/** The overview with this device's app lock and panic code, which only the device knows (after hydration). */
function useDeviceOverview(userId: string | undefined, overview: SecurityOverview | null): SecurityOverview | null {
  const [device, setDevice] = useState<{ appLock: boolean; panicCode: boolean } | null>(null);
  useEffect(() => {
    if (!userId) return;
    const config = readConfig(userId);
    // A lock with only a passkey is a lock too: any saved config locks the app.
    setDevice({ appLock: Boolean(config), panicCode: Boolean(config?.panic) });
  }, [userId]);
  if (!overview || !device) return overview;
  return { ...overview, ...withDeviceFacts(overview.features, device) };
}

export default function AdvancedSecurity({ loaderData }: Route.ComponentProps) {
  const { user, contacts } = loaderData;
  const overview = useDeviceOverview(user?.id, loaderData.overview);
  const error = useActionData<{ error?: FormError }>()?.error;
  useErrorToast(error);
  const t = useT();
  if (!user || !overview) {
    return (
      <section className="card mx-auto max-w-[640px]" aria-labelledby="advanced-security-title">
        <h1 id="advanced-security-title">{t("sec.advancedTitle")}</h1>
        <p>{t("sec.advancedSignedOut")}</p>
        <Link to="/signup-verification" className="btn btn-primary">
          {t("sec.getStarted")}
        </Link>
      </section>
    );
  }
  return (
    <div className="grid gap-4">
      <section className="card" aria-labelledby="advanced-security-title">
        <h1 id="advanced-security-title">{t("sec.advancedTitle")}</h1>
        <InlineError error={error} />
        <div className="progress-block [&_progress]:w-full [&_progress]:accent-primary">
          <h2 id="score-title">{t("sec.scoreTitle")}</h2>
          <p>
            <strong className="score">{overview.score}%</strong>{" "}
            <span className={`pill pill-${SCORE_TONE[overview.label]}`} data-tone={SCORE_TONE[overview.label]}>
              {t(SCORE_LABEL[overview.label])}
            </span>
          </p>
          <progress max={100} value={overview.score} aria-label={t("sec.scoreAria", { score: overview.score })} />
          <p className="text-muted text-sm">{t("sec.scoreHint")}</p>
        </div>
      </section>
      <section className="card" aria-labelledby="features-title">
        <h2 id="features-title">{t("sec.featuresTitle")}</h2>
        <ul className="m-0 mb-3 list-none p-0" aria-label={t("sec.featuresTitle")}>
          {overview.features.map((f) => (
            <li key={f.id} className="flex items-center justify-between gap-2 border-t border-line py-[0.6rem]">
              <div>
                <strong>{featureTitle(f, t)}</strong> <span className="pill">{f.enabled ? t("sec.on") : t("sec.off")}</span>{" "}
                {f.premiumOnly ? <span className="pill">Premium</span> : null}
                <div className="text-muted text-sm">{featureBody(f, t)}</div>
              </div>
              <FeatureControl f={f} />
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">{t("sec.eventsTitle")}</h2>
        {overview.events.length === 0 ? (
          <p className="text-muted">{t("sec.noEvents")}</p>
        ) : (
          <ul className="m-0 mb-3 list-none p-0" aria-label={t("sec.eventsTitle")}>
            {overview.events.map((e) => (
              <li key={e.id} className="flex items-center justify-between gap-2 border-t border-line py-[0.6rem]">
                <div>
                  <strong>{eventLine(e, t)}</strong> <span className="pill">{t(SEVERITY[e.severity])}</span>
                  <div className="text-muted text-sm">{formatAgo(Date.parse(e.timestamp), t.tag)}</div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <SafetyNumberList contacts={contacts} />
      <section className="card" aria-labelledby="backup-title">
        <h2 id="backup-title">{t("sec.backupCodes")}</h2>
        <p>{overview.backupCodesLeft > 0 ? t("sec.backupLeft", { left: overview.backupCodesLeft }) : t("sec.backupNone")}</p>
        <Link to="/security-settings?tab=authentication" className="btn btn-ghost">
          {t("sec.settingsTitle")}
        </Link>
      </section>
    </div>
  );
}
