// Security settings (spec part 1 §founder story and security): tabs authentication, biometric, emergency,
// platform. Every control changes state on the server or on this device; none exists only as a toast.
import { Form, Link, useActionData } from "react-router";
import type { SessionView } from "../../../core/api-types";
import { timeAgo } from "../../../core/sos";
import { type SecurityTab, loadSecurity, securityAction } from "../features/security/security.server";
import { type FormError, InlineError, useErrorToast } from "../features/identity/verification-forms";
import type { Route } from "./+types/security-settings";

export const meta: Route.MetaFunction = () => [{ title: "Security Settings — LinkUp" }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadSecurity(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return securityAction(request, context);
}

const TAB_LABELS: Record<SecurityTab, string> = {
  authentication: "Authentication",
  biometric: "Biometric",
  emergency: "Emergency",
  platform: "Platform",
};

const NOTICES: Record<string, string> = {
  "session-ended": "That session is signed out.",
  "others-ended": "All other sessions are signed out.",
};

function Sessions({ sessions }: { sessions: SessionView[] }) {
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions and devices</h2>
      <p className="muted small">Every browser signed in to your account. Sign out any you do not recognise.</p>
      <ul className="session-list" aria-label="Signed-in sessions">
        {sessions.map((s) => (
          <li key={s.ref} className="session-item">
            <div>
              <strong>{s.device}</strong> {s.current ? <span className="pill">This device</span> : null}
              <div className="muted small">
                Last used {timeAgo(s.lastUsedAt)} · signed in {new Date(s.createdAt).toLocaleDateString("en-NG")}
              </div>
              {s.userAgent ? <div className="muted small session-ua">{s.userAgent}</div> : null}
            </div>
            {s.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="end-session" />
                <input type="hidden" name="ref" value={s.ref} />
                <button type="submit" className="btn btn-ghost" aria-label={`Sign out ${s.device}, last used ${timeAgo(s.lastUsedAt)}`}>
                  Sign Out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <Form method="post">
        <input type="hidden" name="intent" value="end-others" />
        <button type="submit" className="btn btn-danger" disabled={others === 0}>
          Sign Out All Other Sessions
        </button>
      </Form>
    </section>
  );
}

export default function SecuritySettings({ loaderData }: Route.ComponentProps) {
  const { user, tab, sessions, notice } = loaderData;
  const error = useActionData<{ error?: FormError }>()?.error;
  useErrorToast(error);
  if (!user) {
    return (
      <section className="card narrow" aria-labelledby="security-title">
        <h1 id="security-title">Security Settings</h1>
        <p>Your security settings are kept with your LinkUp identity. Start anonymously, or verify your phone to sign in.</p>
        <Link to="/signup-verification" className="btn btn-primary">
          Get Started
        </Link>
      </section>
    );
  }
  return (
    <div className="settings">
      <section className="card" aria-labelledby="security-title">
        <h1 id="security-title">Security Settings</h1>
        <nav aria-label="Security tabs" className="tabs">
          {(Object.keys(TAB_LABELS) as SecurityTab[]).map((t) => (
            <Link
              key={t}
              to={`/security-settings?tab=${t}`}
              className={`tab ${t === tab ? "tab-active" : ""}`}
              aria-current={t === tab ? "page" : undefined}
            >
              {TAB_LABELS[t]}
            </Link>
          ))}
        </nav>
        {notice && NOTICES[notice] ? (
          <p role="status" className="success">
            {NOTICES[notice]}
          </p>
        ) : null}
        <InlineError error={error} />
        <div className="tab-panel">
          {tab === "authentication" ? <Sessions sessions={sessions} /> : null}
          {tab === "biometric" ? <p>Passkeys and the app lock are not offered yet.</p> : null}
          {tab === "emergency" ? <p>Panic mode is not offered yet.</p> : null}
          {tab === "platform" ? <p>Stealth mode is not offered yet.</p> : null}
        </div>
      </section>
    </div>
  );
}
