// Pairing codes: a WebRTC offer or answer carried by a QR code or pasted text, so two phones on one local network
// connect with no server (docs/decisions/066-phones-paired-by-code.md). A browser's SDP is 600–1,500 characters;
// a data channel needs only a few of its facts (ICE user name and password, the DTLS fingerprint, the DTLS role,
// host candidates), so those are packed into bytes and the SDP is written again on the other phone. The code also
// names the phone's LinkUp device (user, device, X25519 and Ed25519 keys) and is signed by its Ed25519 identity
// key: whoever swaps the fingerprint to sit in the middle cannot sign for either phone.
import { fromBase64Url, toBase64Url } from "./ids";

/** What every pairing code starts with, so a pasted text is recognised (and a future format can be told apart). */
export const PAIRING_PREFIX = "LU1.";
const FINGERPRINT_BYTES = 32;
const KEY_BYTES = 32;
const SIG_BYTES = 64;
/** More candidates than a phone has interfaces add nothing but QR modules. */
export const MAX_CANDIDATES = 8;

export type PairingKind = "offer" | "answer";
export type DtlsSetup = "actpass" | "active" | "passive";

/** A host candidate: an IPv4 or IPv6 address, or the mDNS name (`<uuid>.local`) a browser shows instead. */
export interface HostCandidate {
  address: string;
  port: number;
}

/** The facts of an SDP a data channel needs. */
export interface SdpFacts {
  ufrag: string;
  pwd: string;
  /** SHA-256 DTLS certificate fingerprint, 32 bytes. */
  fingerprint: Uint8Array;
  setup: DtlsSetup;
  candidates: HostCandidate[];
}

/** The LinkUp device that made the code (its keys are base64url of 32 bytes, as in core/e2e.ts DeviceRecord). */
export interface PairingIdentity {
  userId: string;
  nickname: string;
  deviceId: string;
  publicKey: string;
  signingKey: string;
}

export interface PairingPayload extends SdpFacts {
  kind: PairingKind;
  identity: PairingIdentity;
}

export interface SignedPairing extends PairingPayload {
  signature: Uint8Array;
}

/** Why a code was refused, for the screen to say in the person's language. */
export type PairingProblem = "not-a-code" | "damaged" | "version" | "unsupported" | "own-code" | "no-offer" | "signature" | "key-changed";

export class PairingCodeError extends Error {
  override name = "PairingCodeError";
  constructor(
    readonly problem: PairingProblem,
    message: string,
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------ SDP

/** Reads the facts of a browser's SDP: host candidates over UDP only (no STUN or TURN, which need the internet). */
export function sdpFacts(sdp: string): SdpFacts {
  const line = (prefix: string) =>
    sdp
      .split(/\r?\n/)
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length)
      .trim();
  const ufrag = line("a=ice-ufrag:");
  const pwd = line("a=ice-pwd:");
  const fp = line("a=fingerprint:sha-256 ");
  const setup = line("a=setup:") as DtlsSetup | undefined;
  if (!ufrag || !pwd || !fp || !setup) throw new PairingCodeError("unsupported", "The offer has no ICE credentials or fingerprint");
  const fingerprint = Uint8Array.from(fp.split(":").map((h) => Number.parseInt(h, 16)));
  if (fingerprint.length !== FINGERPRINT_BYTES || fingerprint.some((b) => Number.isNaN(b)))
    throw new PairingCodeError("unsupported", "Only SHA-256 fingerprints are carried");
  const candidates: HostCandidate[] = [];
  const seen = new Set<string>();
  for (const l of sdp.split(/\r?\n/)) {
    const m = /^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/i.exec(l);
    if (!m?.[1] || !m[2] || !addressKind(m[1])) continue;
    const key = `${m[1]} ${m[2]}`;
    if (seen.has(key) || candidates.length >= MAX_CANDIDATES) continue;
    seen.add(key);
    candidates.push({ address: m[1], port: Number(m[2]) });
  }
  return { ufrag, pwd, fingerprint, setup: setup === "active" || setup === "passive" ? setup : "actpass", candidates };
}

/** Writes the SDP a browser accepts for one data channel, from the facts of the other phone's code. */
export function factsToSdp(facts: SdpFacts): string {
  const fp = [...facts.fingerprint].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  const lines = [
    "v=0",
    "o=- 1 2 IN IP4 127.0.0.1",
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    ...facts.candidates.map(
      (c, i) => `a=candidate:${i + 1} 1 udp ${2113937151 - i} ${c.address} ${c.port} typ host generation 0 network-cost 999`,
    ),
    "a=end-of-candidates",
    `a=ice-ufrag:${facts.ufrag}`,
    `a=ice-pwd:${facts.pwd}`,
    `a=fingerprint:sha-256 ${fp}`,
    `a=setup:${facts.setup}`,
    "a=mid:0",
    "a=sctp-port:5000",
    "a=max-message-size:262144",
  ];
  return `${lines.join("\r\n")}\r\n`;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;

function addressKind(address: string): 4 | 6 | 16 | null {
  if (IPV4.test(address)) return 4;
  if (MDNS.test(address)) return 16;
  if (address.includes(":") && /^[0-9a-f:]+$/i.test(address)) return 6;
  return null;
}

function ipv6Bytes(address: string): number[] {
  const [head = "", tail = ""] = address.split("::");
  const h = head ? head.split(":") : [];
  const t = address.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  if (groups.length !== 8) throw new PairingCodeError("unsupported", "Not an IPv6 address");
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(":");
}

// ------------------------------------------------------------------ bytes

const KIND = { offer: 0, answer: 1 } as const;
const SETUP = { actpass: 0, active: 1, passive: 2 } as const;
const ADDRESS = { 4: 0, 6: 1, 16: 2 } as const;

class Writer {
  readonly bytes: number[] = [];
  byte(n: number) {
    this.bytes.push(n & 255);
  }
  raw(b: ArrayLike<number>) {
    for (let i = 0; i < b.length; i++) this.byte(b[i] ?? 0);
  }
  text(s: string, max: number) {
    const b = new TextEncoder().encode(s);
    if (b.length > max) throw new PairingCodeError("unsupported", `A field of the code is longer than ${max} bytes`);
    this.byte(b.length);
    this.raw(b);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly b: Uint8Array) {}
  byte(): number {
    if (this.at >= this.b.length) throw new PairingCodeError("damaged", "The pairing code is cut short");
    return this.b[this.at++] as number;
  }
  raw(n: number): Uint8Array {
    if (this.at + n > this.b.length) throw new PairingCodeError("damaged", "The pairing code is cut short");
    const out = this.b.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
  text(): string {
    return new TextDecoder("utf-8", { fatal: true }).decode(this.raw(this.byte()));
  }
  get done() {
    return this.at === this.b.length;
  }
  get offset() {
    return this.at;
  }
}

/** The bytes a pairing's signature covers (everything but the signature). */
export function payloadBytes(p: PairingPayload): Uint8Array<ArrayBuffer> {
  const w = new Writer();
  w.byte(1); // format version
  w.byte(KIND[p.kind]);
  w.byte(SETUP[p.setup]);
  w.text(p.ufrag, 64);
  w.text(p.pwd, 64);
  if (p.fingerprint.length !== FINGERPRINT_BYTES) throw new PairingCodeError("unsupported", "Only SHA-256 fingerprints are carried");
  w.raw(p.fingerprint);
  const candidates = p.candidates.slice(0, MAX_CANDIDATES);
  w.byte(candidates.length);
  for (const c of candidates) {
    const kind = addressKind(c.address);
    if (!kind) throw new PairingCodeError("unsupported", "Only host candidates are carried");
    w.byte(ADDRESS[kind]);
    if (kind === 4) w.raw(c.address.split(".").map(Number));
    else if (kind === 6) w.raw(ipv6Bytes(c.address));
    else w.raw(fromHex(c.address.slice(0, 36).replaceAll("-", "")));
    w.byte(c.port >> 8);
    w.byte(c.port);
  }
  const id = p.identity;
  w.text(id.userId, 64);
  w.text(id.nickname.slice(0, 40), 160);
  w.text(id.deviceId, 64);
  w.raw(key32(id.publicKey));
  w.raw(key32(id.signingKey));
  return new Uint8Array(w.bytes);
}

function key32(b64: string): Uint8Array {
  const b = fromBase64Url(b64);
  if (b.length !== KEY_BYTES) throw new PairingCodeError("unsupported", "A device key must be 32 bytes");
  return b;
}

function fromHex(hex: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hex.length; i += 2) out.push(Number.parseInt(hex.slice(i, i + 2), 16));
  return out;
}

function hex(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** The code as text: the prefix and base64url of the payload and its signature (QR byte mode takes it as it is). */
export function encodePairing(p: SignedPairing): string {
  if (p.signature.length !== SIG_BYTES) throw new PairingCodeError("unsupported", "The signature must be 64 bytes");
  const body = payloadBytes(p);
  const all = new Uint8Array(body.length + SIG_BYTES);
  all.set(body);
  all.set(p.signature, body.length);
  return PAIRING_PREFIX + toBase64Url(all);
}

/** Reads a pasted or scanned code (spaces and line breaks a chat app added are ignored). Throws PairingCodeError. */
export function decodePairing(text: string): SignedPairing {
  const clean = text.replace(/\s+/g, "");
  if (!clean.startsWith(PAIRING_PREFIX)) throw new PairingCodeError("not-a-code", "This is not a LinkUp pairing code");
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(clean.slice(PAIRING_PREFIX.length));
  } catch {
    throw new PairingCodeError("damaged", "This pairing code is damaged");
  }
  const r = new Reader(bytes);
  try {
    if (r.byte() !== 1) throw new PairingCodeError("version", "This pairing code comes from another version of LinkUp");
    const kind = r.byte() === 1 ? "answer" : "offer";
    const setupByte = r.byte();
    const setup: DtlsSetup = setupByte === 1 ? "active" : setupByte === 2 ? "passive" : "actpass";
    const ufrag = r.text();
    const pwd = r.text();
    const fingerprint = r.raw(FINGERPRINT_BYTES);
    const count = r.byte();
    if (count > MAX_CANDIDATES) throw new PairingCodeError("damaged", "This pairing code is damaged");
    const candidates: HostCandidate[] = [];
    for (let i = 0; i < count; i++) {
      const type = r.byte();
      let address: string;
      if (type === 0) address = [...r.raw(4)].join(".");
      else if (type === 1) address = ipv6Text(r.raw(16));
      else if (type === 2) {
        const h = hex(r.raw(16));
        address = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
      } else throw new PairingCodeError("damaged", "This pairing code is damaged");
      const port = (r.byte() << 8) | r.byte();
      candidates.push({ address, port });
    }
    const identity: PairingIdentity = {
      userId: r.text(),
      nickname: r.text(),
      deviceId: r.text(),
      publicKey: toBase64Url(r.raw(KEY_BYTES)),
      signingKey: toBase64Url(r.raw(KEY_BYTES)),
    };
    const signature = r.raw(SIG_BYTES);
    if (!r.done) throw new PairingCodeError("damaged", "This pairing code is damaged");
    if (!identity.userId || !identity.deviceId || !ufrag || !pwd) throw new PairingCodeError("damaged", "This pairing code is damaged");
    return { kind, setup, ufrag, pwd, fingerprint, candidates, identity, signature };
  } catch (e) {
    if (e instanceof PairingCodeError) throw e;
    throw new PairingCodeError("damaged", "This pairing code is damaged");
  }
}

// ------------------------------------------------------------------ signatures

/**
 * What the identity key signs: the payload and, for an answer, the offer it answers (its fingerprint and ICE
 * name), so an old answer cannot be replayed against a new offer.
 */
function signedBytes(p: PairingPayload, answering?: Pick<SdpFacts, "fingerprint" | "ufrag">): Uint8Array<ArrayBuffer> {
  const body = payloadBytes(p);
  const extra = answering ? [...answering.fingerprint, ...new TextEncoder().encode(answering.ufrag)] : [];
  const ctx = new TextEncoder().encode("linkup-pair-v1");
  const out = new Uint8Array(ctx.length + body.length + extra.length);
  out.set(ctx);
  out.set(body, ctx.length);
  out.set(extra, ctx.length + body.length);
  return out;
}

/** Signs a payload with the device's Ed25519 identity key. */
export async function signPairing(
  p: PairingPayload,
  signingKey: CryptoKey,
  answering?: Pick<SdpFacts, "fingerprint" | "ufrag">,
): Promise<SignedPairing> {
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, signingKey, signedBytes(p, answering));
  return { ...p, signature: new Uint8Array(sig) };
}

/** Whether the code was signed by the identity key it names (and, for an answer, for this offer). */
export async function verifyPairing(p: SignedPairing, answering?: Pick<SdpFacts, "fingerprint" | "ufrag">): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(p.identity.signingKey), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, new Uint8Array(p.signature), signedBytes(p, answering));
  } catch {
    return false;
  }
}
