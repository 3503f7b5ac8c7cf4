// One SOS module for every channel (web, USSD, WhatsApp): record the broadcast, put an emergency envelope in
// the area room, notify and push to people in that area, message the sender's emergency contacts, and say
// what was reached. Idempotent per (user, clientRequestId); one failing channel never stops the others.
import { AREA_USERS_KEY, edgeCached } from "../admin/edge-cache";
import { coarseArea, recordEvent } from "../analytics";
import { DEFAULT_TTL, type Envelope, EnvelopeSchema, nearbyRoomId } from "../../core/envelope";
import { nameForOthers } from "../../core/names";
import { distanceMetres, neighbourhoodCells } from "../../core/geohash";
import { placeFromText, resolveArea } from "../../core/places";
import type { EmergencyType, NearbySos, SosReached } from "../../core/sos-schemas";
import type { Db } from "../../db";
import {
  activeBroadcastsNear,
  type BroadcastRow,
  countUsersInArea,
  findBroadcast,
  findBroadcastByRequest,
  insertBroadcastWithinLimits,
  listContacts,
  insertSosResponse,
  resolveBroadcast,
  sosResponders,
  setReached,
  userIdsByPhones,
  userIdsInArea,
  userIdsInAreas,
} from "../../db/queries/emergency";
import { findPhoneChannel } from "../../db/queries/phone-channels";
import { findUserById, saveUserLocation } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { awardSosHelped } from "../rewards";
import { notify, notifyMany } from "../notifications";
import { sendMessage } from "../services/messaging";
import { phoneLanguage } from "../channels";
import { CHANNEL_TEXTS, type ChannelLanguage, fill, resolveChannelLanguage } from "../../core/ussd-texts";
import { auditAction } from "../admin";
import { ADDRESS_LIMITS } from "../limits";
import { enqueueFanout, INLINE_RECIPIENTS, sosAlert, typeLabel } from "./fanout";
import { hasProvenPhone, isFarSos, knownPosition, sosLimits, tooManySos } from "./limits";
import { roomStub } from "../rooms/stub";

export interface SosInput {
  userId: string;
  message: string;
  emergencyType: string;
  location?: { latitude: number; longitude: number };
  locationText?: string;
  clientRequestId: string;
  channel: "web" | "ussd" | "whatsapp";
  /** The web caller's address (workers/limits clientAddress): senders without a verified phone share its budget. */
  clientAddress?: string | null;
}

export interface SosResult {
  id: string;
  created: boolean;
  reached: SosReached;
  /** Channels that failed: "room", "push", "contacts", "notifications". */
  failed: string[];
  /** The area room the SOS went to, or null when no location was known. */
  room: string | null;
  /** People alerted through the queue after the answer (an area too big for one request). */
  queued: number;
  /** The SOS named an area far from where the sender was known to be and did not alert it (decision 047). */
  areaWithheld: boolean;
}

type WaitUntil = (p: Promise<unknown>) => void;

/** How long one channel may take before it counts as failed (the others are not held up by it). */
const CHANNEL_TIMEOUT_MS = 15_000;
/** Nearby list: active SOS within this distance, from the last day. */
export const NEARBY_RADIUS_M = 10_000;
const NEARBY_WINDOW_MS = 24 * 3600 * 1000;
/** The default of SOS_PER_PERSON_PER_HOUR (workers/limits). */
export const MAX_SOS_PER_HOUR = ADDRESS_LIMITS.sos.defaultLimit;

async function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out`)), CHANNEL_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Where an SOS comes from, most precise first: the position sent with it, a place typed with it, the sender's
 * position, the phone channel's last place (USSD, WhatsApp), the profile's town. The area room then follows from
 * `resolveArea`, the same rule rooms use (docs/decisions/009-one-place-one-room.md).
 */
async function resolveLocation(db: Db, user: User, input: SosInput) {
  if (input.location) return { ...input.location, locationText: input.locationText ?? null };
  if (input.locationText && placeFromText(input.locationText)) return { latitude: null, longitude: null, locationText: input.locationText };
  if (user.latitude !== null && user.longitude !== null)
    return { latitude: user.latitude, longitude: user.longitude, locationText: input.locationText ?? user.locationText };
  if ((input.channel === "ussd" || input.channel === "whatsapp") && user.phone) {
    const pc = await findPhoneChannel(db, user.phone);
    if (pc?.latitude != null && pc.longitude != null)
      return { latitude: pc.latitude, longitude: pc.longitude, locationText: input.locationText ?? pc.locationText };
    if (pc?.locationText) return { latitude: null, longitude: null, locationText: input.locationText ?? pc.locationText };
  }
  return { latitude: null, longitude: null, locationText: input.locationText ?? user.locationText ?? null };
}

export function sosEnvelope(row: BroadcastRow, sender: Pick<User, "id" | "nickname" | "anonymousMode">, room: string): Envelope {
  return EnvelopeSchema.parse({
    id: `sos-${row.id}`,
    room,
    senderId: sender.id,
    // The name the area room shows of them (anonymous mode included, core/names.ts).
    senderName: nameForOthers(sender, room),
    timestamp: row.broadcastedAt.getTime(),
    type: "emergency",
    ttl: DEFAULT_TTL,
    meshRoute: [],
    isEncrypted: false,
    priority: "high",
    content: { text: `🚨 SOS — ${typeLabel(row.emergencyType)}: ${row.message}${row.locationText ? ` (${row.locationText})` : ""}` },
    meta: {
      sosId: row.id,
      emergencyType: row.emergencyType,
      channel: row.channel,
      location: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null,
      locationText: row.locationText,
    },
  });
}

/** The WhatsApp/SMS to an emergency contact, in the contact's language (docs/decisions/031-web-app-languages.md). */
function contactText(row: BroadcastRow, sender: User, language: ChannelLanguage): string {
  const texts = CHANNEL_TEXTS[language];
  const place =
    row.latitude !== null && row.longitude !== null
      ? `https://maps.google.com/?q=${row.latitude.toFixed(5)},${row.longitude.toFixed(5)}${row.locationText ? ` (${row.locationText})` : ""}`
      : row.locationText;
  return fill(texts.sosContact, {
    name: sender.nickname,
    phone: sender.phone ? ` (${sender.phone})` : "",
    type: texts.types[row.emergencyType as EmergencyType] ?? row.emergencyType,
    message: row.message,
    where: place ? fill(texts.sosContactWhere, { place }) : "",
  });
}

/** WhatsApp first, SMS when WhatsApp fails; true when one of them took it. */
async function messageContact(env: AppEnv, db: Db, to: string, body: string): Promise<boolean> {
  const wa = await sendMessage(env, db, { to, channel: "whatsapp", body });
  if (wa.status !== "failed") return true;
  const sms = await sendMessage(env, db, { to, channel: "sms", body });
  return sms.status !== "failed";
}

/** The answer to a replay: what the first request of this clientRequestId reached, from its record. */
function storedAnswer(row: BroadcastRow): SosResult {
  const prev = (row.reached ?? {}) as Partial<SosReached> & { failed?: string[]; queued?: number; areaWithheld?: boolean };
  return {
    id: row.id,
    created: false,
    reached: { room: prev.room ?? 0, push: prev.push ?? 0, contacts: prev.contacts ?? 0 },
    failed: prev.failed ?? [],
    room: row.geohash ? nearbyRoomId(row.geohash) : null,
    queued: typeof prev.queued === "number" ? prev.queued : 0,
    areaWithheld: prev.areaWithheld === true,
  };
}

export async function broadcastSos(env: AppEnv, db: Db, input: SosInput, waitUntil?: WaitUntil): Promise<SosResult> {
  const user = await findUserById(db, input.userId);
  if (!user) throw new DomainError("not_found", "User not found");
  // A replay of an SOS already sent is answered from its record and spends no budget.
  const stored = await findBroadcastByRequest(db, user.id, input.clientRequestId);
  if (stored) return storedAnswer(stored);
  const asked = await resolveLocation(db, user, input);
  // An area far from where the sender was known to be needs a proven phone and its own hourly budget; otherwise
  // the SOS keeps the place in words and goes to the contacts (with the map link) but to no area (decision 047).
  const far = isFarSos(await knownPosition(db, user, input.channel), input);
  const limits = await sosLimits(env, { user, channel: input.channel, clientAddress: input.clientAddress });
  const values = {
    userId: user.id,
    clientRequestId: input.clientRequestId,
    channel: input.channel,
    emergencyType: input.emergencyType,
    message: input.message,
  };
  const withheld = { ...values, latitude: null, longitude: null, locationText: asked.locationText, geohash: null, farArea: false };
  const areaGeohash = resolveArea(asked)?.geohash ?? null;
  // One insert counts the limits (docs/decisions/047-limits-taken-atomically.md); past them 429.
  let inserted =
    far && !hasProvenPhone(user, input.channel)
      ? await insertBroadcastWithinLimits(db, withheld, limits)
      : await insertBroadcastWithinLimits(db, { ...values, ...asked, geohash: areaGeohash, farArea: far }, limits);
  // The far budget spent: the contacts still hear.
  if ("refused" in inserted && far && hasProvenPhone(user, input.channel))
    inserted = await insertBroadcastWithinLimits(db, withheld, limits);
  if ("refused" in inserted) throw tooManySos(inserted.retryAfterSeconds);
  const { row, created } = inserted;
  if (!created) return storedAnswer(row);
  const areaWithheld = far && row.geohash === null;
  const geohash = row.geohash;
  const loc = { latitude: row.latitude, longitude: row.longitude, locationText: row.locationText };
  const room = geohash ? nearbyRoomId(geohash) : null;

  // The sender's area is where they are now.
  if (input.location && geohash) {
    await saveUserLocation(db, user.id, { latitude: loc.latitude, longitude: loc.longitude, geohash }).catch((e) =>
      console.error("sos: saving location", e),
    );
  }

  const roomJob = async () => {
    if (!room) return 0;
    const stub = roomStub(env, room);
    const { delivered } = await stub.deliver(sosEnvelope(row, user, room));
    return delivered;
  };
  const contacts = await listContacts(db, user.id).catch((e) => {
    console.error("sos: loading contacts", e);
    return null;
  });
  const areaJob = async () => {
    // Premium's extended range: a paying sender's SOS also reaches the neighbouring cells (about 10 km).
    const extended = user.subscriptionTier !== "free" && loc.latitude !== null && loc.longitude !== null;
    const inArea = !geohash
      ? []
      : extended
        ? await userIdsInAreas(db, neighbourhoodCells(loc.latitude as number, loc.longitude as number), user.id)
        : await userIdsInArea(db, geohash, user.id);
    // Contacts who use LinkUp are alerted in the app too, wherever they are.
    const area = new Set(inArea);
    const phones = contacts?.map((c) => c.phone) ?? [];
    const contactUsers = (await userIdsByPhones(db, phones)).filter((id) => id !== user.id && !area.has(id));
    // Contacts first (the sender chose them), then people nearby up to the request's share; the queue takes the rest.
    const knownNow = contactUsers.slice(0, INLINE_RECIPIENTS);
    const nearNow = inArea.slice(0, INLINE_RECIPIENTS - knownNow.length);
    // The queue sends and the request's own alerts run side by side (docs/decisions/043-room-speed-and-shards.md).
    const [queuedContacts, queuedNearby, near, known] = await Promise.all([
      enqueueFanout(env, row.id, "contacts", contactUsers.slice(knownNow.length)),
      enqueueFanout(env, row.id, "nearby", inArea.slice(nearNow.length)),
      notifyMany(env, db, nearNow, sosAlert(row, user, "nearby")),
      notifyMany(env, db, knownNow, sosAlert(row, user, "contacts")),
    ]);
    const queued = queuedContacts + queuedNearby;
    return {
      stored: near.stored + known.stored,
      pushed: near.pushed + known.pushed,
      pushFailed: near.pushFailed + known.pushFailed,
      queued,
    };
  };
  // The contacts are told where the sender said they are, even when that area was not alerted.
  const contactRow = { ...row, latitude: asked.latitude, longitude: asked.longitude };
  const contactsJob = async () => {
    if (!contacts) throw new Error("contacts could not be loaded");
    // A contact who never chose a language most likely reads the sender's.
    const fallback = resolveChannelLanguage(user.language) ?? "english";
    const results = await Promise.allSettled(
      contacts.map(async (c) =>
        messageContact(env, db, c.phone, contactText(contactRow, user, (await phoneLanguage(db, c.phone)) ?? fallback)),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled" && r.value).length;
    return { ok, failed: contacts.length - ok };
  };

  const [roomR, areaR, contactsR] = await Promise.allSettled([
    withTimeout(roomJob(), "room"),
    withTimeout(areaJob(), "area"),
    withTimeout(contactsJob(), "contacts"),
  ]);
  const reached: SosReached = { room: 0, push: 0, contacts: 0 };
  const failed: string[] = [];
  if (roomR.status === "fulfilled") reached.room = roomR.value;
  else {
    console.error("sos: room delivery failed", roomR.reason);
    failed.push("room");
  }
  if (areaR.status === "fulfilled") {
    reached.push = areaR.value?.pushed ?? 0;
    if (areaR.value && areaR.value.pushFailed > 0) failed.push("push");
  } else {
    console.error("sos: area notifications failed", areaR.reason);
    failed.push("notifications", "push");
  }
  if (contactsR.status === "fulfilled") {
    reached.contacts = contactsR.value.ok;
    if (contactsR.value.failed > 0) failed.push("contacts");
  } else {
    console.error("sos: contacts failed", contactsR.reason);
    failed.push("contacts");
  }

  const queued = areaR.status === "fulfilled" ? areaR.value.queued : 0;
  const save = setReached(db, row.id, {
    ...reached,
    failed,
    queued,
    notified: areaR.status === "fulfilled" ? (areaR.value?.stored ?? 0) : 0,
    areaWithheld,
  });
  if (waitUntil) waitUntil(save.catch((e) => console.error("sos: saving reach", e)));
  else await save;
  await recordEvent(db, `sos.${input.channel}`, { area: coarseArea(geohash), userId: user.id });
  return { id: row.id, created: true, reached, failed, room, queued, areaWithheld };
}

/** The sender, staff or an admin may resolve (staff's resolves are audited); the area room hears that it is over. */
export async function resolveSos(env: AppEnv, db: Db, id: string, by: User): Promise<BroadcastRow> {
  const row = await findBroadcast(db, id);
  if (!row) throw new DomainError("not_found", "Emergency broadcast not found");
  const staff = by.role === "admin" || by.role === "staff";
  if (row.userId !== by.id && !staff) throw new DomainError("forbidden", "Only the sender or LinkUp staff can resolve this SOS");
  if (row.status === "resolved") return row;
  const updated = (await resolveBroadcast(db, id, by.id)) ?? row;
  // Resolved by its sender or staff: the people who answered it helped in a real emergency.
  await awardSosHelped(db, row.id, await sosResponders(db, row.id));
  if (row.userId !== by.id) await auditAction(db, by, "sos.resolved", row.id, { status: row.status }, { status: "resolved" });
  if (row.geohash) {
    const room = nearbyRoomId(row.geohash);
    const envelope = EnvelopeSchema.parse({
      id: `sos-resolved-${row.id}`,
      room,
      senderId: by.id,
      senderName: nameForOthers(by, room),
      timestamp: Date.now(),
      type: "system",
      ttl: DEFAULT_TTL,
      meshRoute: [],
      isEncrypted: false,
      priority: "high",
      content: { text: `SOS resolved: ${typeLabel(row.emergencyType)} — ${row.message.slice(0, 80)}` },
      meta: { sosId: row.id, resolved: true },
    });
    await roomStub(env, room)
      .deliver(envelope)
      .catch((e: unknown) => console.error("sos: resolve notice", e));
  }
  return updated;
}

/**
 * "I'm coming to help": a person who can see an active SOS near them (not their own) answers it. The sender's
 * resolve later earns responders their "SOS helped" points. Idempotent.
 */
export async function respondToSos(
  env: AppEnv,
  db: Db,
  id: string,
  by: User,
  waitUntil?: WaitUntil,
): Promise<{ id: string; responded: true }> {
  const visible = (await nearbySos(db, by)).items.find((i) => i.id === id && i.status === "active");
  if (!visible) throw new DomainError("not_found", "Emergency broadcast not found");
  if (visible.mine) throw new DomainError("invalid", "You cannot answer your own SOS");
  if (await insertSosResponse(db, id, by.id)) {
    // The sender learns that help is on the way; who answered stays private (anonymous mode).
    await notify(
      env,
      db,
      visible.userId,
      {
        type: "emergency",
        title: "Help is coming",
        content: "Someone nearby answered your SOS and is coming to help.",
        priority: "high",
        url: "/emergency",
        source: "sos",
      },
      waitUntil,
    );
  }
  return { id, responded: true };
}

/** Active SOS near the user (their last reported location), plus their own, nearest first. */
export async function nearbySos(
  db: Db,
  viewer: User,
  now = Date.now(),
): Promise<{ items: NearbySos[]; hasLocation: boolean; areaUsers: number }> {
  const here = viewer.latitude !== null && viewer.longitude !== null ? { latitude: viewer.latitude, longitude: viewer.longitude } : null;
  const dLat = NEARBY_RADIUS_M / 111_320;
  const box = here
    ? {
        minLat: here.latitude - dLat,
        maxLat: here.latitude + dLat,
        minLon: here.longitude - dLat / Math.max(0.01, Math.cos((here.latitude * Math.PI) / 180)),
        maxLon: here.longitude + dLat / Math.max(0.01, Math.cos((here.latitude * Math.PI) / 180)),
      }
    : null;
  const rows = await activeBroadcastsNear(db, { userId: viewer.id, geohash: viewer.geohash, box, since: new Date(now - NEARBY_WINDOW_MS) });
  const items = rows
    .map(({ broadcast: b, senderName, senderAnonymous }) => {
      const distance =
        here && b.latitude !== null && b.longitude !== null ? distanceMetres(here, { latitude: b.latitude, longitude: b.longitude }) : null;
      const mine = b.userId === viewer.id;
      return {
        id: b.id,
        userId: b.userId,
        senderName: mine ? "You" : nameForOthers({ id: b.userId, nickname: senderName, anonymousMode: senderAnonymous }),
        mine,
        emergencyType: b.emergencyType,
        message: b.message,
        locationText: b.locationText,
        distanceMetres: distance === null ? null : Math.round(distance),
        broadcastedAt: b.broadcastedAt.toISOString(),
        status: b.status,
        canResolve: mine || viewer.role === "admin" || viewer.role === "staff",
      } satisfies NearbySos;
    })
    .filter((i) => i.mine || i.distanceMetres === null || i.distanceMetres <= NEARBY_RADIUS_M)
    .sort((a, b) => (a.distanceMetres ?? Number.MAX_SAFE_INTEGER) - (b.distanceMetres ?? Number.MAX_SAFE_INTEGER));
  // A live figure: LinkUp users whose last reported location is in the viewer's area cell (them included),
  // counted at most once a minute per cell and location (docs/decisions/057-pages-ask-once-and-replicas.md).
  const cell = viewer.geohash;
  const areaUsers = cell ? await edgeCached(`${AREA_USERS_KEY}${encodeURIComponent(cell)}`, 60, () => countUsersInArea(db, cell)) : 0;
  return { items, hasLocation: here !== null, areaUsers };
}
