// The phone and code steps shared by /onboarding, /enhanced-onboarding and /signup-verification.
// Plain forms posting to the route's action; once JavaScript runs they get the countdown, digit-only input
// and disabled buttons of docs/product/identity.md.
import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { cleanCode, IDENTITY_TEXT, type PendingVerification, VERIFICATION } from "../../../../core/identity";
import { useT } from "../../i18n";
import { type FormError, InlineError, useErrorToast, useHydrated } from "./form-errors";

// Kept in form-errors.tsx so screens with a form but no verification steps (/settings) load only these.
export { type FormError, InlineError, useErrorToast, useHydrated };

export function Progress({ step, total }: { step: number; total: number }) {
  const t = useT();
  const percent = Math.round(((step + 1) / total) * 100);
  const shown = new Intl.NumberFormat(t.tag, { style: "percent" }).format(percent / 100);
  return (
    <div className="progress-block [&_progress]:w-full [&_progress]:accent-primary">
      <p className="text-muted text-sm">{t("progress.step", { step: step + 1, total, percent: shown })}</p>
      <progress max={100} value={percent} aria-label={t("progress.label", { percent: shown })} />
    </div>
  );
}

const CHANNEL_LABEL = { whatsapp: "WhatsApp", sms: "SMS" } as const;

export function PhoneForm({
  action,
  error,
  nickname,
  requireNickname = false,
  submitLabel,
  defaultPhone = "",
  disableWhenEmpty = true,
}: {
  action?: string;
  error?: FormError;
  /** Shown when the flow asks for a nickname with the phone; its default value. */
  nickname?: string;
  requireNickname?: boolean;
  submitLabel?: string;
  defaultPhone?: string;
  /** Mobile and the verification flow disable the button on an empty phone; desktop onboarding answers with a toast. */
  disableWhenEmpty?: boolean;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const t = useT();
  const [phone, setPhone] = useState(defaultPhone);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "send-code";
  return (
    <Form method="post" action={action} className="form" noValidate>
      <input type="hidden" name="intent" value="send-code" />
      {requireNickname ? <input type="hidden" name="requireNickname" value="1" /> : null}
      <label>
        {t("verify.phone")}
        <input
          name="phoneNumber"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="0803 123 4567"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          aria-invalid={error?.field === "phoneNumber" || undefined}
          aria-describedby="phone-hint"
        />
      </label>
      <p id="phone-hint" className="text-muted text-sm">
        {t("verify.phoneHint")}
      </p>
      {nickname !== undefined ? (
        <label>
          {t("verify.nickname")}
          <input
            name="nickname"
            defaultValue={nickname}
            maxLength={40}
            autoComplete="nickname"
            aria-invalid={error?.field === "nickname" || undefined}
          />
        </label>
      ) : null}
      <fieldset className="channel">
        <legend>{t("verify.sendBy")}</legend>
        <label className="inline-flex items-center gap-[0.35rem] font-normal">
          <input type="radio" name="channel" value="whatsapp" defaultChecked /> WhatsApp
        </label>
        <label className="inline-flex items-center gap-[0.35rem] font-normal">
          <input type="radio" name="channel" value="sms" /> SMS
        </label>
      </fieldset>
      <InlineError error={error} />
      <button type="submit" className="btn btn-primary" disabled={hydrated && ((disableWhenEmpty && !phone.trim()) || busy)}>
        {busy ? t("verify.sending") : (submitLabel ?? t("verify.sendCode"))}
      </button>
    </Form>
  );
}

/** Seconds left until a new code may be asked for, counting down once JavaScript runs. */
function useCountdown(initial: number) {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    setLeft(initial);
    if (initial <= 0) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, initial - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [initial]);
  return left;
}

export function CodeForm({
  verification,
  resendInSeconds,
  changeHref,
  action,
  error,
}: {
  verification: PendingVerification;
  resendInSeconds: number;
  changeHref: string;
  action?: string;
  error?: FormError;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [code, setCode] = useState("");
  const t = useT();
  const left = useCountdown(resendInSeconds);
  const verifying = navigation.state !== "idle" && navigation.formData?.get("intent") === "verify";
  return (
    <div className="grid gap-[0.6rem]">
      <p>
        {t("verify.sent", { digits: VERIFICATION.codeLength, channel: CHANNEL_LABEL[verification.channel], phone: verification.phone })}
      </p>
      <Form method="post" action={action} className="form" noValidate>
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="phoneNumber" value={verification.phone} />
        <label>
          {t("verify.code")}
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            pattern="[0-9]{6}"
            value={code}
            onChange={(e) => setCode(cleanCode(e.target.value))}
            aria-invalid={error?.field === "code" || undefined}
            className="max-w-48 text-[1.4rem] [letter-spacing:0.4rem]"
          />
        </label>
        {code.length > 0 && code.length < VERIFICATION.codeLength ? <p className="text-muted text-sm">{IDENTITY_TEXT.codeFormat}</p> : null}
        <InlineError error={error} />
        <button type="submit" className="btn btn-primary" disabled={hydrated && (code.length !== VERIFICATION.codeLength || verifying)}>
          {verifying ? t("verify.verifying") : t("verify.verify")}
        </button>
      </Form>
      <div className="flex flex-wrap items-center gap-2">
        <Link to={changeHref} className="btn btn-ghost">
          {t("verify.change")}
        </Link>
        {left > 0 ? (
          <p className="text-muted text-sm" aria-live="polite">
            {t("verify.resendIn", { seconds: left })}
          </p>
        ) : (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="send-code" />
            <input type="hidden" name="phoneNumber" value={verification.phone} />
            <input type="hidden" name="channel" value={verification.channel} />
            <button type="submit" className="btn btn-ghost">
              {t("verify.resend")}
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}
