// "Pair a nearby phone": phones on one local network (a hotspot, a Wi-Fi with no internet) connect with no server
// by showing each other a pairing code, as a QR code or as text to copy and paste
// (docs/decisions/066-phones-paired-by-code.md). Loaded on first use, with the QR library and scanning.
import { useEffect, useState } from "react";
import type { MessageKey } from "../../../../core/i18n/en";
import { PairingCodeError, type PairingProblem } from "../../../../core/pairing-code";
import { type MeshPerson, meshKeyFingerprint } from "../../../../core/peer-mesh";
import { useT } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import type { PhoneMesh } from "../../mesh/phone-mesh";

const PROBLEM: Record<PairingProblem, MessageKey> = {
  "not-a-code": "pair.err.not-a-code",
  damaged: "pair.err.damaged",
  version: "pair.err.version",
  unsupported: "pair.err.unsupported",
  "own-code": "pair.err.own-code",
  "no-offer": "pair.err.no-offer",
  signature: "pair.err.signature",
  "key-changed": "pair.err.key-changed",
};

type Step = { kind: "idle" } | { kind: "working" } | { kind: "offer"; code: string } | { kind: "answer"; code: string; name: string };

export function PairingPanel({ node, onClose }: { node: MeshNode; onClose: () => void }) {
  const t = useT();
  const [phones, setPhones] = useState<PhoneMesh | null>(node.phones);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  const [pasted, setPasted] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [to, setTo] = useState("");
  const [secret, setSecret] = useState("");
  // Any camera will do: the browser's barcode detector reads the code, or the jsQR decoder where it has none.
  const canScan = typeof navigator !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia);

  useEffect(() => {
    let live = true;
    node
      .phoneMesh()
      .then((p) => live && setPhones(p))
      .catch((e) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [node]);

  const shown = step.kind === "offer" || step.kind === "answer" ? step.code : null;
  useEffect(() => {
    setQr(null);
    if (!shown) return;
    let live = true;
    void import("qrcode").then((QR) =>
      QR.toDataURL(shown, { errorCorrectionLevel: "M", margin: 2, width: 280 }).then((url) => live && setQr(url)),
    );
    return () => {
      live = false;
    };
  }, [shown]);

  const showOffer = async () => {
    if (!phones) return;
    setError(null);
    setStep({ kind: "working" });
    try {
      setStep({ kind: "offer", code: await phones.pairing.offer() });
    } catch (e) {
      setError(problem(e));
      setStep({ kind: "idle" });
    }
  };

  const takeCode = async (text: string) => {
    if (!phones || !text.trim()) return;
    setError(null);
    try {
      const { answer, person } = await phones.pairing.use(text);
      setPasted("");
      setStep(answer ? { kind: "answer", code: answer, name: person.nickname } : { kind: "idle" });
    } catch (e) {
      setError(problem(e));
    }
  };

  // A refused code is said in the person's language; anything else (the browser's own words) as it came.
  const problem = (e: unknown) =>
    e instanceof PairingCodeError ? t(PROBLEM[e.problem]) : t("pair.err.failed", { reason: e instanceof Error ? e.message : String(e) });

  const links = phones ? [...phones.mesh.links.values()] : [];
  const people = phones?.people() ?? [];
  const target: MeshPerson | undefined = people.find((p) => p.deviceId === to) ?? people[0];

  return (
    <section className="card pairing" role="dialog" aria-labelledby="pair-title">
      <h2 id="pair-title">{t("pair.title")}</h2>
      <p>{t("pair.intro")}</p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="btn btn-primary" onClick={() => void showOffer()} disabled={!phones || step.kind === "working"}>
          {t("pair.show")}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t("pair.close")}
        </button>
      </div>
      {step.kind === "working" ? <p role="status">{t("pair.making")}</p> : null}
      {shown ? (
        <div className="pairing-code">
          <p role="status">{step.kind === "answer" ? t("pair.answerHint", { name: step.name }) : t("pair.offerHint")}</p>
          {qr ? <img src={qr} alt={t("pair.qrAlt")} width={280} height={280} /> : null}
          <label>
            {t("pair.code")}
            <textarea readOnly value={shown} rows={3} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <button type="button" className="btn btn-ghost" onClick={() => void navigator.clipboard?.writeText(shown).catch(() => {})}>
            {t("pair.copy")}
          </button>
        </div>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void takeCode(pasted);
        }}
      >
        <label>
          {t("pair.paste")}
          <textarea value={pasted} onChange={(e) => setPasted(e.target.value)} rows={3} />
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className="btn btn-primary" disabled={!phones || !pasted.trim()}>
            {t("pair.use")}
          </button>
          {canScan ? <ScanButton onCode={(code) => void takeCode(code)} /> : null}
        </div>
      </form>
      {canScan ? null : <p className="text-sm text-muted">{t("pair.noScanner")}</p>}
      {error ? <p role="alert">{error}</p> : null}
      {phones ? (
        <p>
          {t("pair.myKey")} <KeyPrint signingKey={phones.me.signingKey} />
        </p>
      ) : null}
      <p className="text-sm text-muted">{t("pair.trust")}</p>
      <h3>{t("pair.paired")}</h3>
      {links.length === 0 ? (
        <p>{t("pair.none")}</p>
      ) : (
        <ul
          className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
          aria-label={t("pair.paired")}
        >
          {links.map((l) => (
            <li key={l.person.deviceId}>
              <span>{l.person.nickname}</span> <small>{l.open ? t("pair.connected") : t("pair.notConnected")}</small>{" "}
              <small>
                {t("pair.theirKey")} <KeyPrint signingKey={l.person.signingKey} />
              </small>
            </li>
          ))}
        </ul>
      )}
      {people.length > 0 ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!phones || !target || !secret.trim()) return;
            void node.sendPrivateOnMesh(target, secret.trim()).then(() => setSecret(""));
          }}
        >
          <h3>{t("pair.privateTitle")}</h3>
          <label>
            {t("pair.privateTo")}
            <select value={target?.deviceId ?? ""} onChange={(e) => setTo(e.target.value)}>
              {people.map((p) => (
                <option key={p.deviceId} value={p.deviceId}>
                  {p.nickname}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("pair.privateText")}
            <input value={secret} onChange={(e) => setSecret(e.target.value)} maxLength={2000} />
          </label>
          <button type="submit" className="btn btn-primary" disabled={!secret.trim()}>
            {t("pair.privateSend")}
          </button>
        </form>
      ) : null}
      {phones && phones.privateMessages.length > 0 ? (
        <ul
          className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
          aria-label={t("pair.privateList")}
        >
          {phones.privateMessages.map((m) => (
            <li key={m.id}>
              <span>
                {m.mine ? t("pair.privateToLine", { name: m.with.nickname }) : t("pair.privateFromLine", { name: m.with.nickname })}{" "}
                {m.text}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-sm text-muted">{t("pair.honest")}</p>
    </section>
  );
}

/** A phone's identity key as three groups of four, for two people to compare (docs/decisions/066-phones-paired-by-code.md). */
function KeyPrint({ signingKey }: { signingKey: string }) {
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void meshKeyFingerprint(signingKey)
      .then((f) => live && setShown(f))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [signingKey]);
  return <code className="key-print">{shown ?? "…"}</code>;
}

/**
 * Reads a pairing code with the camera: the browser's own barcode detector where it has one, else the jsQR decoder,
 * loaded only when scanning starts (docs/decisions/066-phones-paired-by-code.md).
 */
function ScanButton({ onCode }: { onCode: (code: string) => void }) {
  const t = useT();
  const [scanning, setScanning] = useState(false);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (!scanning || !video) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let live = true;
    const found = (text: string | undefined) => {
      if (!text?.startsWith("LU1.")) return;
      setScanning(false);
      onCode(text);
    };
    (async () => {
      const read = await reader();
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      if (!live) return;
      video.srcObject = stream;
      await video.play();
      timer = setInterval(() => void read(video).then(found), 300);
    })().catch(() => live && setScanning(false));
    return () => {
      live = false;
      clearInterval(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [scanning, video, onCode]);
  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => setScanning((s) => !s)}>
        {scanning ? t("pair.stopScan") : t("pair.scan")}
      </button>
      {scanning ? <video ref={setVideo} muted playsInline aria-label={t("pair.camera")} width={280} height={210} /> : null}
    </>
  );
}

type Detector = { detect(v: HTMLVideoElement): Promise<{ rawValue: string }[]> };

/** A function that reads the QR code in the video's current frame, if any. */
async function reader(): Promise<(video: HTMLVideoElement) => Promise<string | undefined>> {
  const Native = (window as unknown as { BarcodeDetector?: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
  if (Native) {
    const detector = new Native({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video).catch(() => []))[0]?.rawValue;
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    if (!ctx || !video.videoWidth) return undefined;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    ctx.drawImage(video, 0, 0);
    const frame = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(frame.data, frame.width, frame.height, { inversionAttempts: "dontInvert" })?.data;
  };
}
