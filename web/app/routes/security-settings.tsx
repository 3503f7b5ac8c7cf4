// Security settings (spec part 1 §founder story and security): tabs authentication, biometric, emergency,
// platform. Every control changes state on the server or on this device; none exists only as a toast.
import { useEffect } from "react";
import { Form, Link, useActionData, useNavigate } from "react-router";
import type { PasskeyView } from "../../../core/security";
import { AppLockSettings } from "../features/security/app-lock";
import { AddPasskey } from "../features/security/passkey-buttons";
import type { Me, SessionView, TwoFactorView } from "../../../core/api-types";
import { useToast } from "../components/toast";
import { DELETE_ACCOUNT_PHRASE, PANIC_SOS_MESSAGE } from "../../../core/identity-schemas";
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
  "two-factor-off": "Two-factor authentication is off.",
  "stealth-on": "Stealth mode is on.",
  "stealth-off": "Stealth mode is off.",
  "passkey-added": "Passkey added. Each new sign-in will ask for it.",
  "passkey-removed": "Passkey removed.",
};

function CodeForm({ intent, submit, error }: { intent: string; submit: string; error?: FormError }) {
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value={intent} />
      <label>
        {intent === "two-factor-enable" ? "6-digit code from the app" : "Code from the app, or a backup code"}
        <input
          name="code"
          autoComplete="one-time-code"
          inputMode={intent === "two-factor-enable" ? "numeric" : undefined}
          maxLength={intent === "two-factor-enable" ? 6 : 11}
          required
          aria-invalid={error?.field === "code" || undefined}
        />
      </label>
      <button type="submit" className={`btn ${intent === "two-factor-enable" ? "btn-primary" : "btn-danger"}`}>
        {submit}
      </button>
    </Form>
  );
}

function TwoFactor({
  user,
  state,
  backupCodes,
  error,
}: {
  user: Me;
  state: TwoFactorView | null;
  backupCodes?: string[];
  error?: FormError;
}) {
  const toast = useToast();
  useEffect(() => {
    if (backupCodes)
      toast({ title: "2FA Enabled", description: "Two-factor authentication has been successfully activated.", variant: "success" });
  }, [backupCodes, toast]);
  let body: React.ReactNode;
  if (user.authMode !== "verified") {
    body = (
      <p>
        Two-factor authentication protects a sign-in with your phone. <Link to="/signup-verification">Verify your phone</Link> first.
      </p>
    );
  } else if (backupCodes) {
    body = (
      <div>
        <p role="status" className="success">
          Two-factor authentication has been successfully activated.
        </p>
        <p>
          <strong>Save these backup codes now.</strong> Each works once if you lose your phone; they will not be shown again.
        </p>
        <ul className="backup-codes" aria-label="Backup codes">
          {backupCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <Link to="/security-settings?tab=authentication" className="btn">
          I have saved my codes
        </Link>
      </div>
    );
  } else if (state?.enabled) {
    body = (
      <div>
        <p className="muted small">
          Each new sign-in asks for a code from your authenticator app. Backup codes left: {state.backupCodesLeft}.
        </p>
        <CodeForm intent="two-factor-disable" submit="Turn Off Two-Factor" error={error} />
      </div>
    );
  } else if (state?.setup) {
    body = (
      <div>
        <p>Scan this QR code with an authenticator app, or type the secret into it, then enter the 6-digit code it shows.</p>
        {/* The SVG is made on the server by the qrcode library; as an image it can run no script. */}
        <img className="qr" src={`data:image/svg+xml,${encodeURIComponent(state.setup.qrSvg)}`} alt="QR code for your authenticator app" />
        <p>
          Secret: <code className="secret">{state.setup.secret}</code>
        </p>
        <CodeForm intent="two-factor-enable" submit="Verify and Enable" error={error} />
      </div>
    );
  } else {
    body = (
      <Form method="post">
        <input type="hidden" name="intent" value="two-factor-setup" />
        <button type="submit" className="btn btn-primary">
          Set Up Two-Factor
        </button>
      </Form>
    );
  }
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">
        Two-factor authentication {state?.enabled || backupCodes ? <span className="pill">Enabled</span> : null}
      </h2>
      {body}
    </section>
  );
}

/** Panic mode: wipes this browser's LinkUp data (here, then by Clear-Site-Data on the answer) and signs it out. */
function Panic({ userId, requestId }: { userId: string; requestId: string }) {
  return (
    <section aria-labelledby="panic-title">
      <h2 id="panic-title">Panic mode</h2>
      <p>
        One press wipes LinkUp from this browser — chats, keys, unsent messages and saved pages — and signs it out on the server. Use it if
        your phone may be taken.
      </p>
      <Form
        method="post"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          import("../mesh/sign-out")
            .then((m) => m.forgetThisDevice(userId))
            .catch(() => {})
            .finally(() => form.submit());
        }}
      >
        <input type="hidden" name="intent" value="panic" />
        <input type="hidden" name="clientRequestId" value={requestId} />
        <label className="toggle">
          <input type="checkbox" name="sendSos" /> Also send an SOS: “{PANIC_SOS_MESSAGE}”
        </label>
        <button type="submit" className="btn btn-danger">
          Wipe This Device Now
        </button>
      </Form>
    </section>
  );
}

/** Stealth mode: a neutral tab title and icon, and notifications on the lock screen without their content. */
function Stealth({ on }: { on: boolean }) {
  return (
    <section aria-labelledby="stealth-title">
      <h2 id="stealth-title">Stealth mode {on ? <span className="pill">Active</span> : null}</h2>
      <p>The browser tab shows a plain “Notes” title and icon, and notifications say only that something arrived.</p>
      <Form method="post">
        <input type="hidden" name="intent" value={on ? "stealth-off" : "stealth-on"} />
        <button type="submit" className={`btn ${on ? "btn-ghost" : "btn-primary"}`}>
          {on ? "Turn Off Stealth Mode" : "Turn On Stealth Mode"}
        </button>
      </Form>
    </section>
  );
}

/** Passkeys: the second factor a phone's fingerprint, face or screen lock gives (docs/decisions/030-passkeys.md). */
function Passkeys({ user, passkeys }: { user: Me; passkeys: PasskeyView[] }) {
  const navigate = useNavigate();
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys {passkeys.length > 0 ? <span className="pill">Active</span> : null}</h2>
      <p>A passkey lets your phone's fingerprint, face or screen lock prove it is you. Each new sign-in asks for it.</p>
      {passkeys.length > 0 ? (
        <ul className="session-list" aria-label="Passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="session-item">
              <div>
                <strong>{p.name}</strong>
                <div className="muted small">
                  Added {new Date(p.createdAt).toLocaleDateString("en-NG")}
                  {p.lastUsedAt ? ` · last used ${timeAgo(p.lastUsedAt)}` : ""}
                </div>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="remove-passkey" />
                <input type="hidden" name="id" value={p.id} />
                <button type="submit" className="btn btn-ghost" aria-label={`Remove passkey ${p.name}`}>
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      {user.authMode === "verified" ? (
        <AddPasskey onAdded={() => navigate("/security-settings?tab=biometric&done=passkey-added")} />
      ) : (
        <p>
          Passkeys protect a sign-in with your phone. <Link to="/signup-verification">Verify your phone</Link> first.
        </p>
      )}
    </section>
  );
}

/** My data: a JSON download of everything LinkUp holds, and deleting the account (docs/decisions/029-security-events-and-my-data.md). */
function MyData({ error }: { error?: FormError }) {
  return (
    <section aria-labelledby="my-data-title">
      <h2 id="my-data-title">My data</h2>
      <p>
        Download everything LinkUp holds about you as one JSON file: profile, sessions, chats you are in, messages you sent, tickets,
        payments, points and security events.
      </p>
      <a href="/api/me/export" download="linkup-my-data.json" className="btn btn-ghost">
        Download My Data
      </a>
      <h3>Delete my account</h3>
      <p>This removes your account, your messages in every chat, your direct chats, your files and every session. It cannot be undone.</p>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="delete-account" />
        <label>
          Type {DELETE_ACCOUNT_PHRASE} to confirm
          <input name="confirm" autoComplete="off" required aria-invalid={error?.field === "confirm" || undefined} />
        </label>
        <button type="submit" className="btn btn-danger">
          Delete My Account
        </button>
      </Form>
    </section>
  );
}

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
  const { user, tab, sessions, twoFactor, passkeys, panicRequestId, notice } = loaderData;
  const actionData = useActionData<{ error?: FormError; backupCodes?: string[] }>();
  const error = actionData?.error;
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
        <p>
          <Link to="/advanced-security">Security score and events</Link>
        </p>
        <div className="tab-panel">
          {tab === "authentication" ? (
            <>
              <TwoFactor user={user} state={twoFactor} backupCodes={actionData?.backupCodes} error={error} />
              <Sessions sessions={sessions} />
            </>
          ) : null}
          {tab === "biometric" ? (
            <>
              <Passkeys user={user} passkeys={passkeys} />
              <AppLockSettings userId={user.id} />
            </>
          ) : null}
          {tab === "emergency" && panicRequestId ? <Panic userId={user.id} requestId={panicRequestId} /> : null}
          {tab === "platform" ? (
            <>
              <Stealth on={user.settings.stealthMode} />
              <MyData error={error} />
            </>
          ) : null}
        </div>
      </section>
    </div>
  );
}
