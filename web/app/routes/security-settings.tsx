// Security settings (docs/product/security.md): tabs authentication, biometric, emergency,
// platform. Every control changes state on the server or on this device; none exists only as a toast.
import { useEffect } from "react";
import { Form, Link, useActionData, useNavigate } from "react-router";
import type { PasskeyView } from "../../../core/security";
import { AppLockSettings } from "../features/security/app-lock-settings";
import { CopyButton } from "../features/api-docs/copy-button";
import { AddPasskey } from "../features/security/passkey-buttons";
import { LinkDevices } from "../features/security/link-device";
import type { Me, SessionView, TwoFactorView } from "../../../core/api-types";
import { useToast } from "../components/toast";
import { formatAgo, formatDate } from "../../../core/i18n/translate";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import { DELETE_ACCOUNT_PHRASE, PANIC_SOS_MESSAGE } from "../../../core/identity-schemas";
import { type SecurityTab, loadSecurity, securityAction } from "../features/security/security.server";
import { CODE_FIELD } from "../features/identity/form-errors";
import { type FormError, InlineError, useErrorToast } from "../features/identity/verification-forms";
import type { Route } from "./+types/security-settings";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sec.metaSettings", "Security Settings — LinkUp") }];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadSecurity(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return securityAction(request, context);
}

const TAB_LABELS: Record<SecurityTab, MessageKey> = {
  authentication: "sec.tab.authentication",
  biometric: "sec.tab.biometric",
  emergency: "sec.tab.emergency",
  platform: "sec.tab.platform",
};

const NOTICES: Record<string, MessageKey> = {
  "session-ended": "sec.notice.sessionEnded",
  "others-ended": "sec.notice.othersEnded",
  "two-factor-off": "sec.notice.twoFactorOff",
  "stealth-on": "sec.notice.stealthOn",
  "stealth-off": "sec.notice.stealthOff",
  "passkey-added": "sec.notice.passkeyAdded",
  "passkey-removed": "sec.notice.passkeyRemoved",
};

/** "5 minutes ago" in the page's language (core/i18n/translate.ts). */
const ago = (iso: string, tag: string) => formatAgo(Date.parse(iso), tag);

function CodeForm({ intent, submit, error }: { intent: string; submit: string; error?: FormError }) {
  const t = useT();
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value={intent} />
      <label>
        {intent === "two-factor-enable" ? t("sec.codeEnable") : t("sec.codeDisable")}
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
  const t = useT();
  useEffect(() => {
    if (backupCodes) toast({ title: t("sec.twoFactorEnabledToast"), description: t("sec.twoFactorActivated"), variant: "success" });
  }, [backupCodes, toast, t]);
  let body: React.ReactNode;
  if (user.authMode !== "verified") {
    body = (
      <p>
        {t("sec.twoFactorNeedsPhone")} <Link to="/signup-verification">{t("sec.verifyPhone")}</Link> {t("sec.first")}
      </p>
    );
  } else if (backupCodes) {
    body = (
      <div>
        <p role="status" className="text-ok">
          {t("sec.twoFactorActivated")}
        </p>
        <p>
          <strong>{t("sec.saveCodesStrong")}</strong> {t("sec.saveCodesBody")}
        </p>
        <ul className="grid list-none grid-cols-2 gap-x-4 gap-y-1 p-0" aria-label={t("sec.backupCodes")}>
          {backupCodes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <Link to="/security-settings?tab=authentication" className="btn">
          {t("sec.savedCodes")}
        </Link>
      </div>
    );
  } else if (state?.enabled) {
    body = (
      <div>
        <p className="text-muted text-sm">{t("sec.twoFactorOnBody", { left: state.backupCodesLeft })}</p>
        <CodeForm intent="two-factor-disable" submit={t("sec.twoFactorTurnOff")} error={error} />
      </div>
    );
  } else if (state?.setup) {
    body = (
      <div>
        <p>{t("sec.scanQr")}</p>
        {/* The SVG is made on the server by the qrcode library; as an image it can run no script. */}
        <img
          className="mx-auto my-2 w-[min(240px,70vw)] max-w-full bg-white [&_svg]:block [&_svg]:h-auto [&_svg]:w-full"
          src={`data:image/svg+xml,${encodeURIComponent(state.setup.qrSvg)}`}
          alt={t("sec.qrAlt")}
        />
        <p>
          {t("sec.secret")} <code className="secret wrap-anywhere">{state.setup.secret}</code>
        </p>
        {/* On the phone itself a QR code cannot be scanned: the otpauth:// link opens the authenticator app,
            and the secret can be copied to paste into one (issue 32). */}
        <div className="flex flex-wrap items-center gap-2">
          <a href={state.setup.otpauthUrl} className="btn btn-ghost">
            {t("sec.openAuthenticator")}
          </a>
          <CopyButton text={state.setup.secret} label={t("sec.copySecret")} />
        </div>
        <CodeForm intent="two-factor-enable" submit={t("sec.verifyEnable")} error={error} />
      </div>
    );
  } else {
    body = (
      <Form method="post">
        <input type="hidden" name="intent" value="two-factor-setup" />
        <button type="submit" className="btn btn-primary">
          {t("sec.setUpTwoFactor")}
        </button>
      </Form>
    );
  }
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">
        {t("sec.twoFactorTitle")} {state?.enabled || backupCodes ? <span className="pill">{t("sec.enabled")}</span> : null}
      </h2>
      {body}
    </section>
  );
}

/** Panic mode: wipes this browser's LinkUp data (here, then by Clear-Site-Data on the answer) and signs it out. */
function Panic({ userId, requestId }: { userId: string; requestId: string }) {
  const t = useT();
  return (
    <section aria-labelledby="panic-title">
      <h2 id="panic-title">{t("sec.panicTitle")}</h2>
      <p>{t("sec.panicBody")}</p>
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
        <label className="flex items-center gap-2">
          <input type="checkbox" name="sendSos" /> {t("sec.panicSos", { message: PANIC_SOS_MESSAGE })}
        </label>
        <button type="submit" className="btn btn-danger">
          {t("sec.panicWipe")}
        </button>
      </Form>
    </section>
  );
}

/** Stealth mode: a neutral tab title and icon, and notifications on the lock screen without their content. */
function Stealth({ on }: { on: boolean }) {
  const t = useT();
  return (
    <section aria-labelledby="stealth-title">
      <h2 id="stealth-title">
        {t("sec.stealthTitle")} {on ? <span className="pill">{t("sec.active")}</span> : null}
      </h2>
      <p>{t("sec.stealthBody")}</p>
      <Form method="post">
        <input type="hidden" name="intent" value={on ? "stealth-off" : "stealth-on"} />
        <button type="submit" className={`btn ${on ? "btn-ghost" : "btn-primary"}`}>
          {on ? t("sec.stealthOff") : t("sec.stealthOn")}
        </button>
      </Form>
    </section>
  );
}

/** Passkeys: the second factor a phone's fingerprint, face or screen lock gives (docs/decisions/030-passkeys.md). */
function Passkeys({ user, passkeys }: { user: Me; passkeys: PasskeyView[] }) {
  const navigate = useNavigate();
  const t = useT();
  return (
    <section aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">
        {t("sec.passkeysTitle")} {passkeys.length > 0 ? <span className="pill">{t("sec.active")}</span> : null}
      </h2>
      <p>{t("sec.passkeysBody")}</p>
      {passkeys.length > 0 ? (
        <ul className="m-0 mb-3 list-none p-0" aria-label={t("sec.passkeysTitle")}>
          {passkeys.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-2 border-t border-line py-[0.6rem]">
              <div>
                <strong>{p.name}</strong>
                <div className="text-muted text-sm">
                  {t("sec.passkeyAdded", { date: formatDate(p.createdAt, t.tag) })}
                  {p.lastUsedAt ? t("sec.lastUsed", { ago: ago(p.lastUsedAt, t.tag) }) : ""}
                </div>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="remove-passkey" />
                <input type="hidden" name="id" value={p.id} />
                <button type="submit" className="btn btn-ghost" aria-label={t("sec.removePasskey", { name: p.name })}>
                  {t("sec.remove")}
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
          {t("sec.passkeysNeedPhone")} <Link to="/signup-verification">{t("sec.verifyPhone")}</Link> {t("sec.first")}
        </p>
      )}
    </section>
  );
}

/** My data: a JSON download of everything LinkUp holds, and deleting the account (docs/decisions/029-security-events-and-my-data.md). */
function MyData({ error }: { error?: FormError }) {
  const t = useT();
  return (
    <section aria-labelledby="my-data-title">
      <h2 id="my-data-title">{t("sec.myDataTitle")}</h2>
      <p>{t("sec.myDataBody")}</p>
      <a href="/api/me/export" download="linkup-my-data.json" className="btn btn-ghost">
        {t("sec.downloadData")}
      </a>
      <h3>{t("sec.deleteTitle")}</h3>
      <p>{t("sec.deleteBody")}</p>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="delete-account" />
        <label>
          {t("sec.typeToConfirm", { phrase: DELETE_ACCOUNT_PHRASE })}
          <input name="confirm" autoComplete="off" required aria-invalid={error?.field === "confirm" || undefined} />
        </label>
        <button type="submit" className="btn btn-danger">
          {t("sec.deleteButton")}
        </button>
      </Form>
    </section>
  );
}

function Sessions({ sessions }: { sessions: SessionView[] }) {
  const others = sessions.filter((s) => !s.current).length;
  const t = useT();
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t("sec.sessionsTitle")}</h2>
      <p className="text-muted text-sm">{t("sec.sessionsBody")}</p>
      <ul className="m-0 mb-3 list-none p-0" aria-label={t("sec.sessionsList")}>
        {sessions.map((s) => (
          <li key={s.ref} className="flex items-center justify-between gap-2 border-t border-line py-[0.6rem]">
            <div>
              <strong>{s.device}</strong> {s.current ? <span className="pill">{t("sec.thisDevice")}</span> : null}
              <div className="text-muted text-sm">
                {t("sec.sessionUsed", { ago: ago(s.lastUsedAt, t.tag), date: formatDate(s.createdAt, t.tag) })}
              </div>
              {s.userAgent ? <div className="text-sm text-muted wrap-anywhere">{s.userAgent}</div> : null}
            </div>
            {s.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="end-session" />
                <input type="hidden" name="ref" value={s.ref} />
                <button
                  type="submit"
                  className="btn btn-ghost"
                  aria-label={t("sec.signOutLabel", { device: s.device, ago: ago(s.lastUsedAt, t.tag) })}
                >
                  {t("sec.signOut")}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <Form method="post">
        <input type="hidden" name="intent" value="end-others" />
        <button type="submit" className="btn btn-danger" disabled={others === 0}>
          {t("sec.signOutOthers")}
        </button>
      </Form>
    </section>
  );
}

export default function SecuritySettings({ loaderData }: Route.ComponentProps) {
  const { user, tab, sessions, twoFactor, passkeys, panicRequestId, notice } = loaderData;
  const actionData = useActionData<{ error?: FormError; backupCodes?: string[] }>();
  const error = actionData?.error;
  useErrorToast(error, CODE_FIELD);
  const t = useT();
  if (!user) {
    return (
      <section className="card mx-auto max-w-[640px]" aria-labelledby="security-title">
        <h1 id="security-title">{t("sec.settingsTitle")}</h1>
        <p>{t("sec.signedOutBody")}</p>
        <Link to="/signup-verification" className="btn btn-primary">
          {t("sec.getStarted")}
        </Link>
      </section>
    );
  }
  return (
    <div className="grid gap-4">
      <section className="card" aria-labelledby="security-title">
        <h1 id="security-title">{t("sec.settingsTitle")}</h1>
        <nav aria-label={t("sec.tabs")} className="mb-3 flex flex-wrap gap-1 border-b border-line">
          {(Object.keys(TAB_LABELS) as SecurityTab[]).map((id) => (
            <Link
              key={id}
              to={`/security-settings?tab=${id}`}
              className={`border-b-3 px-3 py-2 no-underline ${id === tab ? "border-b-primary font-semibold" : "border-b-transparent"}`}
              aria-current={id === tab ? "page" : undefined}
            >
              {t(TAB_LABELS[id])}
            </Link>
          ))}
        </nav>
        {notice && NOTICES[notice] ? (
          <p role="status" className="text-ok">
            {t(NOTICES[notice])}
          </p>
        ) : null}
        <InlineError error={error} options={CODE_FIELD} />
        <p>
          <Link to="/advanced-security">{t("sec.scoreLink")}</Link>
        </p>
        <div className="tab-panel">
          {tab === "authentication" ? (
            <>
              <TwoFactor user={user} state={twoFactor} backupCodes={actionData?.backupCodes} error={error} />
              <Sessions sessions={sessions} />
              <LinkDevices userId={user.id} />
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
