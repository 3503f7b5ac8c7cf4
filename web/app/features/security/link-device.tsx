// Linking devices on /security-settings (docs/protocol.md §2a, web/app/mesh/link.ts): a device holding the
// account key shows a code (and its QR code) and confirms the device that typed it; a device not linked yet types
// the code. Both show the same eight digits of the new device's key. Everything runs on the device, after hydration.
import { useEffect, useRef, useState } from "react";
import type { MessageKey } from "../../../../core/i18n/en";
import { useT } from "../../i18n";
import type { LinkProblem, PendingLink, StartedLink } from "../../mesh/link";
import type { LinkRequest } from "../../../../core/device-link";

const linking = () => import("../../mesh/link");

const PROBLEMS: Record<LinkProblem, MessageKey> = {
  "no-account-key": "link.err.noAccountKey",
  "wrong-code": "link.err.wrongCode",
  expired: "link.err.expired",
  "too-many": "link.err.tooMany",
  "not-listed": "link.err.notListed",
  failed: "link.err.failed",
};

type Role = "holds-key" | "linked" | "not-linked";

/** The problem a failed step names, for its line on the screen. */
function problemOf(e: unknown): MessageKey {
  const problem = (e as { problem?: LinkProblem })?.problem;
  return PROBLEMS[problem ?? "failed"] ?? PROBLEMS.failed;
}

/** The code from a scanned QR code's link (`#link=CODE`): the fragment never reaches the server. */
function scannedCode(): string {
  if (typeof window === "undefined") return "";
  const match = window.location.hash.match(/^#link=([0-9A-Za-z-]{16,24})$/);
  return match ? match[1].replace(/-/g, " ") : "";
}

export function LinkDevices({ userId }: { userId: string }) {
  const t = useT();
  const [role, setRole] = useState<Role | null>(null);
  const [failed, setFailed] = useState(false);
  const [justLinked, setJustLinked] = useState(false);
  useEffect(() => {
    let live = true;
    linking()
      .then((m) => m.linkRole(userId))
      .then((r) => live && setRole(r))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [userId]);
  return (
    <section aria-labelledby="link-devices-title">
      <h2 id="link-devices-title">{t("link.title")}</h2>
      <p>{t("link.body")}</p>
      {failed ? <p role="alert">{t("link.err.failed")}</p> : null}
      {role === null && !failed ? <p className="text-muted text-sm">{t("link.loading")}</p> : null}
      {justLinked ? (
        <p role="status" className="text-ok">
          {t("link.thisDone")}
        </p>
      ) : null}
      {role === "holds-key" ? <LinkNewDevice userId={userId} /> : null}
      {role === "linked" ? <p className="text-muted text-sm">{t("link.linked")}</p> : null}
      {role === "not-linked" ? (
        <LinkThisDevice
          userId={userId}
          onLinked={() => {
            setJustLinked(true);
            setRole("holds-key");
          }}
        />
      ) : null}
    </section>
  );
}

type OldStep =
  | { step: "idle" }
  | { step: "code"; started: StartedLink; qr: string | null }
  | { step: "confirm"; started: StartedLink; request: LinkRequest; digits: string }
  | { step: "done" };

/** On a device holding the account key: a code to type on the new device, then the person's yes. */
function LinkNewDevice({ userId }: { userId: string }) {
  const t = useT();
  const [state, setState] = useState<OldStep>({ step: "idle" });
  const [error, setError] = useState<MessageKey | null>(null);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    setError(null);
    setBusy(true);
    try {
      const m = await linking();
      const started = await m.startLink(userId);
      const url = `${window.location.origin}/security-settings?tab=authentication#link=${started.code.replace(/ /g, "-")}`;
      const qr = await import("qrcode")
        .then((q) => q.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" }))
        .catch(() => null);
      setState({ step: "code", started, qr });
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      // The code stops working after its ten minutes: the screen says so rather than waiting on.
      const expiry = setTimeout(() => controller.abort(new Error("expired")), Math.max(0, started.expiresAt - Date.now()));
      try {
        const { request, fingerprint } = await m.waitForNewDevice(userId, started, controller.signal);
        setState({ step: "confirm", started, request, digits: fingerprint });
      } catch (e) {
        if (controller.signal.aborted && controller.signal.reason?.message !== "expired") return;
        setState({ step: "idle" });
        setError(controller.signal.aborted ? "link.err.expired" : problemOf(e));
      } finally {
        clearTimeout(expiry);
      }
    } catch (e) {
      setError(problemOf(e));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async (id: string) => {
    abort.current?.abort();
    setState({ step: "idle" });
    await (await linking()).cancelLink(id);
  };

  const confirm = async (started: StartedLink, request: LinkRequest) => {
    setBusy(true);
    setError(null);
    try {
      await (await linking()).confirmNewDevice(userId, started, request);
      setState({ step: "done" });
    } catch (e) {
      setState({ step: "idle" });
      setError(problemOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="link-device">
      {error ? <p role="alert">{t(error)}</p> : null}
      {state.step === "done" ? (
        <p role="status" className="text-ok">
          {t("link.done")}
        </p>
      ) : null}
      {state.step === "idle" || state.step === "done" ? (
        <button type="button" className="btn btn-primary" onClick={start} disabled={busy}>
          {t("link.start")}
        </button>
      ) : null}
      {state.step === "code" ? (
        <div role="region" aria-label={t("link.codeLabel")}>
          <p>{t("link.howTo")}</p>
          <p>
            <code className="secret link-code wrap-anywhere">{state.started.code}</code>
          </p>
          {state.qr ? (
            <img
              className="mx-auto my-2 w-[min(240px,70vw)] max-w-full bg-white [&_svg]:block [&_svg]:h-auto [&_svg]:w-full"
              src={`data:image/svg+xml,${encodeURIComponent(state.qr)}`}
              alt={t("link.qrAlt")}
            />
          ) : null}
          <p role="status" className="text-muted text-sm">
            {t("link.waiting")}
          </p>
          <button type="button" className="btn btn-ghost" onClick={() => cancel(state.started.id)}>
            {t("link.cancel")}
          </button>
        </div>
      ) : null}
      {state.step === "confirm" ? (
        <div role="group" aria-label={t("link.confirmTitle")}>
          <p>{t("link.confirmAsk")}</p>
          <p>
            <code className="secret wrap-anywhere">{state.digits}</code>
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => confirm(state.started, state.request)}>
              {t("link.confirm")}
            </button>
            <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => cancel(state.started.id)}>
              {t("link.cancel")}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** On a device not linked yet: the code typed (or filled in from a scanned QR code), then a wait for the yes. */
function LinkThisDevice({ userId, onLinked }: { userId: string; onLinked: () => void }) {
  const t = useT();
  const [code, setCode] = useState("");
  const [pending, setPending] = useState<PendingLink | null>(null);
  const [error, setError] = useState<MessageKey | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => {
    setCode(scannedCode());
    return () => abort.current?.abort();
  }, []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const m = await linking();
      const offered = await m.offerThisDevice(userId, code);
      setPending(offered);
      const controller = new AbortController();
      abort.current = controller;
      await m.finishLink(userId, offered, controller.signal);
      onLinked();
    } catch (err) {
      if (abort.current?.signal.aborted) return;
      setPending(null);
      setError(problemOf(err));
    }
  };

  return (
    <div className="link-device" role="region" aria-label={t("link.thisTitle")}>
      <h3>{t("link.thisTitle")}</h3>
      <p>{t("link.thisBody")}</p>
      {error ? <p role="alert">{t(error)}</p> : null}
      {pending ? (
        <p role="status">
          {t("link.compare")} <code className="secret wrap-anywhere">{pending.fingerprint}</code>
        </p>
      ) : (
        <form className="form" onSubmit={submit}>
          <label>
            {t("link.codeInput")}
            <input
              name="link-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={24}
              required
            />
          </label>
          <button type="submit" className="btn btn-primary">
            {t("link.submit")}
          </button>
        </form>
      )}
    </div>
  );
}
