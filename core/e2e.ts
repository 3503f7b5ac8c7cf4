// The end-to-end protocol of private rooms, version 2 (docs/protocol.md). It holds against the server: the
// relay may drop, delay, reorder, rewrite and replay envelopes, and publish any key it likes, but it cannot
// read a private message, speak as someone else, replay an old message or slip a device of its own into a
// conversation unnoticed. WebCrypto only (Ed25519, X25519, HKDF, HMAC, AES-256-GCM): browsers, Node, workerd.
//
// - Each device has an X25519 key (key agreement) and an Ed25519 identity key. Each person has an account key
//   that signs a versioned list of their devices, with the withdrawn ones (core/device-list.ts); clients use only
//   listed devices, refuse an older list or a withdrawn device listed again, pin the account key on first use,
//   and seal nothing to a new or changed key until the chat has shown it (decision 063).
// - Every private envelope carries a canonical header (version, room, id, sender, sender's identity and X25519
//   keys, time, type, key id, per-sender counter). The header is the AES-GCM additional data and the HKDF info
//   of the content key, and the sender's identity key signs header and ciphertext.
// - Direct messages (version 3): a fresh message key per message, sealed for each trusted device of both people
//   with a Double Ratchet session per pair of devices (core/double-ratchet.ts), started by an X3DH first message
//   (core/x3dh.ts), so a key stolen today opens no earlier message. Version 2 wrapped the message key under the
//   static pairwise X25519 key; those envelopes still open, for history. Version 4 (core/e2e-direct.ts) signs the
//   per-device key entries and X3DH headers too and pads the plaintext; version 3 still opens, until the same
//   sender device has sent version 4 in the room. Version 5, sealed now, is deniable: no signature, each entry
//   authenticated by a MAC only its two devices can make. Skipped ratchet keys are capped per device (core/skipped-keys.ts).
// - Groups: a sender key per (member, device) as a hash chain (message key = HMAC(chain, 0x01), next chain =
//   HMAC(chain, 0x02)), handed out wrapped per device; a new one whenever the recipients change. Version 4 of group
//   messages and handouts signs the sender's membership epoch (core/group-epochs.ts) and, in a handout, its key
//   entry (docs/protocol.md §6, decision 080).
import { derivePairwiseKey } from "./crypto";
import { type DeviceList, verifyDeviceList } from "./device-list";
import {
  contentBinding,
  DENIABLE_VERSION,
  entryMacHolds,
  entryMacKey,
  macEntry,
  padText,
  SIGNED_ENTRIES_VERSION,
  signedEntries,
  unpadText,
  v4FloorKey,
} from "./e2e-direct";
import { initReceiver, initSender, type RatchetMessage, type RatchetState, ratchetDecrypt, ratchetEncrypt } from "./double-ratchet";
import type { Envelope } from "./envelope";
import { fromBase64Url, newId, toBase64Url } from "./ids";
import { roomKind } from "./room-ids";
import { dropSkipped, noteSkipped, type SkippedDelta, skippedDelta, skippedIds } from "./skipped-keys";
import { newPrekey, type Prekey, type PrekeyBundle, signPrekey, verifyPrekey, type X3dhHeader, x3dhInitiate, x3dhRespond } from "./x3dh";
import { exportRawKey, utf8 } from "./webcrypto";

export const E2E_VERSION = 2;
/**
 * The Double Ratchet's first version (docs/protocol.md §4): sender-key handouts, and direct messages sealed before
 * version 4 (core/e2e-direct.ts, which signs their key entries too). Group messages stay at 2.
 */
export const DIRECT_VERSION = 3;
/** Ratchet sessions kept per pair of devices (both people may start one at the same moment). */
const SESSIONS_PER_DEVICE = 3;
/** One-time prekeys this device keeps on the server; below LOW it tops the batch up to TARGET. */
export const PREKEYS_TARGET = 50;
export const PREKEYS_LOW = 20;
/** A signed prekey is replaced after a week (docs/protocol.md §4), as Signal rotates its own. */
export const SIGNED_PREKEY_MAX_AGE_MS = 7 * 24 * 3600_000;
/**
 * A replaced signed prekey's private half is kept this long, for first messages sealed to it before the
 * rotation and delivered late (a room hands back what it kept to a device that was away), then deleted, so a
 * device stolen later cannot open those first messages.
 */
export const SIGNED_PREKEY_GRACE_MS = 30 * 24 * 3600_000;
const enc = new TextEncoder();
const SALT = enc.encode("linkup-e2e-v2");
/** How far a group chain may be moved forward for one message (keys skipped on the way are kept). */
const MAX_SKIP = 2000;
/** Direct-message counters remembered per sender device, to refuse replays. */
const SEEN_WINDOW = 2000;
const B64 = /^[A-Za-z0-9_-]+$/;
/** Safety numbers of version 3 are made of the two account keys (docs/decisions/061). */
const SAFETY_VERSION = 3;

// ------------------------------------------------------------------ device records

export interface DeviceRecord {
  userId: string;
  deviceId: string;
  /** X25519 public key (base64url, 32 bytes). */
  publicKey: string;
  /** Ed25519 identity public key (base64url, 32 bytes). */
  signingKey: string;
  /** Ed25519 signature of the record by signingKey (base64url, 64 bytes). */
  signature: string;
}

/** One device's own keys. The private halves are non-extractable CryptoKeys (kept in IndexedDB). */
export interface DeviceSecrets {
  dh: CryptoKeyPair;
  signing: CryptoKeyPair;
  record: DeviceRecord;
}

const recordBytes = (r: Omit<DeviceRecord, "signature">) =>
  utf8(JSON.stringify(["linkup-device", E2E_VERSION, r.userId, r.deviceId, r.publicKey, r.signingKey]));

async function raw(key: CryptoKey): Promise<string> {
  return toBase64Url(await exportRawKey(key));
}

/** A new device: X25519 and Ed25519 key pairs and the record that binds them to the user. */
export async function createDevice(userId: string, deviceId = newId(12), extractable = false): Promise<DeviceSecrets> {
  const dh = (await crypto.subtle.generateKey({ name: "X25519" }, extractable, ["deriveBits"])) as CryptoKeyPair;
  const signing = (await crypto.subtle.generateKey({ name: "Ed25519" }, extractable, ["sign", "verify"])) as CryptoKeyPair;
  return {
    dh,
    signing,
    record: await signDeviceRecord(signing, {
      userId,
      deviceId,
      publicKey: await raw(dh.publicKey),
      signingKey: await raw(signing.publicKey),
    }),
  };
}

/** Signs a device record (again, e.g. when the account's id changed after a phone verification merged it). */
export async function signDeviceRecord(signing: CryptoKeyPair, r: Omit<DeviceRecord, "signature">): Promise<DeviceRecord> {
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, signing.privateKey, recordBytes(r));
  return {
    userId: r.userId,
    deviceId: r.deviceId,
    publicKey: r.publicKey,
    signingKey: r.signingKey,
    signature: toBase64Url(new Uint8Array(sig)),
  };
}

async function verifySig(signingKey: string, signature: string, data: Uint8Array<ArrayBuffer>): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(signingKey), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(signature), data);
  } catch {
    return false;
  }
}

/** True when the record is well formed, names `userId` and is signed by its own identity key. */
export async function verifyDeviceRecord(r: Partial<DeviceRecord>, userId?: string): Promise<boolean> {
  if (typeof r.userId !== "string" || typeof r.deviceId !== "string") return false;
  if (userId !== undefined && r.userId !== userId) return false;
  for (const k of [r.publicKey, r.signingKey]) if (typeof k !== "string" || k.length !== 43 || !B64.test(k)) return false;
  if (typeof r.signature !== "string" || r.signature.length !== 86 || !B64.test(r.signature)) return false;
  return verifySig(r.signingKey as string, r.signature, recordBytes(r as DeviceRecord));
}

// ------------------------------------------------------------------ header, keys, signatures

/** The fields of an envelope that the protocol authenticates (docs/protocol.md §3). */
export interface Header {
  room: string;
  id: string;
  senderId: string;
  device: string;
  dh: string;
  timestamp: number;
  type: string;
  keyId: string;
  counter: number;
}

/** The header as one canonical string: the same fields in the same order on every side. */
export function canonicalHeader(h: Header, version = E2E_VERSION): string {
  return JSON.stringify([version, h.room, h.id, h.senderId, h.device, h.dh, h.timestamp, h.type, h.keyId, h.counter]);
}

/** What rides beside the ciphertext in `meta.e2e` (the rest of the header is the envelope itself). */
export interface E2eMeta {
  v: number;
  device: string;
  dh: string;
  counter: number;
  /** The sending device's Ed25519 signature; absent in version 5 (deniable direct messages, core/e2e-direct.ts). */
  sig?: string;
  /**
   * Direct messages, per recipient device (by its X25519 key): version 3, the message key as a ratchet message
   * (`r`) and, until the peer has answered, the X3DH header that starts the session (`x3dh`); version 2, the
   * message key wrapped under the static pairwise key (`ciphertext`, `iv`).
   */
  keys?: KeyEntry[];
  /** Sender-key handouts: the recipient device (X25519 key) and person. */
  to?: string;
  for?: string;
  /** Group messages and handouts of version 4: the sender's newest signed epoch when it sealed (signed). */
  epoch?: EpochClaim;
}

/** A group's epoch as a sender names it: its number and the hash of its statement (core/group-epochs.ts epochHash). */
export interface EpochClaim {
  epoch: number;
  hash: string;
}

/** What a version 4 group envelope signs of its epoch, beside the header. */
const epochBytes = (c: EpochClaim) => JSON.stringify(["epoch", c.epoch, c.hash]);

function readClaim(value: unknown): EpochClaim | null {
  const c = value as Partial<EpochClaim> | undefined;
  if (!c || typeof c !== "object" || !count(c.epoch) || (c.epoch as number) < 1) return null;
  if (typeof c.hash !== "string" || !B64_32.test(c.hash)) return null;
  return { epoch: c.epoch as number, hash: c.hash };
}

/**
 * Decides, once a group envelope's signature held and before any chain step, whether its signed epoch may be
 * heard (core/group-epochs.ts `GroupMembership`); null lets it through. `null` claim: a version 2 or 3 envelope.
 */
export type EpochGate = (claim: EpochClaim | null, kind: "message" | "key") => Promise<EpochRefusal | null>;

export interface KeyEntry {
  to: string;
  ciphertext?: string;
  iv?: string;
  r?: RatchetMessage;
  x3dh?: X3dhHeader;
  /** Version 5: the MAC of this entry under the two devices' static key (core/e2e-direct.ts). */
  mac?: string;
}

const B64_32 = /^[A-Za-z0-9_-]{43}$/;
const count = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/** A version 3 entry as it must look before any of it is used (the relay may have written anything there). */
function readRatchetEntry(e: KeyEntry): { r: RatchetMessage; x3dh?: X3dhHeader } | null {
  const r = e.r as Partial<RatchetMessage> | undefined;
  const h = r?.header as Partial<RatchetMessage["header"]> | undefined;
  if (!r || !h || typeof h.dh !== "string" || !B64_32.test(h.dh) || !count(h.pn) || !count(h.n)) return null;
  if (typeof r.ciphertext !== "string" || !B64.test(r.ciphertext)) return null;
  const x = e.x3dh as Partial<X3dhHeader> | undefined;
  if (x !== undefined && (typeof x.ek !== "string" || !B64_32.test(x.ek) || !count(x.spk) || (x.opk !== undefined && !count(x.opk))))
    return null;
  return { r: r as RatchetMessage, x3dh: x as X3dhHeader | undefined };
}

function readMeta(envelope: Envelope): E2eMeta | null {
  const m = envelope.meta?.e2e as Partial<E2eMeta> | undefined;
  // Group messages are version 2 or 4 (sender-key chains; 4 names its epoch); sender-key handouts 2 to 4 (4 signs
  // its key entry and epoch); direct messages 2 to 5.
  const kind = roomKind(envelope.room);
  const version =
    kind === "group" && envelope.type !== "key"
      ? [E2E_VERSION, SIGNED_ENTRIES_VERSION]
      : kind === "dm"
        ? [E2E_VERSION, DIRECT_VERSION, SIGNED_ENTRIES_VERSION, DENIABLE_VERSION]
        : [E2E_VERSION, DIRECT_VERSION, SIGNED_ENTRIES_VERSION];
  if (!m || !version.includes(m.v as number) || typeof m.device !== "string" || typeof m.dh !== "string") return null;
  if (m.sig !== undefined && typeof m.sig !== "string") return null;
  if (typeof m.counter !== "number" || !Number.isSafeInteger(m.counter) || m.counter < 0) return null;
  if (m.keys !== undefined && !Array.isArray(m.keys)) return null;
  const grouped = kind !== "dm";
  if (grouped && m.v === SIGNED_ENTRIES_VERSION) {
    const epoch = readClaim(m.epoch);
    if (!epoch) return null;
    return { ...(m as E2eMeta), epoch };
  }
  return { ...(m as E2eMeta), epoch: undefined };
}

function headerOf(envelope: Envelope, meta: Pick<E2eMeta, "device" | "dh" | "counter">, keyId: string): Header {
  return {
    room: envelope.room,
    id: envelope.id,
    senderId: envelope.senderId,
    device: meta.device,
    dh: meta.dh,
    timestamp: envelope.timestamp,
    type: envelope.type,
    keyId,
    counter: meta.counter,
  };
}

const signedBytes = (header: string, iv: string, ciphertext: string, extra = "") => utf8(JSON.stringify([header, iv, ciphertext, extra]));

/** The AES-GCM key of one message: HKDF over its message key, with the header as info. */
async function contentKey(messageKey: Uint8Array<ArrayBuffer>, header: string): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey("raw", messageKey, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: SALT, info: enc.encode(`msg|${header}`) },
    ikm,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

async function seal(key: CryptoKey, plain: string, aad: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(aad) }, key, enc.encode(plain));
  return { ciphertext: toBase64Url(new Uint8Array(data)), iv: toBase64Url(iv) };
}

async function unseal(key: CryptoKey, sealed: { ciphertext: string; iv: string }, aad: string): Promise<string> {
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64Url(sealed.iv), additionalData: enc.encode(aad) },
    key,
    fromBase64Url(sealed.ciphertext),
  );
  return new TextDecoder().decode(plain);
}

async function hmac(key: Uint8Array<ArrayBuffer>, byte: number): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, new Uint8Array([byte])));
}

/** One step of a sender-key chain: this message's key and the chain key of the next message. */
export async function chainStep(
  chainKey: Uint8Array<ArrayBuffer>,
): Promise<{ messageKey: Uint8Array<ArrayBuffer>; next: Uint8Array<ArrayBuffer> }> {
  return { messageKey: await hmac(chainKey, 0x01), next: await hmac(chainKey, 0x02) };
}

// ------------------------------------------------------------------ safety numbers

async function fingerprint(userId: string, keys: string[]): Promise<Uint8Array> {
  // Like Signal's numeric fingerprint (version, identity keys, user id, SHA-512, 30 bytes), over every pinned
  // device key of the person. One hash, not 5200 rounds: 6 groups of 5 digits already leave ~100 bits to
  // search, and phones compute it in the chat.
  const input = enc.encode(JSON.stringify(["linkup-safety", SAFETY_VERSION, userId, [...keys].sort()]));
  return new Uint8Array(await crypto.subtle.digest("SHA-512", input)).slice(0, 30);
}

function digits(bytes: Uint8Array): string {
  const out: string[] = [];
  for (let i = 0; i < 30; i += 5) {
    let n = 0;
    for (let j = 0; j < 5; j++) n = n * 256 + (bytes[i + j] ?? 0);
    out.push(String(n % 100000).padStart(5, "0"));
  }
  return out.join(" ");
}

/**
 * The 60-digit safety number of two people (12 groups of 5): the same on both sides, and different as soon
 * as either person's pinned identity keys differ. Compared in person, it proves no one sits in between.
 */
export async function safetyNumber(a: { userId: string; keys: string[] }, b: { userId: string; keys: string[] }): Promise<string> {
  const [first, second] = a.userId < b.userId ? [a, b] : [b, a];
  return `${digits(await fingerprint(first.userId, first.keys))} ${digits(await fingerprint(second.userId, second.keys))}`;
}

// ------------------------------------------------------------------ the session of one device

/** The part of the Web Locks API the session uses (`navigator.locks.request(name, callback)`). */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** Where the session keeps its state (IndexedDB in the browser, a Map in tests). */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

/** The keys directory: what the server hands out (not trusted as it is). */
export interface Directory {
  /**
   * A person's signed device list (core/device-list.ts), null when the server has none. `fresh` asks past any
   * cache (a sender's device we do not know yet may have just been listed).
   */
  deviceList(userId: string, fresh?: boolean): Promise<unknown>;
  /** One device's prekey bundle (`GET /api/keys/bundle/:userId?device=`), or undefined when it has none. */
  bundle(userId: string, deviceId: string): Promise<unknown>;
}

/** A Double Ratchet session with one device of a person, and how it started. */
interface PairSession {
  state: RatchetState;
  /** The X3DH ephemeral key the session grew from (the same on both sides). */
  ek: string;
  /** Sent with every message until the peer answers in this session, so a lost first message does no harm. */
  pending?: X3dhHeader;
}

/** A contact's account key or device that differs from what this device pinned (and showed) before. */
export interface TrustChange {
  userId: string;
  /** Empty for an account key change. */
  deviceId: string;
  kind: "new-device" | "key-changed" | "account-changed" | "device-removed";
  /** The new key (pinned once the change was shown and accepted); none for a removal. */
  key?: string;
}

/** Something the server offered that the client refused (shown in the chat: the server misbehaves). */
export interface TrustProblem {
  userId: string;
  kind: "rolled-back" | "relisted-revoked" | "unsigned-list";
  deviceId?: string;
}

export interface Trust {
  /** Every device of the newest accepted list (messages from them are accepted). */
  devices: DeviceRecord[];
  /** Those already shown and pinned: the only ones sealed to. */
  sealable: DeviceRecord[];
  /** New or changed keys not shown yet (and removals, said once). */
  changes: TrustChange[];
  problems: TrustProblem[];
}

/** Why a device outside its person's signed list waits (shown on the message in the outbox). */
export const NOT_LINKED =
  "This device is not linked to your account yet, so this message waits. Link it from a device you already use (Security settings, Linked devices).";

/** True for a change that needs showing (and, for a verified contact, accepting) before anything is sealed. */
export const needsConsent = (c: TrustChange) => c.kind !== "device-removed";

export type OpenFailure =
  | "plaintext" // plain text in a private room
  | "malformed"
  | "unknown-device" // the sending device is not a signed device of the sender
  | "bad-signature" // header or ciphertext changed, or signed by someone else
  | "replay" // a counter (message) this device already opened
  | "no-key" // a group message whose sender key has not arrived (yet)
  | "not-for-this-device"
  | "key-overwrite" // a second sender key under a (sender, device, key id) we already hold
  | "downgraded" // an older version after that device sent version 4 (direct message, or group handout or message)
  | EpochRefusal
  | "undecryptable";

/**
 * Why a group envelope's signed epoch is refused (core/group-epochs.ts): `withheld-epoch`, newer than any the
 * server hands this device; `forked-epoch`, another statement under that number than the one this device
 * accepted; `stale-epoch`, sealed well after this device accepted a removal, in an epoch before it.
 */
export type EpochRefusal = "withheld-epoch" | "forked-epoch" | "stale-epoch";

/** What `PUT /api/keys/:deviceId/prekeys` takes (core/rooms.ts PublishPrekeysSchema). */
export interface PrekeyUpload {
  signedPrekey?: Prekey;
  oneTimePrekeys: Prekey[];
}

export interface GroupHandout {
  envelopes: Envelope[];
  changes: TrustChange[];
  problems: TrustProblem[];
  /** True when nothing was handed out because a change waits to be shown. */
  waiting: boolean;
}

export type OpenResult = { ok: true; text: string } | { ok: false; reason: OpenFailure };

interface ChainState {
  chainKey: string;
  counter: number;
  /** Keys of messages skipped on the way (out-of-order arrival), by counter. */
  skipped: Record<string, string>;
  /** Handed out in version 4: messages under it must be version 4 too (they name their epoch). */
  v4?: true;
}

/** Set once a sender device handed this device a version 4 sender key in a room: its older handouts are refused. */
const v4HandoutKey = (room: string, senderId: string, device: string) => `e2e:v4-key-from:${room}|${senderId}|${device}`;

interface MySenderKey extends ChainState {
  keyId: string;
  /** The devices (`userId/deviceId/signingKey`) this key was made for; any change makes a new key. */
  recipients: string[];
  given: string[];
}

/** What this device accepted of a person: the account key and each device's identity key. */
interface Pins {
  account: string;
  devices: Record<string, string>;
}

/**
 * Pins as stored. Pins from before account keys (deviceId → identity key) carry over to the list's account key
 * silently only when every listed device was pinned already; anything more is a change to show.
 */
function readPins(stored: unknown, list: DeviceList, devices: Pick<DeviceRecord, "deviceId" | "signingKey">[]): Pins | null {
  if (!stored || typeof stored !== "object") return null;
  const p = stored as Partial<Pins> & Record<string, unknown>;
  if (typeof p.account === "string" && p.devices && typeof p.devices === "object") return { account: p.account, devices: { ...p.devices } };
  const legacy = Object.fromEntries(Object.entries(p).filter((e): e is [string, string] => typeof e[1] === "string"));
  const known = devices.every((d) => legacy[d.deviceId] === d.signingKey);
  return { account: known ? list.accountKey : "", devices: legacy };
}

export class E2eSession {
  constructor(
    readonly me: DeviceSecrets,
    private readonly store: KeyValueStore,
    private readonly directory: Directory,
    /** Web Locks (`navigator.locks`): tabs of one browser share the store, so a step is locked across them. */
    private readonly locks: LockManagerLike | undefined = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks,
  ) {}

  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * Runs tasks on the same state one after another (a chain step must never be taken twice): in this tab by a
   * queue, and across the browser's tabs by a Web Lock of the same name, so two tabs never step one ratchet or
   * chain from the same state (which would reuse an AES-GCM key and nonce).
   */
  private serial<T>(key: string, task: () => Promise<T>): Promise<T> {
    const locks = this.locks;
    const locked = locks ? () => locks.request(`linkup-e2e|${this.me.record.deviceId}|${key}`, task) : task;
    const run = (this.queues.get(key) ?? Promise.resolve()).then(locked, locked);
    this.queues.set(
      key,
      run.catch(() => {}),
    );
    return run;
  }

  private get userId() {
    return this.me.record.userId;
  }

  /**
   * A person's devices (docs/protocol.md §5): those of the newest device list signed by the person's account
   * key that this device has seen. A list older than one seen before, a list under an account key the person
   * left, and a device withdrawn before are refused (`problems`). The account key and devices are pinned on
   * first contact; afterwards a new or changed one is reported in `changes` and is not sealed to until the
   * caller has shown it and called `acknowledge` (consent before a new key).
   */
  async trustedDevices(userId: string, fresh = false): Promise<Trust> {
    return this.serial(`pins:${userId}`, () => this.trust(userId, fresh));
  }

  private async trust(userId: string, fresh: boolean): Promise<Trust> {
    const problems: TrustProblem[] = [];
    let fetched: unknown;
    try {
      fetched = await this.directory.deviceList(userId, fresh);
    } catch {
      fetched = undefined; // offline: the list seen last
    }
    const held = await this.store.get<DeviceList>(`e2e:list:${userId}`);
    const retired = (await this.store.get<string[]>(`e2e:retired:${userId}`)) ?? [];
    let list = fetched === undefined || fetched === null ? null : await verifyDeviceList(fetched, userId);
    if (fetched !== undefined && fetched !== null && !list) problems.push({ userId, kind: "unsigned-list" });
    if (list && held) {
      const older =
        list.accountKey === held.accountKey
          ? list.version < held.version || (list.version === held.version && list.signature !== held.signature)
          : retired.includes(list.accountKey);
      if (older) {
        problems.push({ userId, kind: "rolled-back" });
        list = held;
      }
    }
    if (!list && held) {
      // The server holds back the list it handed out before: the one seen last still counts.
      if (fetched === null) problems.push({ userId, kind: "rolled-back" });
      list = held;
    }
    if (!list) return { devices: [], sealable: [], changes: [], problems };
    const revoked = new Set([
      ...((await this.store.get<string[]>(`e2e:revoked:${userId}`)) ?? []),
      ...list.revoked.map((d) => d.signingKey),
    ]);
    const devices: DeviceRecord[] = [];
    for (const d of list.devices) {
      if (revoked.has(d.signingKey)) problems.push({ userId, kind: "relisted-revoked", deviceId: d.deviceId });
      else devices.push({ ...d, userId, signature: "" });
    }
    if (list !== held) {
      await this.store.set(`e2e:list:${userId}`, list);
      if (held && held.accountKey !== list.accountKey) await this.store.set(`e2e:retired:${userId}`, [...retired, held.accountKey]);
    }
    await this.store.set(`e2e:revoked:${userId}`, [...revoked]);
    let pins = readPins(await this.store.get<unknown>(`e2e:pins:${userId}`), list, devices);
    if (!pins) {
      // First contact: what the person's account key signs is theirs (the safety number covers that key).
      pins = { account: list.accountKey, devices: Object.fromEntries(devices.map((d) => [d.deviceId, d.signingKey])) };
      await this.store.set(`e2e:pins:${userId}`, pins);
    }
    const changes: TrustChange[] = [];
    if (pins.account !== list.accountKey) changes.push({ userId, deviceId: "", kind: "account-changed", key: list.accountKey });
    for (const d of devices) {
      if (d.signingKey === this.me.record.signingKey) continue;
      if (!(d.deviceId in pins.devices)) changes.push({ userId, deviceId: d.deviceId, kind: "new-device", key: d.signingKey });
      else if (pins.devices[d.deviceId] !== d.signingKey)
        changes.push({ userId, deviceId: d.deviceId, kind: "key-changed", key: d.signingKey });
    }
    const listed = new Set(devices.map((d) => d.deviceId));
    const removed = Object.keys(pins.devices).filter((id) => !listed.has(id));
    if (removed.length) {
      // A device leaving needs no consent, but is said once.
      for (const deviceId of removed) changes.push({ userId, deviceId, kind: "device-removed" });
      pins = { ...pins, devices: Object.fromEntries(Object.entries(pins.devices).filter(([id]) => listed.has(id))) };
      await this.store.set(`e2e:pins:${userId}`, pins);
    }
    const accepted = pins.account === list.accountKey;
    const sealable = devices.filter((d) => accepted && pins.devices[d.deviceId] === d.signingKey);
    return { devices, sealable, changes, problems };
  }

  /**
   * The person has been shown these changes (and, for a verified contact, accepted them): they are pinned and
   * sealed to from now on. Only what was shown is pinned, so a change that arrives meanwhile is shown too.
   */
  async acknowledge(changes: TrustChange[]): Promise<void> {
    for (const userId of new Set(changes.map((c) => c.userId)))
      await this.serial(`pins:${userId}`, async () => {
        const list = await this.store.get<DeviceList>(`e2e:list:${userId}`);
        const pins = list && readPins(await this.store.get<unknown>(`e2e:pins:${userId}`), list, []);
        if (!list || !pins) return;
        for (const c of changes.filter((c) => c.userId === userId && c.key)) {
          if (c.kind === "account-changed") {
            if (c.key === list.accountKey) pins.account = c.key;
          } else if (list.devices.some((d) => d.deviceId === c.deviceId && d.signingKey === c.key))
            pins.devices[c.deviceId] = c.key as string;
        }
        await this.store.set(`e2e:pins:${userId}`, pins);
      });
  }

  /** The account key this device would trust for a person now (the newest list's): the safety number's half. */
  async accountKey(userId: string): Promise<string | null> {
    if (!(await this.store.get<DeviceList>(`e2e:list:${userId}`))) await this.trustedDevices(userId);
    return (await this.store.get<DeviceList>(`e2e:list:${userId}`))?.accountKey ?? null;
  }

  private nextCounter(room: string): Promise<number> {
    const key = `e2e:counter:${room}`;
    return this.serial(key, async () => {
      const n = (await this.store.get<number>(key)) ?? 0;
      await this.store.set(key, n + 1);
      return n;
    });
  }

  private async sign(header: string, iv: string, ciphertext: string, extra = ""): Promise<string> {
    const sig = await crypto.subtle.sign({ name: "Ed25519" }, this.me.signing.privateKey, signedBytes(header, iv, ciphertext, extra));
    return toBase64Url(new Uint8Array(sig));
  }

  /** The entry MAC key shared with one device (version 5): derived on each use, nothing stored. */
  private macKey(peerDh: string) {
    return entryMacKey(this.me.dh, this.me.record.publicKey, peerDh);
  }

  private pairwise(peerDh: string, room: string) {
    return derivePairwiseKey(this.me.dh, peerDh, `v2|${room}`);
  }

  /**
   * Seals a direct message to every trusted device of both people (my own other devices too), one ratchet
   * message per device (docs/protocol.md §4). When either person's account key or devices changed since they
   * were last shown, nothing is sealed: `envelope` is absent and `changes` says what to show (and, for a
   * verified contact, have accepted) before `acknowledge` and a second try (docs/protocol.md §5).
   */
  sealDirect(
    envelope: Envelope,
    text: string,
    peerId: string,
  ): Promise<{ envelope?: Envelope; changes: TrustChange[]; problems: TrustProblem[] }> {
    return this.sealDirectAs(envelope, text, peerId, DENIABLE_VERSION);
  }

  /** Versions 3 and 4 only as clients before version 5 sealed (tests of the history they left: core/e2e.test.ts). */
  protected async sealDirectAs(
    envelope: Envelope,
    text: string,
    peerId: string,
    version: typeof DIRECT_VERSION | typeof SIGNED_ENTRIES_VERSION | typeof DENIABLE_VERSION,
  ): Promise<{ envelope?: Envelope; changes: TrustChange[]; problems: TrustProblem[] }> {
    // Sealing always asks for the newest lists: a device added a moment ago should be able to read this.
    const [theirs, ours] = await Promise.all([this.trustedDevices(peerId, true), this.trustedDevices(this.userId, true)]);
    this.mustBeListed(ours);
    const changes = [...theirs.changes, ...ours.changes];
    const problems = [...theirs.problems, ...ours.problems];
    if (changes.some(needsConsent)) return { changes, problems };
    const meta = { device: this.me.record.signingKey, dh: this.me.record.publicKey, counter: await this.nextCounter(envelope.room) };
    const keyId = newId(12);
    const header = canonicalHeader(headerOf(envelope, meta, keyId), version);
    const padded = version >= SIGNED_ENTRIES_VERSION;
    const deniable = version === DENIABLE_VERSION;
    const messageKey = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    // Padded to a 160-byte bucket (version 4 on, core/e2e-direct.ts).
    const content = await seal(await contentKey(fromBase64Url(messageKey), header), padded ? padText(text) : text, header);
    // Version 5 binds the content into each device's ratchet message and entry MAC instead of a signature.
    const binding = deniable ? await contentBinding(header, content.iv, content.ciphertext) : "";
    const sealFor = (devices: DeviceRecord[]) =>
      Promise.all(
        devices
          .filter((d) => d.signingKey !== this.me.record.signingKey)
          .map(async (d) => {
            const entry = await this.ratchetSeal(d, messageKey, `${header}|to|${d.publicKey}${deniable ? `|${binding}` : ""}`);
            if (!entry || !deniable) return entry;
            return { ...entry, mac: await macEntry(await this.macKey(d.publicKey), header, entry, binding) };
          }),
      );
    const forThem = (await sealFor(theirs.sealable)).filter((k) => k !== null);
    // A device without prekeys has not opened LinkUp since they exist; it is not sealed to with a static key.
    if (forThem.length === 0) throw new Error("Waiting for the other person to open LinkUp so this message can be encrypted");
    const keys = [...forThem, ...(await sealFor(ours.sealable)).filter((k) => k !== null)];
    // Version 4 signs the key entries with the header; version 5 signs nothing (deniable, docs/protocol.md §10).
    const sig = deniable
      ? undefined
      : await this.sign(header, content.iv, content.ciphertext, version === SIGNED_ENTRIES_VERSION ? signedEntries(keys) : "");
    return {
      envelope: {
        ...envelope,
        isEncrypted: true,
        content: { ...content, keyId },
        meta: { e2e: { v: version, ...meta, ...(sig ? { sig } : {}), keys } },
      },
      changes,
      problems,
    };
  }

  /** Contacts hear only devices of the person's signed list: one not in it (yet) must not send (docs/decisions/061). */
  private mustBeListed(ours: Trust) {
    if (!ours.devices.some((d) => d.signingKey === this.me.record.signingKey && d.publicKey === this.me.record.publicKey))
      throw new Error(NOT_LINKED);
  }

  private sessionKey(d: Pick<DeviceRecord, "userId" | "deviceId" | "signingKey">) {
    return `e2e:dr:${d.userId}|${d.deviceId}|${d.signingKey}`;
  }

  /**
   * Runs one step of the sessions with one device under their lock, then books the skipped message keys the
   * step kept or used in the device-wide index and deletes the oldest past its cap (core/skipped-keys.ts), each
   * under its own session's lock once this one is let go.
   */
  private async sessionStep<T>(key: string, task: () => Promise<T>): Promise<T> {
    let delta: SkippedDelta | undefined;
    const kept = async () => skippedIds((await this.store.get<PairSession[]>(key)) ?? []);
    const out = await this.serial(key, async () => {
      const before = await kept();
      try {
        return await task();
      } finally {
        delta = skippedDelta(before, await kept());
      }
    });
    const changed = delta as SkippedDelta | undefined;
    if (changed && (changed.added.length || changed.removed.length)) {
      const victims = await this.serial("skipped-index", () => noteSkipped(this.store, key, changed));
      for (const [victim, ids] of victims)
        await this.serial(victim, async () => {
          const sessions = await this.store.get<PairSession[]>(victim);
          if (sessions && dropSkipped(sessions, ids)) await this.store.set(victim, sessions);
        });
    }
    return out;
  }

  /** One ratchet message to one device: the newest session with it, or a new one from its prekey bundle. */
  private ratchetSeal(d: DeviceRecord, payload: string, ad: string): Promise<KeyEntry | null> {
    const key = this.sessionKey(d);
    return this.sessionStep(key, async () => {
      const sessions = (await this.store.get<PairSession[]>(key)) ?? [];
      let current = sessions[0];
      if (!current?.state.cks) {
        const bundle = await this.verifiedBundle(d);
        if (!bundle) return null;
        const { sk, header } = await x3dhInitiate(this.me.dh, this.me.record.publicKey, d.publicKey, bundle);
        current = { state: await initSender(sk, bundle.signedPrekey.publicKey), ek: header.ek, pending: header };
        sessions.unshift(current);
      }
      const { state, message } = await ratchetEncrypt(current.state, payload, ad);
      current.state = state;
      await this.store.set(key, sessions.slice(0, SESSIONS_PER_DEVICE));
      return { to: d.publicKey, r: message, ...(current.pending ? { x3dh: current.pending } : {}) };
    });
  }

  /** The device's bundle from the directory, used only when its signed prekey carries the device's signature. */
  private async verifiedBundle(d: DeviceRecord): Promise<PrekeyBundle | null> {
    const b = (await this.directory.bundle(d.userId, d.deviceId).catch(() => undefined)) as Partial<PrekeyBundle> | undefined;
    if (!b || b.deviceId !== d.deviceId || !b.signedPrekey) return null;
    if (!(await verifyPrekey(d.signingKey, d.userId, d.deviceId, b.signedPrekey))) return null;
    const opk = b.oneTimePrekey;
    const validOpk = opk && count(opk.keyId) && typeof opk.publicKey === "string" && B64_32.test(opk.publicKey);
    // No one-time prekey: all used, or the server withholds them. The session is still secret, but its first
    // message rests on the signed prekey alone; the chat's info says so (docs/protocol.md §4).
    if (!validOpk) await this.store.set(`e2e:no-opk:${d.userId}`, Date.now());
    return { deviceId: d.deviceId, signedPrekey: b.signedPrekey, ...(validOpk ? { oneTimePrekey: opk } : {}) };
  }

  /**
   * Opens this device's ratchet message of a direct envelope and, with the message key, its content. The
   * session moves on (and a used one-time prekey is deleted) only when both open.
   */
  private ratchetOpen(
    sender: DeviceRecord,
    entry: { r: RatchetMessage; x3dh?: X3dhHeader },
    ad: string,
    content: (messageKey: string) => Promise<string>,
  ) {
    const key = this.sessionKey(sender);
    return this.sessionStep(key, async () => {
      const sessions = (await this.store.get<PairSession[]>(key)) ?? [];
      const tryOpen = async (session: PairSession) => {
        const opened = await ratchetDecrypt(session.state, entry.r, ad);
        return { state: opened.state, text: await content(opened.plaintext) };
      };
      const x = entry.x3dh;
      if (x && !sessions.some((s) => s.ek === x.ek)) {
        // The first message of a session the peer started: X3DH with my prekeys, then the ratchet.
        const spk = await this.store.get<CryptoKeyPair>(`e2e:spk:${x.spk}`);
        const opk = x.opk === undefined ? undefined : await this.store.get<CryptoKeyPair>(`e2e:opk:${x.opk}`);
        if (!spk || (x.opk !== undefined && !opk)) throw new Error("Prekey gone (used already) or never made here");
        const sk = await x3dhRespond(this.me.dh, this.me.record.publicKey, spk, opk, sender.publicKey, x);
        const fresh: PairSession = { state: await initReceiver(sk, spk), ek: x.ek };
        const { state, text } = await tryOpen(fresh);
        if (x.opk !== undefined) await this.store.set(`e2e:opk:${x.opk}`, undefined);
        await this.store.set(key, [{ ...fresh, state }, ...sessions].slice(0, SESSIONS_PER_DEVICE));
        return text;
      }
      for (const [i, session] of sessions.entries()) {
        if (x && session.ek !== x.ek) continue;
        const opened = await tryOpen(session).catch(() => null);
        if (!opened) continue;
        // The peer answered in this session: it becomes the one to send in, without the X3DH header.
        const rest = sessions.filter((_, j) => j !== i);
        await this.store.set(key, [{ state: opened.state, ek: session.ek }, ...rest]);
        return opened.text;
      }
      throw new Error("No session opens this message");
    });
  }

  /** When this device last began a session with one of `userId`'s devices without a one-time prekey, or null. */
  async missingOneTimePrekeys(userId: string): Promise<number | null> {
    return (await this.store.get<number>(`e2e:no-opk:${userId}`)) ?? null;
  }

  /**
   * The prekeys this device should publish, given what the server holds for it (`GET
   * /api/keys/:deviceId/prekeys`): a signed prekey when it has none of ours or ours is older than
   * SIGNED_PREKEY_MAX_AGE_MS, and one-time prekeys up to PREKEYS_TARGET when fewer than PREKEYS_LOW are left.
   * The private halves stay in the store; a replaced signed prekey's is deleted SIGNED_PREKEY_GRACE_MS after it
   * was replaced. Null: nothing to publish.
   */
  async prekeysToPublish(
    status: { signedPrekeyId: number | null; oneTimePrekeys: number },
    now = Date.now(),
  ): Promise<PrekeyUpload | null> {
    return this.serial("prekeys", async () => {
      const { userId, deviceId } = this.me.record;
      // When each signed prekey was made, and when each replaced one was replaced (its private half's clock).
      const made = (await this.store.get<Record<string, number>>("e2e:spk-made")) ?? {};
      const retired = (await this.store.get<Record<string, number>>("e2e:spk-retired")) ?? {};
      for (const [id, at] of Object.entries(retired))
        if (now - at >= SIGNED_PREKEY_GRACE_MS) {
          await this.store.set(`e2e:spk:${id}`, undefined);
          delete retired[id];
          delete made[id];
        }
      const current = status.signedPrekeyId;
      let ours = current !== null && (await this.store.get(`e2e:spk:${current}`)) !== undefined;
      // A signed prekey from before rotation existed starts its week now.
      if (ours && current !== null && made[current] === undefined) made[current] = now;
      const stale = ours && current !== null && now - (made[current] ?? now) >= SIGNED_PREKEY_MAX_AGE_MS;
      if (stale && current !== null) {
        retired[current] = now;
        ours = false;
      }
      const wanted = status.oneTimePrekeys < PREKEYS_LOW ? PREKEYS_TARGET - status.oneTimePrekeys : 0;
      let next = (await this.store.get<number>("e2e:prekey-next")) ?? 1;
      const upload: PrekeyUpload = { oneTimePrekeys: [] };
      if (!ours) {
        const { pair, prekey } = await newPrekey(next++);
        await this.store.set(`e2e:spk:${prekey.keyId}`, pair);
        made[prekey.keyId] = now;
        upload.signedPrekey = await signPrekey(this.me.signing, userId, deviceId, prekey);
      }
      for (let i = 0; i < wanted; i++) {
        const { pair, prekey } = await newPrekey(next++);
        await this.store.set(`e2e:opk:${prekey.keyId}`, pair);
        upload.oneTimePrekeys.push(prekey);
      }
      await this.store.set("e2e:prekey-next", next);
      await this.store.set("e2e:spk-made", made);
      await this.store.set("e2e:spk-retired", retired);
      return upload.signedPrekey || upload.oneTimePrekeys.length ? upload : null;
    });
  }

  /** Checks who sent an envelope: a trusted device of its sender, whose signature covers header and bytes. */
  private async authenticate(envelope: Envelope): Promise<
    | {
        ok: true;
        meta: E2eMeta;
        header: string;
        content: { ciphertext: string; iv: string; keyId: string };
        changes: TrustChange[];
        problems: TrustProblem[];
        sender: DeviceRecord;
      }
    | { ok: false; reason: OpenFailure }
  > {
    if ("text" in envelope.content) return { ok: false, reason: "plaintext" };
    const meta = readMeta(envelope);
    const keyId = envelope.content.keyId;
    if (!meta || !keyId) return { ok: false, reason: "malformed" };
    const sentBy = (devices: DeviceRecord[]) => devices.find((d) => d.signingKey === meta.device && d.publicKey === meta.dh);
    let { devices, changes, problems } = await this.trustedDevices(envelope.senderId);
    if (!sentBy(devices)) ({ devices, changes, problems } = await this.trustedDevices(envelope.senderId, true));
    const sender = sentBy(devices);
    if (!sender) return { ok: false, reason: "unknown-device" };
    const header = canonicalHeader(headerOf(envelope, meta, keyId), meta.v);
    // Version 5 carries no signature: its entry MAC is checked in `open`, before any chain step.
    if (meta.v === DENIABLE_VERSION && envelope.type !== "key")
      return { ok: true, meta, header, content: { ...envelope.content, keyId }, changes, problems, sender };
    if (typeof meta.sig !== "string") return { ok: false, reason: "bad-signature" };
    // Version 4 signs the key entries too (core/e2e-direct.ts): a rewritten one fails here, before any chain step.
    // In a group it signs the sender's epoch as well (decision 080).
    const v4 = meta.v === SIGNED_ENTRIES_VERSION;
    const epoch = meta.epoch ? `|${epochBytes(meta.epoch)}` : "";
    const extra =
      envelope.type === "key"
        ? `${meta.to}|${meta.for}${v4 ? `|${signedEntries(meta.keys)}${epoch}` : ""}`
        : v4
          ? meta.epoch
            ? epochBytes(meta.epoch)
            : signedEntries(meta.keys)
          : "";
    if (!(await verifySig(meta.device, meta.sig, signedBytes(header, envelope.content.iv, envelope.content.ciphertext, extra))))
      return { ok: false, reason: "bad-signature" };
    return { ok: true, meta, header, content: { ...envelope.content, keyId }, changes, problems, sender };
  }

  /**
   * Opens a private message (direct or group) after checking its sender, signature and counter. A group message's
   * signed epoch goes through `gate` (core/group-epochs.ts) before any chain step.
   */
  async open(envelope: Envelope, gate?: EpochGate): Promise<OpenResult & { changes?: TrustChange[]; problems?: TrustProblem[] }> {
    const auth = await this.authenticate(envelope);
    if (!auth.ok) return auth;
    const { meta, header, content } = auth;
    if (gate && roomKind(envelope.room) !== "dm") {
      const refused = await gate(meta.epoch ?? null, "message");
      if (refused) return { ok: false, reason: refused };
    }
    try {
      if (roomKind(envelope.room) === "dm") {
        const seenKey = `e2e:seen:${envelope.room}|${envelope.senderId}|${meta.device}`;
        const seen = (await this.store.get<number[]>(seenKey)) ?? [];
        if (seen.includes(meta.counter) || (seen.length >= SEEN_WINDOW && meta.counter < Math.min(...seen)))
          return { ok: false, reason: "replay" };
        const mine = meta.keys?.find((k) => k?.to === this.me.record.publicKey);
        const floorKey = v4FloorKey(envelope.room, envelope.senderId, meta.device);
        const floor = await this.store.get<number>(floorKey);
        if (meta.v < SIGNED_ENTRIES_VERSION && floor !== undefined && meta.counter >= floor) return { ok: false, reason: "downgraded" };
        if (meta.v >= DIRECT_VERSION) {
          if (!mine) return { ok: false, reason: "not-for-this-device" };
          const entry = readRatchetEntry(mine);
          if (!entry) return { ok: false, reason: "malformed" };
          const signed = meta.v >= SIGNED_ENTRIES_VERSION;
          let ad = `${header}|to|${this.me.record.publicKey}`;
          if (meta.v === DENIABLE_VERSION) {
            // The entry's MAC before any chain step: a rewritten entry, header or content is refused here.
            const binding = await contentBinding(header, content.iv, content.ciphertext);
            if (!(await entryMacHolds(await this.macKey(auth.sender.publicKey), header, mine, binding)))
              return { ok: false, reason: "bad-signature" };
            ad = `${ad}|${binding}`;
          }
          const text = await this.ratchetOpen(auth.sender, entry, ad, async (mk) => {
            const plain = await unseal(await contentKey(fromBase64Url(mk), header), content, header);
            const text = signed ? unpadText(plain) : plain;
            if (text === null) throw new Error("Padding not of version 4");
            return text;
          });
          await this.store.set(seenKey, [...seen, meta.counter].slice(-SEEN_WINDOW));
          if (signed && (floor === undefined || meta.counter < floor)) await this.store.set(floorKey, meta.counter);
          return { ok: true, text, changes: auth.changes, problems: auth.problems };
        }
        // Version 2 (static pairwise keys, before the ratchet): still opens, for history.
        const wrap = mine;
        if (!wrap || typeof wrap.ciphertext !== "string" || typeof wrap.iv !== "string")
          return { ok: false, reason: "not-for-this-device" };
        const messageKey = fromBase64Url(
          await unseal(
            await this.pairwise(meta.dh, envelope.room),
            { ciphertext: wrap.ciphertext, iv: wrap.iv },
            `${header}|to|${this.me.record.publicKey}`,
          ),
        );
        const text = await unseal(await contentKey(messageKey, header), content, header);
        await this.store.set(seenKey, [...seen, meta.counter].slice(-SEEN_WINDOW));
        return { ok: true, text, changes: auth.changes, problems: auth.problems };
      }
      const v4 = meta.v === SIGNED_ENTRIES_VERSION;
      const messageKey = await this.groupMessageKey(
        `${envelope.room}|${envelope.senderId}|${meta.device}|${content.keyId}`,
        meta.counter,
        v4,
      );
      if (typeof messageKey === "string") return { ok: false, reason: messageKey };
      const plain = await unseal(await contentKey(messageKey, header), content, header);
      const text = v4 ? unpadText(plain) : plain;
      if (text === null) return { ok: false, reason: "undecryptable" };
      return { ok: true, text, changes: auth.changes, problems: auth.problems };
    } catch {
      return { ok: false, reason: "undecryptable" };
    }
  }

  /** The key of message `counter` of one sender key; each key opens one message only. */
  private groupMessageKey(
    id: string,
    counter: number,
    v4: boolean,
  ): Promise<Uint8Array<ArrayBuffer> | "no-key" | "replay" | "malformed" | "downgraded"> {
    return this.serial(`sk:${id}`, () => this.chainKeyFor(id, counter, v4));
  }

  private async chainKeyFor(
    id: string,
    counter: number,
    v4: boolean,
  ): Promise<Uint8Array<ArrayBuffer> | "no-key" | "replay" | "malformed" | "downgraded"> {
    const state = await this.store.get<ChainState>(`e2e:sk:${id}`);
    if (!state) return "no-key";
    // A key handed out in version 4 opens only version 4 messages, which name their epoch.
    if (state.v4 && !v4) return "downgraded";
    if (counter < state.counter) {
      const skipped = state.skipped[counter];
      if (!skipped) return "replay";
      const { [counter]: _used, ...rest } = state.skipped;
      await this.store.set(`e2e:sk:${id}`, { ...state, skipped: rest });
      return fromBase64Url(skipped);
    }
    if (counter - state.counter > MAX_SKIP) return "malformed";
    let chain = fromBase64Url(state.chainKey);
    const skipped = { ...state.skipped };
    for (let n = state.counter; n < counter; n++) {
      const step = await chainStep(chain);
      skipped[n] = toBase64Url(step.messageKey);
      chain = step.next;
    }
    const step = await chainStep(chain);
    const kept = Object.keys(skipped)
      .map(Number)
      .sort((a, b) => a - b)
      .slice(-MAX_SKIP);
    await this.store.set(`e2e:sk:${id}`, {
      chainKey: toBase64Url(step.next),
      counter: counter + 1,
      skipped: Object.fromEntries(kept.map((n) => [n, skipped[n]])),
      ...(state.v4 ? { v4: true as const } : {}),
    } satisfies ChainState);
    return step.messageKey;
  }

  /**
   * Makes sure every trusted device of the group's members holds my current sender key. A new key (new
   * chain) is made whenever the set of recipient devices differs from the one the current key was made for,
   * so a removed member or device cannot read what follows. Returns the `key` envelopes to send; none, with
   * `waiting`, while a member's new or changed key has not been shown yet (docs/protocol.md §5). With `epoch`, the
   * handouts are version 4: their key entry and that epoch are signed (decision 080).
   */
  prepareGroup(
    room: string,
    memberIds: string[],
    base: Omit<Envelope, "id" | "type" | "content" | "meta" | "room" | "isEncrypted">,
    epoch?: EpochClaim,
  ): Promise<GroupHandout> {
    return this.serial(`mine:${room}`, () => this.handOut(room, memberIds, base, epoch));
  }

  private async handOut(
    room: string,
    memberIds: string[],
    base: Omit<Envelope, "id" | "type" | "content" | "meta" | "room" | "isEncrypted">,
    epoch?: EpochClaim,
  ): Promise<GroupHandout> {
    const devices: DeviceRecord[] = [];
    const changes: TrustChange[] = [];
    const problems: TrustProblem[] = [];
    for (const userId of new Set([...memberIds, this.userId])) {
      const trusted = await this.trustedDevices(userId, true);
      devices.push(...trusted.sealable.filter((d) => d.signingKey !== this.me.record.signingKey));
      changes.push(...trusted.changes);
      problems.push(...trusted.problems);
    }
    this.mustBeListed(await this.trustedDevices(this.userId));
    if (changes.some(needsConsent)) return { envelopes: [], changes, problems, waiting: true };
    const recipients = devices.map((d) => `${d.userId}/${d.deviceId}/${d.signingKey}`).sort();
    let mine = await this.store.get<MySenderKey>(`e2e:mine:${room}`);
    if (!mine || mine.recipients.join(" ") !== recipients.join(" ")) {
      mine = {
        keyId: newId(12),
        chainKey: toBase64Url(crypto.getRandomValues(new Uint8Array(32))),
        counter: 0,
        skipped: {},
        recipients,
        given: [],
      };
    }
    const envelopes: Envelope[] = [];
    for (const d of devices) {
      const mark = `${d.userId}/${d.deviceId}/${d.signingKey}`;
      if (mine.given.includes(mark)) continue;
      const envelope: Envelope = { ...base, id: newId(), room, type: "key", isEncrypted: true, content: { text: "" } };
      const meta = {
        device: this.me.record.signingKey,
        dh: this.me.record.publicKey,
        counter: mine.counter,
        to: d.publicKey,
        for: d.userId,
      };
      const v = epoch ? SIGNED_ENTRIES_VERSION : DIRECT_VERSION;
      const header = canonicalHeader(headerOf(envelope, meta, mine.keyId), v);
      const payload = JSON.stringify({ keyId: mine.keyId, chainKey: mine.chainKey, counter: mine.counter });
      // The chain travels like a direct message: sealed under a one-time key that goes by the ratchet session
      // with that device, so a device key stolen later does not open the handouts (docs/protocol.md §6).
      const messageKey = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
      const entry = await this.ratchetSeal(d, messageKey, `${header}|to|${d.publicKey}`);
      if (!entry) continue; // no prekeys yet: handed out once it has some
      const content = await seal(await contentKey(fromBase64Url(messageKey), header), payload, `${header}|to|${d.publicKey}`);
      // Version 4: the key entry and the epoch are signed too, so a rewritten entry is refused before any chain step.
      const signed = epoch ? `${d.publicKey}|${d.userId}|${signedEntries([entry])}|${epochBytes(epoch)}` : `${d.publicKey}|${d.userId}`;
      const sig = await this.sign(header, content.iv, content.ciphertext, signed);
      envelopes.push({
        ...envelope,
        content: { ...content, keyId: mine.keyId },
        meta: { e2e: { v, ...meta, sig, keys: [entry], ...(epoch ? { epoch } : {}) } },
      });
      mine.given.push(mark);
    }
    await this.store.set(`e2e:mine:${room}`, mine);
    return { envelopes, changes, problems, waiting: false };
  }

  /**
   * Seals a group message with my current sender key, moving its chain one step (the old step is gone). With
   * `epoch` (core/group-epochs.ts `GroupMembership.seal`), version 4: the epoch is signed and the text padded.
   */
  sealGroup(envelope: Envelope, text: string, epoch?: EpochClaim): Promise<Envelope> {
    return this.serial(`mine:${envelope.room}`, () => this.sealWithChain(envelope, text, epoch));
  }

  private async sealWithChain(envelope: Envelope, text: string, epoch?: EpochClaim): Promise<Envelope> {
    const mine = await this.store.get<MySenderKey>(`e2e:mine:${envelope.room}`);
    if (!mine) throw new Error("No sender key for this group yet");
    const step = await chainStep(fromBase64Url(mine.chainKey));
    const meta = { device: this.me.record.signingKey, dh: this.me.record.publicKey, counter: mine.counter };
    await this.store.set(`e2e:mine:${envelope.room}`, { ...mine, chainKey: toBase64Url(step.next), counter: mine.counter + 1 });
    const v = epoch ? SIGNED_ENTRIES_VERSION : E2E_VERSION;
    const header = canonicalHeader(headerOf(envelope, meta, mine.keyId), v);
    const content = await seal(await contentKey(step.messageKey, header), epoch ? padText(text) : text, header);
    const sig = await this.sign(header, content.iv, content.ciphertext, epoch ? epochBytes(epoch) : "");
    return {
      ...envelope,
      isEncrypted: true,
      content: { ...content, keyId: mine.keyId },
      meta: { e2e: { v, ...meta, sig, ...(epoch ? { epoch } : {}) } },
    };
  }

  /**
   * Keeps a sender key handed to this device, stored by (sender, device, key id); never overwritten. A version 4
   * handout's signed epoch goes through `gate` first; once a sender device handed out version 4 in the room, its
   * older handouts are refused (`downgraded`).
   */
  async acceptSenderKey(
    envelope: Envelope,
    gate?: EpochGate,
  ): Promise<{ ok: true; changes: TrustChange[]; problems: TrustProblem[] } | { ok: false; reason: OpenFailure }> {
    if (envelope.type !== "key") return { ok: false, reason: "malformed" };
    const auth = await this.authenticate(envelope);
    if (!auth.ok) return auth;
    const { meta, header, content } = auth;
    if (meta.to !== this.me.record.publicKey || meta.for !== this.userId) return { ok: false, reason: "not-for-this-device" };
    const v4 = meta.v === SIGNED_ENTRIES_VERSION;
    const floor = v4HandoutKey(envelope.room, envelope.senderId, meta.device);
    if (!v4 && (await this.store.get(floor))) return { ok: false, reason: "downgraded" };
    if (gate) {
      const refused = await gate(meta.epoch ?? null, "key");
      if (refused) return { ok: false, reason: refused };
    }
    const id = `${envelope.room}|${envelope.senderId}|${meta.device}|${content.keyId}`;
    return this.serial(`sk:${id}`, async () => {
      if (await this.store.get(`e2e:sk:${id}`)) return { ok: false, reason: "key-overwrite" } as const;
      try {
        const ad = `${header}|to|${meta.to}`;
        let sealed: string;
        if (meta.v === DIRECT_VERSION || v4) {
          const mine = meta.keys?.find((k) => k?.to === this.me.record.publicKey);
          const entry = mine && readRatchetEntry(mine);
          if (!entry) return { ok: false, reason: "malformed" } as const;
          sealed = await this.ratchetOpen(auth.sender, entry, ad, async (mk) =>
            unseal(await contentKey(fromBase64Url(mk), header), content, ad),
          );
        } else sealed = await unseal(await this.pairwise(meta.dh, envelope.room), content, ad);
        const payload = JSON.parse(sealed) as Partial<ChainState & { keyId: string }>;
        if (payload.keyId !== content.keyId || typeof payload.chainKey !== "string" || payload.counter !== meta.counter)
          return { ok: false, reason: "malformed" } as const;
        await this.store.set(`e2e:sk:${id}`, {
          chainKey: payload.chainKey,
          counter: payload.counter,
          skipped: {},
          ...(v4 ? { v4: true as const } : {}),
        } satisfies ChainState);
        if (v4) await this.store.set(floor, true);
        return { ok: true, changes: auth.changes, problems: auth.problems } as const;
      } catch {
        return { ok: false, reason: "undecryptable" } as const;
      }
    });
  }
}
