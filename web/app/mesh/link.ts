// Linking a new device from one the person already uses (docs/protocol.md §2a, core/device-link.ts). The old
// device starts a link and shows its code; the new device types it and sends its record under the code's MAC; the
// old device checks the MAC, the person confirms, and it signs the next device list and seals the account key to
// the new device. The code's secret stays on the two screens: the server sees the link id only.
import type { LinkGrant, LinkKeys, LinkRequest, LinkView } from "../../../core/device-link";
import { kvGet, kvSet } from "./db";
import { accountKeyOf, fetchDeviceList, forgetDeviceLists, publishDeviceKey, session, type StoredAccount } from "./keys";

const link = () => import("../../../core/device-link");
const lists = () => import("../../../core/device-list");

/** Why a link could not go on, as the screen says it (each has a line in the catalogs). */
export type LinkProblem = "no-account-key" | "wrong-code" | "expired" | "too-many" | "not-listed" | "failed";

export class LinkError extends Error {
  constructor(readonly problem: LinkProblem) {
    super(problem);
  }
}

const POLL_MS = 2000;

async function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const res = await fetch(path, {
    ...init,
    credentials: "include",
    headers: init.json === undefined ? undefined : { "content-type": "application/json" },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (res.status === 404) throw new LinkError("expired");
  if (res.status === 429) throw new LinkError("too-many");
  if (!res.ok) throw new LinkError("failed");
  return res;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Polls the link until `pick` finds what the other device sent. */
async function waitFor<T>(id: string, pick: (view: LinkView) => T | null, signal?: AbortSignal): Promise<T> {
  for (;;) {
    const view = (await (await api(`/api/device-links/${id}`, { signal })).json()) as LinkView;
    const found = pick(view);
    if (found) return found;
    await sleep(POLL_MS, signal);
  }
}

/** The account key this device holds for the person, when its list is signed by it. */
async function heldAccount(userId: string): Promise<StoredAccount | null> {
  const account = await kvGet<StoredAccount>("account:v1");
  if (!account || account.userId !== userId) return null;
  const { verifyDeviceList } = await lists();
  const current = await verifyDeviceList(await fetchDeviceList(userId, true), userId);
  return current && current.accountKey === (await accountKeyOf(account.pair)) ? account : null;
}

/** What this device can do: link others (it holds the account key), or wait to be linked. */
export async function linkRole(userId: string): Promise<"holds-key" | "linked" | "not-linked"> {
  await publishDeviceKey(userId).catch(() => {});
  if (await heldAccount(userId)) return "holds-key";
  const [{ verifyDeviceList }, s] = await Promise.all([lists(), session()]);
  const current = await verifyDeviceList(await fetchDeviceList(userId, true), userId);
  return current?.devices.some((d) => d.signingKey === s.me.record.signingKey) ? "linked" : "not-linked";
}

export interface StartedLink {
  id: string;
  /** The code as shown, in groups of four: the link id and the secret. */
  code: string;
  expiresAt: number;
  keys: Promise<LinkKeys>;
}

/** On the old device: starts a link (the code's secret is made here and never sent). */
export async function startLink(userId: string): Promise<StartedLink> {
  if (!(await heldAccount(userId))) throw new LinkError("no-account-key");
  const { formatLinkCode, linkKeys, randomCodeChars, LINK_SECRET_LENGTH } = await link();
  const { id, expiresAt } = (await (await api("/api/device-links", { method: "POST" })).json()) as { id: string; expiresAt: string };
  const secret = randomCodeChars(LINK_SECRET_LENGTH);
  const keys = linkKeys(userId, id, secret);
  keys.catch(() => {});
  return { id, code: formatLinkCode(id, secret), expiresAt: Date.parse(expiresAt), keys };
}

/**
 * On the old device: waits for the new device's record and checks it came from the device the code was typed
 * on (the MAC) and holds its identity key (its record's signature). A wrong code spends the link.
 */
export async function waitForNewDevice(
  userId: string,
  started: StartedLink,
  signal?: AbortSignal,
): Promise<{ request: LinkRequest; fingerprint: string }> {
  const { checkLinkRequest, linkFingerprint } = await link();
  const { verifyDeviceRecord } = await import("../../../core/e2e");
  const request = await waitFor(started.id, (v) => v.request, signal);
  const genuine =
    (await checkLinkRequest(await started.keys, userId, started.id, request)) && (await verifyDeviceRecord({ ...request, userId }, userId));
  if (!genuine) {
    await cancelLink(started.id);
    throw new LinkError("wrong-code");
  }
  return { request, fingerprint: await linkFingerprint(request.signingKey) };
}

/** On the old device, after the person confirmed: the next list with the new device, and its account key sealed. */
export async function confirmNewDevice(userId: string, started: StartedLink, request: LinkRequest): Promise<void> {
  const account = await heldAccount(userId);
  if (!account) throw new LinkError("no-account-key");
  const [{ sealLinkGrant }, { nextDeviceList, signDeviceList, verifyDeviceList }] = await Promise.all([link(), lists()]);
  const current = await verifyDeviceList(await fetchDeviceList(userId, true), userId);
  // The list this device holds the key of, or nothing is signed (a list without it would drop every device).
  if (!current || current.accountKey !== (await accountKeyOf(account.pair))) throw new LinkError("failed");
  const added = { deviceId: request.deviceId, publicKey: request.publicKey, signingKey: request.signingKey };
  const { userId: _, ...body } = await signDeviceList(account.pair, nextDeviceList(current, { add: added }, userId));
  await api("/api/keys/list", { method: "PUT", json: body });
  forgetDeviceLists(userId);
  const grant: LinkGrant = await sealLinkGrant(await started.keys, userId, started.id, request.signingKey, account.pair);
  await api(`/api/device-links/${started.id}/grant`, { method: "PUT", json: grant });
}

/** Either device gives up: the code is spent. */
export async function cancelLink(id: string): Promise<void> {
  await api(`/api/device-links/${id}`, { method: "DELETE" }).catch(() => {});
}

export interface PendingLink {
  id: string;
  /** Eight digits the old device shows too. */
  fingerprint: string;
  keys: LinkKeys;
}

/** On the new device: sends this device's record under the typed code's MAC. */
export async function offerThisDevice(userId: string, typed: string): Promise<PendingLink> {
  const { linkFingerprint, linkKeys, macLinkRequest, parseLinkCode } = await link();
  const code = parseLinkCode(typed);
  if (!code) throw new LinkError("wrong-code");
  await publishDeviceKey(userId).catch(() => {});
  const s = await session();
  const { userId: _, ...record } = s.me.record;
  const keys = await linkKeys(userId, code.id, code.secret);
  await api(`/api/device-links/${code.id}/request`, { method: "PUT", json: await macLinkRequest(keys, userId, code.id, record) });
  return { id: code.id, fingerprint: await linkFingerprint(record.signingKey), keys };
}

/** On the new device: waits for the account key, keeps it, and checks this device is in the list it signs. */
export async function finishLink(userId: string, pending: PendingLink, signal?: AbortSignal): Promise<void> {
  const [{ openLinkGrant }, { verifyDeviceList }, s] = await Promise.all([link(), lists(), session()]);
  const grant = await waitFor(pending.id, (v) => v.grant, signal);
  const opened = await openLinkGrant(pending.keys, userId, pending.id, s.me.record.signingKey, grant);
  await cancelLink(pending.id);
  if (!opened) throw new LinkError("wrong-code");
  const current = await verifyDeviceList(await fetchDeviceList(userId, true), userId);
  if (current?.accountKey !== opened.accountKey || !current.devices.some((d) => d.signingKey === s.me.record.signingKey))
    throw new LinkError("not-listed");
  await kvSet("account:v1", { userId, pair: opened.pair } satisfies StoredAccount);
  forgetDeviceLists(userId);
}
