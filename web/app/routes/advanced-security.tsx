// Advanced security center (spec part 2 #6): feature toggles, the security score, the first 4 security events
// and the backup codes, all from the account's stored state (the score is the share of enabled features).
import { Form, Link, useActionData } from "react-router";
import type { SecurityFeature, SecurityFeatureId } from "../../../core/security";
import { timeAgo } from "../../../core/sos";
import { advancedSecurityAction, loadAdvancedSecurity } from "../features/security/security.server";
import { type FormError, InlineError, useErrorToast } from "../features/identity/verification-forms";
import type { Route } from "./+types/advanced-security";

export const meta: Route.MetaFunction = () => [{ title: "Advanced Security — LinkUp" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadAdvancedSecurity(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return advancedSecurityAction(request, context);
}

/** Where a feature that is not a plain setting is switched on. */
const MANAGED_AT: Partial<Record<SecurityFeatureId, { to: string; label: string }>> = {
  two_factor: { to: "/security-settings?tab=authentication", label: "Manage two-factor authentication" },
  biometric_auth: { to: "/security-settings?tab=biometric", label: "Manage passkeys" },
  panic_mode: { to: "/security-settings?tab=biometric", label: "Set a panic code on this device" },
  disappearing_messages: { to: "/settings?tab=privacy", label: "Set disappearing messages for new chats" },
};

const TOGGLED_HERE: SecurityFeatureId[] = ["mesh_anonymization", "stealth_mode"];

function FeatureControl({ f }: { f: SecurityFeature }) {
  if (f.id === "e2e_encryption") return <span className="muted small">Always on</span>;
  if (!f.offered && !MANAGED_AT[f.id]) return <span className="muted small">Not offered yet</span>;
  if (TOGGLED_HERE.includes(f.id)) {
    return (
      <Form method="post">
        <input type="hidden" name="intent" value={f.id} />
        <input type="hidden" name="on" value={String(!f.enabled)} />
        <button
          type="submit"
          className={`btn ${f.enabled ? "btn-ghost" : "btn-primary"}`}
          aria-label={`${f.enabled ? "Turn off" : "Turn on"} ${f.title}`}
        >
          {f.enabled ? "Turn Off" : "Turn On"}
        </button>
      </Form>
    );
  }
  const at = MANAGED_AT[f.id];
  return at ? (
    <Link to={at.to} className="btn btn-ghost" aria-label={at.label}>
      Manage
    </Link>
  ) : null;
}

export default function AdvancedSecurity({ loaderData }: Route.ComponentProps) {
  const { user, overview } = loaderData;
  const error = useActionData<{ error?: FormError }>()?.error;
  useErrorToast(error);
  if (!user || !overview) {
    return (
      <section className="card narrow" aria-labelledby="advanced-security-title">
        <h1 id="advanced-security-title">Advanced Security</h1>
        <p>Your security score and events belong to your LinkUp identity. Start anonymously, or verify your phone to sign in.</p>
        <Link to="/signup-verification" className="btn btn-primary">
          Get Started
        </Link>
      </section>
    );
  }
  return (
    <div className="settings">
      <section className="card" aria-labelledby="advanced-security-title">
        <h1 id="advanced-security-title">Advanced Security</h1>
        <InlineError error={error} />
        <div className="progress-block">
          <h2 id="score-title">Security score</h2>
          <p>
            <strong className="score">{overview.score}%</strong> <span className="pill">{overview.label}</span>
          </p>
          <progress max={100} value={overview.score} aria-label={`Security score ${overview.score}%`} />
          <p className="muted small">The share of the protections below that are on for your account.</p>
        </div>
      </section>
      <section className="card" aria-labelledby="features-title">
        <h2 id="features-title">Security features</h2>
        <ul className="session-list" aria-label="Security features">
          {overview.features.map((f) => (
            <li key={f.id} className="session-item">
              <div>
                <strong>{f.title}</strong> <span className="pill">{f.enabled ? "On" : "Off"}</span>{" "}
                {f.premiumOnly ? <span className="pill">Premium</span> : null}
                <div className="muted small">{f.description}</div>
              </div>
              <FeatureControl f={f} />
            </li>
          ))}
        </ul>
      </section>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Security events</h2>
        {overview.events.length === 0 ? (
          <p className="muted">No security events yet.</p>
        ) : (
          <ul className="session-list" aria-label="Security events">
            {overview.events.map((e) => (
              <li key={e.id} className="session-item">
                <div>
                  <strong>{e.message}</strong> <span className="pill">{e.severity}</span>
                  <div className="muted small">{timeAgo(e.timestamp)}</div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="backup-title">
        <h2 id="backup-title">Backup codes</h2>
        <p>
          {overview.backupCodesLeft > 0
            ? `${overview.backupCodesLeft} unused backup codes. Each lets you sign in once without your authenticator app.`
            : "Backup codes come with two-factor authentication."}
        </p>
        <Link to="/security-settings?tab=authentication" className="btn btn-ghost">
          Security Settings
        </Link>
      </section>
    </div>
  );
}
