// Safety numbers on this device (docs/protocol.md §5): computed in the browser from the two people's account
// keys (docs/decisions/063-one-identity-per-person.md), with the person's own "verified" mark kept beside the keys. The server never sees either,
// so these views render on the client; the server-rendered page says so.
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { useT } from "../../i18n";

export type SafetyState = "verified" | "changed" | "unverified";

/** A mark equal to today's number is verified; a mark on another number means the keys changed since. */
export function safetyState(digits: string | null, mark: string | null): SafetyState {
  if (!mark) return "unverified";
  return digits === mark ? "verified" : "changed";
}

/** The safety number with a contact and this device's verified mark for it. */
export function useSafetyNumber(peerId: string | null) {
  const [digits, setDigits] = useState<string | null>(null);
  const [mark, setMark] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [noOneTimePrekey, setNoOneTimePrekey] = useState(false);
  useEffect(() => {
    if (!peerId) return;
    let live = true;
    import("../../mesh/keys")
      .then(async (k) => {
        const [number, marked, missing] = await Promise.all([
          k.safetyNumberWith(peerId),
          k.verifiedSafetyNumber(peerId),
          k.missingOneTimePrekeys(peerId),
        ]);
        if (!live) return;
        setDigits(number);
        setMark(marked);
        setNoOneTimePrekey(missing !== null);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [peerId]);
  const setVerified = useCallback(
    async (on: boolean) => {
      if (!peerId || !digits) return;
      const k = await import("../../mesh/keys");
      // Marking the number verified accepts the keys it is made of: messages waiting for that consent leave.
      if (on) await k.acceptKeyChanges(peerId);
      await k.setVerifiedSafetyNumber(peerId, on ? digits : null);
      setMark(on ? digits : null);
    },
    [peerId, digits],
  );
  return { digits, failed, state: safetyState(digits, mark), setVerified, noOneTimePrekey };
}

export function SafetyStateLabel({ state }: { state: SafetyState }) {
  const t = useT();
  const text = { verified: t("safety.verified"), changed: t("safety.changed"), unverified: t("safety.unverified") }[state];
  return <span className={`pill${state === "changed" ? " pill-warning" : ""}`}>{text}</span>;
}

/** The verified mark's switch in a direct chat's info, under the number. */
export function VerifyToggle({ state, onChange }: { state: SafetyState; onChange: (on: boolean) => void }) {
  const t = useT();
  const on = state === "verified";
  return (
    <p>
      <SafetyStateLabel state={state} />{" "}
      <button type="button" className={`btn ${on ? "btn-ghost" : "btn-primary"}`} onClick={() => onChange(!on)}>
        {on ? t("safety.unmark") : t("safety.markVerified")}
      </button>
    </p>
  );
}

export interface SafetyContact {
  roomId: string;
  peerId: string;
  name: string;
}

function ContactRow({ c }: { c: SafetyContact }) {
  const t = useT();
  const { digits, failed, state } = useSafetyNumber(c.peerId);
  return (
    <li className="flex items-center justify-between gap-2 border-t border-line py-[0.6rem]">
      <div>
        <strong>{c.name}</strong> {digits ? <SafetyStateLabel state={state} /> : null}
        <div className="[&_code]:wrap-anywhere [&_code]:[word-spacing:0.2em]">
          <code>{digits ?? (failed ? t("safety.unavailable") : t("safety.computing"))}</code>
        </div>
      </div>
      <Link to={`/chat?room=${encodeURIComponent(c.roomId)}&info=1`} className="btn btn-ghost">
        {t("safety.compare", { name: c.name })}
      </Link>
    </li>
  );
}

/** Every private chat's contact with the safety number and its verified state, worked out on this device. */
export function SafetyNumberList({ contacts }: { contacts: SafetyContact[] }) {
  const t = useT();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <section className="card" aria-labelledby="safety-title">
      <h2 id="safety-title">{t("safety.title")}</h2>
      <p className="text-muted text-sm">{t("safety.intro")}</p>
      {!hydrated ? (
        <p>{t("safety.needsJs")}</p>
      ) : contacts.length === 0 ? (
        <p className="text-muted">{t("safety.none")}</p>
      ) : (
        <ul className="m-0 mb-3 list-none p-0" aria-label={t("safety.title")}>
          {contacts.map((c) => (
            <ContactRow key={c.roomId} c={c} />
          ))}
        </ul>
      )}
    </section>
  );
}
