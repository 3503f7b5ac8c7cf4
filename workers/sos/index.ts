// One SOS module for every channel (web, USSD, WhatsApp): record the broadcast, put an emergency envelope in
// the area room, notify and push to people in that area, message the sender's emergency contacts, and say
// what was reached. Idempotent per (user, clientRequestId); one failing channel never stops the others.
import { AREA_USERS_KEY, edgeCached } from "../admin/edge-cache";
import { countTrouble } from "../analytics";
import { DEFAULT_TTL, type Envelope, EnvelopeSchema, nearbyRoomId } from "../../core/envelope";
import { nameForOthers } from "../../core/names";
import { distanceMetres } from "../../core/geohash";
import { placeFromText, resolveArea } from "../../core/places";
import type { EmergencyType, NearbySos, SosFanoutMessage, SosReached } from "../../core/sos-schemas";
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
} from "../../db/queries/emergency";
import {
  areaPage,
  claimContact,
  contactAttempts,
  countAreaPeople,
  finishJob,
  markStepDone,
  pagesRequeued,
  stalePages,
  stepsOf,
  unfinishedJobs,
} from "../../db/queries/sos-jobs";
import { outboundDelivered } from "../../db/queries/outbox";
import { faultPoint, InjectedFault } from "../../core/faults";
import { findPhoneChannel } from "../../db/queries/phone-channels";
import { findUserById, saveUserLocation } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { awardSosHelped } from "../rewards";
import { notify } from "../notifications";
import { sendMessage } from "../services/messaging";
import { phoneLanguage } from "../channels";
import { forgetSosCell } from "./banner";
import { type ChannelLanguage, fill, resolveChannelLanguage } from "../../core/channel-language";
import { auditAction } from "../admin";
import { ADDRESS_LIMITS } from "../limits";
import {
  alertOnce,
  areaCells,
  CLAIM_LEASE_MS,
  INLINE_RECIPIENTS,
  nextPage,
  peopleMessages,
  planMessage,
  queueTracked,
  recordSosSent,
  sendAll,
  typeLabel,
} from "./fanout";
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
      // The sender's own request id: a phone that already showed this SOS from the phone mesh (where it travelled
      // with that id) shows it once (docs/decisions/066-phones-paired-by-code.md).
      clientRequestId: row.clientRequestId,
      emergencyType: row.emergencyType,
      channel: row.channel,
      location: row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null,
      locationText: row.locationText,
    },
  });
}

/** The WhatsApp/SMS to an emergency contact, in the contact's language (docs/decisions/031-web-app-languages.md). */
async function contactText(row: BroadcastRow, sender: User, language: ChannelLanguage): Promise<string> {
  // The phone channels' texts (every language's USSD and WhatsApp words) load with the first SOS that messages a
  // contact, not with every isolate (docs/decisions/082-a-worker-that-starts-small.md).
  const texts = (await import("../../core/ussd-texts")).CHANNEL_TEXTS[language];
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

/**
 * The ids an attempt's WhatsApp and SMS to a contact are recorded under (outbound_messages): made from the SOS, the
 * contact and the attempt's number, so a later attempt finds whether an earlier one's message went (decision 054).
 */
function contactMessageIds(broadcastId: string, contactId: string, attempt: number) {
  return { whatsapp: `sos-${broadcastId}-${contactId}-${attempt}-w`, sms: `sos-${broadcastId}-${contactId}-${attempt}-s` };
}

/** Whether a message of attempts 1…`upTo` to this contact was taken (the dev outbox kept it, or Twilio accepted it). */
async function contactReached(db: Db, broadcastId: string, contactId: string, upTo: number): Promise<boolean> {
  if (upTo < 1) return false;
  const ids = Array.from({ length: upTo }, (_, i) => Object.values(contactMessageIds(broadcastId, contactId, i + 1))).flat();
  return outboundDelivered(db, ids);
}

/** WhatsApp first, SMS when WhatsApp fails; true when one of them took it. */
async function messageContact(env: AppEnv, db: Db, to: string, body: string, ids: { whatsapp: string; sms: string }): Promise<boolean> {
  const wa = await sendMessage(env, db, { to, channel: "whatsapp", body }, { id: ids.whatsapp });
  if (wa.status !== "failed") return true;
  const sms = await sendMessage(env, db, { to, channel: "sms", body }, { id: ids.sms });
  return sms.status !== "failed";
}

/** The answer to a replay of a finished job: what it reached, from its record. */
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

/** What the area step reached: the request's own alerts, and how many more the queue carries. */
interface AreaResult {
  pushed: number;
  stored: number;
  pushFailed: number;
  queued: number;
}

/**
 * The SOS job (docs/decisions/054-sos-a-durable-job.md): the room, the area and the contacts run side by side,
 * each skipped when an earlier attempt recorded it done in sos_steps and recorded when it completes; once all
 * three are done its answer is stored, and the job is finished (job_done_at) once every page it queued is reached
 * too (the last page finishes it otherwise). The first request runs it; a retry
 * with the same clientRequestId and the Cron sweep run it again, each doing only what is left. One failing
 * channel never stops the others; a failed or timed-out step is left for the sweep.
 */
export async function runSosJob(
  env: AppEnv,
  db: Db,
  row: BroadcastRow,
  user: User,
  opts: { contactsAt?: { latitude: number | null; longitude: number | null }; areaWithheld?: boolean; now?: Date } = {},
): Promise<Omit<SosResult, "created">> {
  const now = opts.now ?? new Date();
  const steps = await stepsOf(db, row.id);
  const doneResult = (step: string) => {
    const s = steps.get(step);
    return s?.state === "done" ? (s.result ?? {}) : null;
  };
  // Known to the first request (decision 047); a resumed job finds it in the answer saved so far.
  const areaWithheld = opts.areaWithheld ?? (row.reached as { areaWithheld?: boolean } | null)?.areaWithheld === true;
  const geohash = row.geohash;
  const room = geohash ? nearbyRoomId(geohash) : null;

  const roomJob = async (): Promise<number> => {
    const done = doneResult("room");
    if (done) return Number(done.delivered ?? 0);
    let delivered = 0;
    // The room keeps one envelope per id: delivering again after a crash adds nothing (durable-objects/mesh-room.ts).
    if (room) delivered = (await roomStub(env, room).deliver(sosEnvelope(row, user, room))).delivered;
    await markStepDone(db, row.id, "room", { delivered }, now);
    await faultPoint("sos.room.done", env);
    return delivered;
  };
  const contacts = await listContacts(db, user.id).catch((e) => {
    console.error("sos: loading contacts", e);
    return null;
  });
  const areaJob = async (): Promise<AreaResult> => {
    const done = doneResult("area");
    if (done) return done as unknown as AreaResult;
    const cells = areaCells(row, user);
    // Contacts who use LinkUp are alerted in the app too, wherever they are; contacts first (the sender chose
    // them), then the people most recently present in the area up to the request's share; the queue takes the rest.
    const phones = contacts?.map((c) => c.phone) ?? [];
    const contactUsers = (await userIdsByPhones(db, phones)).filter((id) => id !== user.id);
    const knownNow = contactUsers.slice(0, INLINE_RECIPIENTS);
    const snapshot = row.broadcastedAt.getTime();
    const share = INLINE_RECIPIENTS - knownNow.length;
    const firstPage = cells.length
      ? await areaPage(db, { geohashes: cells, exceptUserId: user.id, snapshot, phase: "present", after: null, size: share })
      : [];
    // The rest of the area, page by page on the queue (no cap: decision 054 replaces AREA_RECIPIENTS_MAX), each
    // message recorded as an open page of the job first, so that one the queue loses is sent again by the sweep.
    const next = cells.length ? (share > 0 ? nextPage(firstPage, share, "present") : { phase: "present" as const, after: null }) : null;
    const queuedContacts = contactUsers.length - knownNow.length;
    const [, queuedNearby] = await Promise.all([
      queueTracked(
        env,
        db,
        row.id,
        [
          ...peopleMessages(row.id, "contacts", contactUsers.slice(knownNow.length)),
          ...(next ? [planMessage(row.id, cells, next.phase, next.after)] : []),
        ],
        now,
      ),
      next?.phase === "present" ? countAreaPeople(db, cells, user.id).then((n) => Math.max(0, n - firstPage.length)) : 0,
    ]);
    await faultPoint("sos.area.queued", env);
    const [known, near] = await Promise.all([
      alertOnce(env, db, row, user, "contacts", knownNow, "sos.area", now),
      alertOnce(
        env,
        db,
        row,
        user,
        "nearby",
        firstPage.map((p) => p.id),
        "sos.area",
        now,
      ),
    ]);
    const statuses = [...known.statuses, ...near.statuses];
    const failedIds = statuses.filter(([, s]) => s === "failed").map(([u]) => u);
    // A push the service refused, and a person claimed by an attempt that may have died, go on the queue: it
    // retries the first with backoff and takes the second over once its claim lapses (decision 054).
    const leftIds = statuses.filter(([, s]) => s === "failed" || s === "sending").map(([u]) => u);
    if (leftIds.length) await queueTracked(env, db, row.id, peopleMessages(row.id, "nearby", leftIds), now);
    const result: AreaResult = {
      pushed: statuses.filter(([, s]) => s === "pushed").length,
      stored: known.stored + near.stored,
      pushFailed: failedIds.length,
      queued: queuedContacts + queuedNearby,
    };
    await markStepDone(db, row.id, "area", { ...result }, now);
    await faultPoint("sos.area.done", env);
    return result;
  };
  // The contacts are told where the sender said they are (opts.contactsAt), even when that area was not alerted.
  const contactRow = opts.contactsAt ? { ...row, ...opts.contactsAt } : row;
  const contactsJob = async (): Promise<{ ok: number; failed: number }> => {
    const done = doneResult("contacts");
    if (done) return { ok: Number(done.ok ?? 0), failed: Number(done.failed ?? 0) };
    if (!contacts) throw new Error("contacts could not be loaded");
    // A contact who never chose a language most likely reads the sender's.
    const fallback = resolveChannelLanguage(user.language) ?? "english";
    const results = await Promise.all(
      contacts.map(async (c): Promise<"ok" | "failed" | "busy"> => {
        const step = `contact:${c.phone}`;
        const before = doneResult(step);
        if (before) return before.ok ? "ok" : "failed";
        // Claimed before the message goes, numbering the attempt; the message is recorded under an id made from
        // that number, so a later attempt sees whether an earlier one's went and never sends it twice (decision 054).
        const attempt = await claimContact(db, row.id, step, CLAIM_LEASE_MS, now);
        if (attempt === null) {
          // Held by another attempt: done already if its message went (the Worker died before writing "done").
          if (await contactReached(db, row.id, c.id, await contactAttempts(db, row.id, step))) {
            await markStepDone(db, row.id, step, { ok: true }, now);
            return "ok";
          }
          return "busy";
        }
        await faultPoint("sos.contacts.claimed", env);
        const ok =
          (await contactReached(db, row.id, c.id, attempt - 1)) ||
          (await messageContact(
            env,
            db,
            c.phone,
            await contactText(contactRow, user, (await phoneLanguage(db, c.phone)) ?? fallback),
            contactMessageIds(row.id, c.id, attempt),
          ).catch(() => false));
        await faultPoint("sos.contacts.sent", env);
        await markStepDone(db, row.id, step, { ok }, now);
        return ok ? "ok" : "failed";
      }),
    );
    const ok = results.filter((r) => r === "ok").length;
    const failed = results.filter((r) => r === "failed").length;
    // A contact claimed by a live attempt: that attempt (or the sweep after it) finishes the step.
    if (results.includes("busy")) throw new Error("contacts being messaged by another attempt");
    await markStepDone(db, row.id, "contacts", { ok, failed }, now);
    await faultPoint("sos.contacts.done", env);
    return { ok, failed };
  };

  const [roomR, areaR, contactsR] = await Promise.allSettled([
    withTimeout(roomJob(), "room"),
    withTimeout(areaJob(), "area"),
    withTimeout(contactsJob(), "contacts"),
  ]);
  // An injected crash ends the whole attempt, as a dying Worker would (core/faults.ts).
  for (const r of [roomR, areaR, contactsR]) if (r.status === "rejected" && r.reason instanceof InjectedFault) throw r.reason;
  const reached: SosReached = { room: 0, push: 0, contacts: 0 };
  const failed: string[] = [];
  if (roomR.status === "fulfilled") reached.room = roomR.value;
  else {
    console.error("sos: room delivery failed", roomR.reason);
    failed.push("room");
  }
  if (areaR.status === "fulfilled") {
    reached.push = areaR.value.pushed;
    if (areaR.value.pushFailed > 0) failed.push("push");
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
  const answer = {
    ...reached,
    failed,
    queued,
    notified: areaR.status === "fulfilled" ? areaR.value.stored : 0,
    areaWithheld,
  };
  const stepsDone = [roomR, areaR, contactsR].every((r) => r.status === "fulfilled");
  // The job finishes once its pages on the queue are reached too; if some are still open, the last of them finishes it.
  if (stepsDone) {
    const finished = await finishJob(db, row.id, answer, now);
    await faultPoint("sos.finished", env);
    if (finished) await recordSosSent(db, row);
  } else await setReached(db, row.id, answer);
  return { id: row.id, reached, failed, room, queued, areaWithheld: answer.areaWithheld };
}

/** The Cron schedule of the SOS sweep (wrangler.toml). */
export const SOS_SWEEP_CRON = "* * * * *";

/** How long after it was sent an unfinished SOS job is taken to have lost its Worker (the Cron resumes it). */
export const SOS_UNFINISHED_AFTER_MS = 30_000;

/** How long an open page of the fan-out may wait, with no page of its job reached meanwhile, before it is sent again. */
export const SOS_PAGE_STALE_MS = 60_000;
/** Sends of one page by the sweep before it is given up (its message left in the dead-letter queue for staff). */
export const SOS_PAGE_REQUEUES = 5;

/**
 * The Cron sweep: SOS of the last day whose job is unfinished 30 s after it was sent are resumed from their first
 * unfinished step, and the pages of their fan-out the queue lost are sent again (a page waits SOS_PAGE_STALE_MS,
 * doubling with each re-send, and only while its job reaches nothing). Those it had to resume are counted
 * (countTrouble "sos_unfinished"); a fan-out still moving is not. Answers how many jobs it looked at.
 */
export async function resumeUnfinishedSos(env: AppEnv, db: Db, now = new Date()): Promise<number> {
  const rows = await unfinishedJobs(db, now, SOS_UNFINISHED_AFTER_MS, 20);
  for (const row of rows) {
    try {
      const steps = await stepsOf(db, row.id);
      const stepsLeft = !["room", "area", "contacts"].every((s) => steps.get(s)?.state === "done");
      const lost = await stalePages(db, row.id, now, SOS_PAGE_STALE_MS, 100);
      if (stepsLeft || lost.length) await countTrouble(db, "sos_unfinished");
      if (lost.length) {
        // Sent before noted: a sweep that dies in between sends them again next time, which the claims make harmless.
        await sendAll(
          env,
          lost.map((p) => ({ body: p.body as SosFanoutMessage })),
        );
        await pagesRequeued(
          db,
          row.id,
          lost.map((p) => p.key),
          SOS_PAGE_REQUEUES,
          now,
        );
      }
      const user = await findUserById(db, row.userId);
      // Steps all done and nothing open: the job ends here (a crash after its last page, before finishing it).
      if (user) await runSosJob(env, db, row, user, { now });
    } catch (e) {
      console.error("sos: resuming job", row.id, e);
    }
  }
  return rows.length;
}

export async function broadcastSos(env: AppEnv, db: Db, input: SosInput, _waitUntil?: WaitUntil): Promise<SosResult> {
  const user = await findUserById(db, input.userId);
  if (!user) throw new DomainError("user_not_found", "User not found");
  // A replay of an SOS already sent spends no budget: answered from its record once its job finished, otherwise
  // it resumes the job from the first unfinished step (docs/decisions/054-sos-a-durable-job.md).
  const stored = await findBroadcastByRequest(db, user.id, input.clientRequestId);
  if (stored) return replay(env, db, stored, user);
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
  if (!created) return replay(env, db, row, user);
  await forgetSosCell(row.geohash);
  await faultPoint("sos.recorded", env);

  // The sender's area is where they are now.
  if (input.location && row.geohash) {
    await saveUserLocation(db, user.id, { latitude: row.latitude, longitude: row.longitude, geohash: row.geohash }).catch((e) =>
      console.error("sos: saving location", e),
    );
  }
  // The contacts are told where the sender said they are, even when that area was not alerted.
  const answer = await runSosJob(env, db, row, user, {
    contactsAt: { latitude: asked.latitude, longitude: asked.longitude },
    areaWithheld: far && row.geohash === null,
  });
  return { ...answer, created: true };
}

/** A retry of a sent SOS: its stored answer when the job finished, else the job resumed (created: false either way). */
async function replay(env: AppEnv, db: Db, row: BroadcastRow, user: User): Promise<SosResult> {
  if (row.jobDoneAt) return storedAnswer(row);
  return { ...(await runSosJob(env, db, row, user)), created: false };
}

/** The sender, staff or an admin may resolve (staff's resolves are audited); the area room hears that it is over. */
export async function resolveSos(env: AppEnv, db: Db, id: string, by: User): Promise<BroadcastRow> {
  const row = await findBroadcast(db, id);
  if (!row) throw new DomainError("sos_not_found", "Emergency broadcast not found");
  const staff = by.role === "admin" || by.role === "staff";
  if (row.userId !== by.id && !staff) throw new DomainError("sos_resolve_refused", "Only the sender or LinkUp staff can resolve this SOS");
  if (row.status === "resolved") return row;
  const updated = (await resolveBroadcast(db, id, by.id)) ?? row;
  await forgetSosCell(row.geohash);
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
  if (!visible) throw new DomainError("sos_not_found", "Emergency broadcast not found");
  if (visible.mine) throw new DomainError("sos_own", "You cannot answer your own SOS");
  if (await insertSosResponse(db, id, by.id)) {
    await forgetSosCell(by.geohash);
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
