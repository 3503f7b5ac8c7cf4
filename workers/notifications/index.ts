// The notification centre's one way in: store the notification and push it to the user's browsers,
// respecting their preferences and quiet hours (docs/architecture.md §8). Emergencies are never held back by quiet hours.
import {
  inQuietHours,
  type NotificationPrefs,
  type NotificationPriority,
  type NotificationType,
  PREF_FOR_TYPE,
} from "../../core/sos-schemas";
import type { Db } from "../../db";
import {
  deletePushEndpoint,
  getPrefsFor,
  hasOpenConnection,
  insertNotifications,
  type NotificationRow,
  type PushSubscriptionRow,
  pushTargetsFor,
} from "../../db/queries/notifications";
import { languagesOf, stealthUserIds } from "../../db/queries/users";
import type { AppEnv } from "../env";
import { loadTranslator, type Translate } from "../../core/i18n/load-catalog";
import { chooseLanguage, type UiLanguage } from "../../core/i18n/languages";
import { sendPush, vapidConfigured } from "../services/push";

export interface NotifyInput {
  type: NotificationType;
  title: string;
  content: string;
  priority: NotificationPriority;
  url?: string;
  source?: string;
  actionRequired?: boolean;
  /**
   * The title and content in each person's language (docs/decisions/031-web-app-languages.md); `title` and
   * `content` above stay the English ones, used where this gives none.
   */
  localized?: (t: Translate) => { title?: string; content?: string };
}

export interface NotifyResult {
  /** Users who got a row in their notification centre (their preference for the type is on). */
  stored: number;
  /** Browsers the push service accepted a push for. */
  pushed: number;
  /** Pushes the push service refused or could not be reached for (expired ones are removed, not counted). */
  pushFailed: number;
  /** Expired subscriptions removed (404/410). */
  removed: number;
  /** Users whose push was held back by quiet hours. */
  held: number;
  ids: string[];
  /** The stored rows, and the users at least one browser took a push for / whose every push failed. */
  rows: NotificationRow[];
  pushedUsers: Set<string>;
  failedUsers: Set<string>;
}

type WaitUntil = (p: Promise<unknown>) => void;

export function pushPayload(row: Pick<NotificationRow, "id" | "type" | "title" | "content" | "priority" | "url">) {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.content,
    url: row.url ?? "/notifications",
    priority: row.priority,
    // One emergency per tag replaces, never stacks; other types group by type.
    tag: row.type === "emergency" ? `sos-${row.id}` : `linkup-${row.type}`,
  };
}

/** What a lock screen shows in stealth mode: that something came, never what or from whom. */
export function stealthPayload(row: Pick<NotificationRow, "id" | "type" | "priority">) {
  return {
    id: row.id,
    type: "system" as NotificationRow["type"],
    title: "New notification",
    body: "Open the app to read it.",
    url: "/notifications",
    priority: row.priority,
    tag: row.type === "emergency" ? `n-${row.id}` : "n",
  };
}

/** The push payload for a person: neutral when their stealth mode is on. */
export function payloadFor(row: Parameters<typeof pushPayload>[0], stealth: boolean) {
  return stealth ? stealthPayload(row) : pushPayload(row);
}

/** Pushes to many subscriptions with a little parallelism; removes the ones the push service says are gone. */
export async function pushToSubscriptions(
  env: AppEnv,
  db: Db,
  jobs: { sub: PushSubscriptionRow; payload: ReturnType<typeof pushPayload>; urgent: boolean }[],
): Promise<{ pushed: number; failed: number; removed: number; pushedUsers: Set<string>; failedUsers: Set<string> }> {
  let pushed = 0,
    failed = 0,
    removed = 0;
  const pushedUsers = new Set<string>();
  const failedUsers = new Set<string>();
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const outcome = await sendPush(env, job.sub, job.payload, {
        urgency: job.urgent ? "high" : "normal",
        ttlSeconds: job.urgent ? 6 * 3600 : 24 * 3600,
      });
      if (outcome.ok) {
        pushed++;
        pushedUsers.add(job.sub.userId);
      } else if (outcome.gone) {
        await deletePushEndpoint(db, job.sub.endpoint);
        removed++;
      } else {
        console.warn("push failed", outcome.status, outcome.error);
        failed++;
        failedUsers.add(job.sub.userId);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(6, queue.length) }, worker));
  // A person with one browser that took the push is reached, even if another of theirs failed.
  for (const u of pushedUsers) failedUsers.delete(u);
  return { pushed, failed, removed, pushedUsers, failedUsers };
}

interface Stored {
  rows: NotificationRow[];
  prefs: Map<string, NotificationPrefs>;
}

/** The users grouped by the language of their screens (their saved setting; English when it has no catalog). */
async function byLanguage(db: Db, userIds: string[]): Promise<Map<UiLanguage, string[]>> {
  const groups = new Map<UiLanguage, string[]>();
  for (const r of await languagesOf(db, userIds)) {
    const language = chooseLanguage(r.language, null);
    groups.set(language, [...(groups.get(language) ?? []), r.id]);
  }
  return groups;
}

/** Stores one notification per user whose preference for the type is on. */
async function store(db: Db, userIds: string[], input: NotifyInput): Promise<Stored> {
  const prefs = await getPrefsFor(db, [...new Set(userIds)]);
  const prefKey = PREF_FOR_TYPE[input.type];
  const wanted = [...prefs.entries()].filter(([, p]) => p[prefKey] === true).map(([id]) => id);
  if (wanted.length === 0) return { rows: [], prefs };
  const groups = input.localized ? await byLanguage(db, wanted) : new Map([["english" as UiLanguage, wanted]]);
  const rows: NotificationRow[] = [];
  for (const [language, ids] of groups) {
    const words = input.localized?.(await loadTranslator(language)) ?? {};
    rows.push(
      ...(await insertNotifications(db, ids, {
        type: input.type,
        title: (words.title ?? input.title).slice(0, 200),
        content: (words.content ?? input.content).slice(0, 2000),
        priority: input.priority,
        url: input.url ?? null,
        source: input.source ?? "system",
        actionRequired: input.actionRequired ?? input.type === "emergency",
      })),
    );
  }
  return { rows, prefs };
}

/** Pushes stored notifications; in quiet hours only emergencies go out, the rest wait in the centre. */
async function push(env: AppEnv, db: Db, { rows, prefs }: Stored, now: Date) {
  const out = { pushed: 0, pushFailed: 0, removed: 0, held: 0, pushedUsers: new Set<string>(), failedUsers: new Set<string>() };
  if (rows.length === 0 || !vapidConfigured(env)) return out;
  const pushUsers = new Set<string>();
  for (const row of rows) {
    const p = prefs.get(row.userId) as NotificationPrefs;
    if (row.type !== "emergency" && inQuietHours(p, now)) out.held++;
    else pushUsers.add(row.userId);
  }
  const byUser = new Map(rows.map((r) => [r.userId, r]));
  const subs = await pushTargetsFor(db, [...pushUsers]);
  const stealth = await stealthUserIds(db, [...pushUsers]);
  const sent = await pushToSubscriptions(
    env,
    db,
    subs.map((sub) => {
      const row = byUser.get(sub.userId) as NotificationRow;
      return { sub, payload: payloadFor(row, stealth.has(sub.userId)), urgent: row.type === "emergency" || row.priority === "critical" };
    }),
  );
  return {
    ...out,
    pushed: sent.pushed,
    pushFailed: sent.failed,
    removed: sent.removed,
    pushedUsers: sent.pushedUsers,
    failedUsers: sent.failedUsers,
  };
}

/** Pushes notifications already stored again (a retried fan-out batch), without storing them twice. */
export async function pushStored(env: AppEnv, db: Db, rows: NotificationRow[], now: Date = new Date()) {
  const prefs = await getPrefsFor(db, [...new Set(rows.map((r) => r.userId))]);
  return push(env, db, { rows, prefs }, now);
}

/** Stores one notification per user whose preference is on, without pushing (the SOS claims first, decision 054). */
export async function storeMany(db: Db, userIds: string[], input: NotifyInput): Promise<NotificationRow[]> {
  return (await store(db, userIds, input)).rows;
}

/** Stores and pushes one notification to many users (the SOS fan-out); awaits the pushes. */
export async function notifyMany(
  env: AppEnv,
  db: Db,
  userIds: string[],
  input: NotifyInput,
  now: Date = new Date(),
): Promise<NotifyResult> {
  if (userIds.length === 0)
    return { stored: 0, pushed: 0, pushFailed: 0, removed: 0, held: 0, ids: [], rows: [], pushedUsers: new Set(), failedUsers: new Set() };
  const stored = await store(db, userIds, input);
  const pushed = await push(env, db, stored, now);
  return { stored: stored.rows.length, ids: stored.rows.map((r) => r.id), rows: stored.rows, ...pushed };
}

/**
 * Stores a notification for one user and pushes it, respecting notification_prefs and quiet hours
 * (everything but emergencies is held back in quiet hours). With `waitUntil` the push goes out after the
 * answer (and `pushed` is null); without it, it is awaited. `id` is null when the user turned the type off.
 */
export async function notify(
  env: AppEnv,
  db: Db,
  userId: string,
  input: NotifyInput,
  waitUntil?: WaitUntil,
): Promise<{ id: string | null; pushed: number | null; held: boolean }> {
  const stored = await store(db, [userId], input);
  const id = stored.rows[0]?.id ?? null;
  if (waitUntil) {
    waitUntil(push(env, db, stored, new Date()).catch((e) => console.error("push failed", e)));
    return { id, pushed: null, held: false };
  }
  const sent = await push(env, db, stored, new Date());
  return { id, pushed: sent.pushed, held: sent.held > 0 };
}

/**
 * For the mesh/chat area: call when a direct (encrypted) message arrives for a user with no open
 * connection. The push names the sender but never carries the message text (it is end-to-end encrypted).
 */
export async function notifyDirectMessage(
  env: AppEnv,
  db: Db,
  input: { recipientId: string; senderName: string; roomId: string },
  waitUntil?: WaitUntil,
) {
  return notify(
    env,
    db,
    input.recipientId,
    {
      type: "message",
      title: `New message from ${input.senderName}`,
      content: "You have a new encrypted message. Open LinkUp to read it.",
      localized: (t) => ({ title: t("push.dmTitle", { name: input.senderName }), content: t("push.dmBody") }),
      priority: "medium",
      url: `/chat?room=${encodeURIComponent(input.roomId)}`,
      source: "chat",
    },
    waitUntil,
  );
}

/**
 * For the mesh room: call for each other member of a `dm:` room when an envelope is stored. Pushes (and
 * stores a notification) only when that member has no open connection anywhere; answers whether it did.
 */
export async function notifyDirectMessageIfOffline(
  env: AppEnv,
  db: Db,
  input: { recipientId: string; senderName: string; roomId: string },
  waitUntil?: WaitUntil,
): Promise<boolean> {
  if (await hasOpenConnection(db, input.recipientId)) return false;
  await notifyDirectMessage(env, db, input, waitUntil);
  return true;
}
