// One identity per person (docs/protocol.md §2, docs/decisions/063-one-identity-per-person.md): an Ed25519
// account key per person signs a versioned list of the person's devices, with the devices withdrawn from it.
// The server stores and hands out the list but cannot sign one, so it cannot add a device of its own, put a
// withdrawn device back, or serve an older list to a client that saw a newer one (the client refuses it).
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "./ids";
import { exportRawKey, utf8 } from "./webcrypto";

/** Format of the signed list (inside the signature, so a relay cannot relabel it). */
export const DEVICE_LIST_FORMAT = 1;
/** Devices a list may hold (listed and withdrawn): far above a person's phones and browsers. */
export const MAX_LISTED_DEVICES = 64;
const B64_32 = /^[A-Za-z0-9_-]{43}$/;
const B64_64 = /^[A-Za-z0-9_-]{86}$/;
const DEVICE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface ListedDevice {
  deviceId: string;
  /** X25519 key (base64url). */
  publicKey: string;
  /** The device's Ed25519 identity key (base64url). */
  signingKey: string;
}

export interface DeviceList {
  userId: string;
  /** The person's Ed25519 account key (base64url): what the safety number is made of. */
  accountKey: string;
  /** Grows by one with every change; a client refuses a list older than one it has seen. */
  version: number;
  devices: ListedDevice[];
  /** Devices withdrawn from the list; never accepted again under this account key. */
  revoked: ListedDevice[];
  signature: string;
}

const listBytes = (l: Omit<DeviceList, "signature">) =>
  utf8(
    JSON.stringify([
      "linkup-device-list",
      DEVICE_LIST_FORMAT,
      l.userId,
      l.accountKey,
      l.version,
      l.devices.map((d) => [d.deviceId, d.publicKey, d.signingKey]),
      l.revoked.map((d) => [d.deviceId, d.publicKey, d.signingKey]),
    ]),
  );

/** A new account key. Extractable only so a linked device can be handed it later (docs/decisions/061). */
export async function createAccountKey(extractable = false): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ name: "Ed25519" }, extractable, ["sign", "verify"])) as CryptoKeyPair;
}

export async function signDeviceList(account: CryptoKeyPair, l: Omit<DeviceList, "signature" | "accountKey">): Promise<DeviceList> {
  const accountKey = toBase64Url(await exportRawKey(account.publicKey));
  const body = {
    userId: l.userId,
    accountKey,
    version: l.version,
    devices: l.devices.map(pick),
    revoked: l.revoked.map(pick),
  };
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, account.privateKey, listBytes(body));
  return { ...body, signature: toBase64Url(new Uint8Array(sig)) };
}

const pick = (d: ListedDevice): ListedDevice => ({ deviceId: d.deviceId, publicKey: d.publicKey, signingKey: d.signingKey });

function readDevices(v: unknown): ListedDevice[] | null {
  if (!Array.isArray(v) || v.length > MAX_LISTED_DEVICES) return null;
  const out: ListedDevice[] = [];
  for (const d of v as Partial<ListedDevice>[]) {
    if (!d || typeof d.deviceId !== "string" || !DEVICE_ID.test(d.deviceId)) return null;
    if (typeof d.publicKey !== "string" || !B64_32.test(d.publicKey)) return null;
    if (typeof d.signingKey !== "string" || !B64_32.test(d.signingKey)) return null;
    out.push(pick(d as ListedDevice));
  }
  return out;
}

/** The list when it is well formed, names `userId` and carries its account key's signature; else null. */
export async function verifyDeviceList(value: unknown, userId?: string): Promise<DeviceList | null> {
  const l = value as Partial<DeviceList> | null;
  if (!l || typeof l !== "object" || typeof l.userId !== "string" || (userId !== undefined && l.userId !== userId)) return null;
  if (typeof l.accountKey !== "string" || !B64_32.test(l.accountKey)) return null;
  if (typeof l.version !== "number" || !Number.isSafeInteger(l.version) || l.version < 1) return null;
  if (typeof l.signature !== "string" || !B64_64.test(l.signature)) return null;
  const devices = readDevices(l.devices);
  const revoked = readDevices(l.revoked);
  if (!devices || !revoked || devices.length + revoked.length > MAX_LISTED_DEVICES) return null;
  const list: DeviceList = { userId: l.userId, accountKey: l.accountKey, version: l.version, devices, revoked, signature: l.signature };
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(l.accountKey), { name: "Ed25519" }, false, ["verify"]);
    const { signature: _, ...body } = list;
    return (await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(l.signature), listBytes(body))) ? list : null;
  } catch {
    return null;
  }
}

/** The next version of a list: `device` added (or kept), `withdraw` moved to the revoked part. */
export function nextDeviceList(
  current: Pick<DeviceList, "userId" | "version" | "devices" | "revoked"> | null,
  change: { add?: ListedDevice; withdraw?: string },
  userId: string,
): Omit<DeviceList, "signature" | "accountKey"> {
  let devices = [...(current?.devices ?? [])];
  const revoked = [...(current?.revoked ?? [])];
  if (change.add) devices = [...devices.filter((d) => d.deviceId !== change.add?.deviceId), pick(change.add)];
  if (change.withdraw) {
    const gone = devices.find((d) => d.deviceId === change.withdraw);
    if (gone) revoked.push(gone);
    devices = devices.filter((d) => d.deviceId !== change.withdraw);
  }
  // The oldest withdrawals drop off first when the list is full; clients remember the ones they saw.
  const keep = Math.max(0, MAX_LISTED_DEVICES - devices.length);
  return { userId, version: (current?.version ?? 0) + 1, devices, revoked: revoked.slice(-keep) };
}

const listedDevice = z.object({
  deviceId: z.string().regex(DEVICE_ID),
  publicKey: z.string().regex(B64_32, "Expected a 32-byte key in base64url"),
  signingKey: z.string().regex(B64_32, "Expected a 32-byte key in base64url"),
});

/** `PUT /api/keys/list`: the shape of a signed list (the signature is checked after, by verifyDeviceList). */
export const DeviceListSchema = z.object({
  accountKey: z.string().regex(B64_32, "Expected a 32-byte Ed25519 key in base64url"),
  version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  devices: z.array(listedDevice).max(MAX_LISTED_DEVICES),
  revoked: z.array(listedDevice).max(MAX_LISTED_DEVICES),
  signature: z.string().regex(B64_64, "Expected a 64-byte Ed25519 signature in base64url"),
});
export type DeviceListInput = z.infer<typeof DeviceListSchema>;
