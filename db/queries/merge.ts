// The account merge's statements (docs/architecture.md §3): when a phone that already belongs to someone is
// verified from a new identity, every row of that identity moves to the owner, in one atomic batch.
import { type SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { MESSAGE_POINTS, MESSAGE_POINTS_PER_DAY } from "../../core/rewards";
import { MAX_DEVICE_KEYS } from "../../core/rooms";
import type { Db } from "../index";
import type { User } from "../schema";

/** The owner's profile after the merge (workers/identity/merge.ts decides it). */
export type MergedProfile = Pick<
  User,
  | "locationText"
  | "latitude"
  | "longitude"
  | "geohash"
  | "locationUpdatedAt"
  | "interests"
  | "onboardingCompletedAt"
  | "subscriptionTier"
  | "role"
>;

/** Every statement of the merge, in order; the last one deletes the merged user. */
function mergeStatements(f: string, t: string, p: MergedProfile): SQL[] {
  return [
    // Memberships: rows the owner already has stay; the rest move.
    sql`UPDATE OR IGNORE room_members SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM room_members WHERE user_id = ${f}`,
    // Invitations and blocks move too; none to a group the owner is in, nobody blocks themselves.
    sql`UPDATE OR IGNORE room_invitations SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM room_invitations WHERE user_id = ${f}
        OR (user_id = ${t} AND room_id IN (SELECT room_id FROM room_members WHERE user_id = ${t}))`,
    sql`UPDATE room_invitations SET invited_by = ${t} WHERE invited_by = ${f}`,
    // A team seat or organisation moves unless the owner already has one: one team per person
    // (docs/decisions/067-enterprise-teams.md); joining and starting a team need a verified phone, so this is rare.
    sql`UPDATE OR IGNORE org_members SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM org_members WHERE user_id = ${f}`,
    sql`UPDATE OR IGNORE orgs SET owner_id = ${t} WHERE owner_id = ${f}`,
    sql`DELETE FROM orgs WHERE owner_id = ${f}`,
    sql`UPDATE org_invites SET created_by = ${t} WHERE created_by = ${f}`,
    sql`UPDATE org_invites SET used_by = ${t} WHERE used_by = ${f}`,
    sql`UPDATE orgs SET support_staff_id = ${t} WHERE support_staff_id = ${f}`,
    sql`UPDATE OR IGNORE user_blocks SET blocker_id = ${t} WHERE blocker_id = ${f}`,
    sql`UPDATE OR IGNORE user_blocks SET blocked_id = ${t} WHERE blocked_id = ${f}`,
    sql`DELETE FROM user_blocks WHERE blocker_id = ${f} OR blocked_id = ${f} OR blocker_id = blocked_id`,
    // Device keys: this browser's key (the merged user's) is the current one for that device id.
    sql`DELETE FROM device_keys WHERE user_id = ${t} AND device_id IN (SELECT device_id FROM device_keys WHERE user_id = ${f})`,
    sql`UPDATE device_keys SET user_id = ${t} WHERE user_id = ${f}`,
    // Still at most MAX_DEVICE_KEYS, the most recently published (docs/decisions/015-group-membership-and-blocks.md).
    sql`DELETE FROM device_keys WHERE user_id = ${t} AND device_id NOT IN
        (SELECT device_id FROM device_keys WHERE user_id = ${t} ORDER BY created_at DESC LIMIT ${MAX_DEVICE_KEYS})`,
    // The merged identity's device list is signed for its old id, so it is dropped; the browser signs its record
    // again for the owner and joins the owner's list (docs/decisions/063-one-identity-per-person.md).
    sql`DELETE FROM device_lists WHERE user_id = ${f}`,
    // A link in progress names the old id in its MAC and sealed key: it cannot finish under the owner's id.
    sql`DELETE FROM device_links WHERE user_id = ${f}`,
    // Contacts: a phone the owner already lists is not added twice.
    sql`DELETE FROM emergency_contacts WHERE user_id = ${f} AND phone IN (SELECT phone FROM emergency_contacts WHERE user_id = ${t})`,
    sql`UPDATE emergency_contacts SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE push_subscriptions SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE notifications SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE OR IGNORE notification_prefs SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM notification_prefs WHERE user_id = ${f}`,
    // Daily usage adds up, so merging never resets a limit.
    sql`INSERT INTO usage_daily (user_id, date, ai_commands, translations, messages_count, voice_messages)
        SELECT ${t}, date, ai_commands, translations, messages_count, voice_messages FROM usage_daily WHERE user_id = ${f} AND true
        ON CONFLICT (user_id, date) DO UPDATE SET
          ai_commands = ai_commands + excluded.ai_commands,
          translations = translations + excluded.translations,
          messages_count = messages_count + excluded.messages_count,
          voice_messages = voice_messages + excluded.voice_messages`,
    sql`DELETE FROM usage_daily WHERE user_id = ${f}`,
    sql`INSERT INTO rewards (user_id, total_points, streak, last_bonus_date, achievements)
        SELECT ${t}, total_points, streak, last_bonus_date, achievements FROM rewards WHERE user_id = ${f} AND true
        ON CONFLICT (user_id) DO UPDATE SET
          total_points = total_points + excluded.total_points,
          streak = max(streak, excluded.streak)`,
    sql`DELETE FROM rewards WHERE user_id = ${f}`,
    // Points earned as the merged identity move to the owner. An action both earned (the bonus of one day, the
    // verification, an achievement) counts once, and the daily cap on message points holds for the sum, so
    // merging identities is no way to farm points (docs/decisions/033-rewards-that-grant-premium.md).
    // A day's message points are one row per person (docs/decisions/056-…): both identities' rows of a day add up, capped.
    sql`UPDATE point_events SET points = min(points + (
          SELECT p.points FROM point_events p WHERE p.user_id = ${f} AND p.kind = 'message' AND p.ref = point_events.ref
        ), ${MESSAGE_POINTS * MESSAGE_POINTS_PER_DAY})
        WHERE user_id = ${t} AND kind = 'message'
          AND ref IN (SELECT ref FROM point_events WHERE user_id = ${f} AND kind = 'message')`,
    sql`UPDATE OR IGNORE point_events SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM point_events WHERE user_id = ${f}`,
    sql`DELETE FROM point_events WHERE id IN (
          SELECT id FROM (
            SELECT id, row_number() OVER (PARTITION BY day ORDER BY created_at, id) AS n
            FROM point_events WHERE user_id = ${t} AND kind = 'message'
          ) WHERE n > ${MESSAGE_POINTS_PER_DAY})`,
    // Personal analytics add up, hour by hour (docs/decisions/037-hourly-and-personal-analytics.md).
    sql`INSERT INTO analytics_personal (user_id, hour, kind, count)
        SELECT ${t}, hour, kind, count FROM analytics_personal WHERE user_id = ${f} AND true
        ON CONFLICT (user_id, hour, kind) DO UPDATE SET count = count + excluded.count`,
    sql`DELETE FROM analytics_personal WHERE user_id = ${f}`,
    sql`UPDATE security_events SET user_id = ${t} WHERE user_id = ${f}`,
    // A used trial stays used; a payment customer moves unless the owner has one.
    sql`UPDATE trial_claims SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE OR IGNORE billing_customers SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM billing_customers WHERE user_id = ${f}`,
    // Sign-in factors are not merged: the owner's own two-factor and passkeys keep guarding the account, and a
    // factor made for the merged identity must not become a way into it (docs/decisions/030-passkeys.md).
    sql`DELETE FROM backup_codes WHERE user_id = ${f}`,
    sql`DELETE FROM two_factor WHERE user_id = ${f}`,
    sql`DELETE FROM passkeys WHERE user_id = ${f}`,
    // Keys of the public API are not carried over: a key made by the merged identity would act as the owner
    // without ever having proven the owner's factors (docs/decisions/046-sign-in-is-one-state-machine.md).
    sql`DELETE FROM api_key_usage WHERE key_id IN (SELECT id FROM api_keys WHERE user_id = ${f})`,
    sql`DELETE FROM api_keys WHERE user_id = ${f}`,
    sql`UPDATE OR IGNORE sos_responses SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM sos_responses WHERE user_id = ${f}`,
    // Reported prices move: the per-day limit and the median's one-report-a-person count the owner.
    sql`UPDATE price_reports SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE support_tickets SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE support_tickets SET subject_id = ${t} WHERE subject_id = ${f}`,
    // The browsers it signed in from are the owner's now (a ban of the owner covers them).
    sql`UPDATE OR IGNORE user_devices SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM user_devices WHERE user_id = ${f}`,
    sql`UPDATE files SET owner_id = ${t} WHERE owner_id = ${f}`,
    sql`UPDATE subscriptions SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE OR IGNORE emergency_broadcasts SET user_id = ${t} WHERE user_id = ${f}`,
    sql`UPDATE OR IGNORE sos_deliveries SET user_id = ${t} WHERE user_id = ${f}`,
    sql`DELETE FROM sos_deliveries WHERE user_id = ${f}`,
    // Presence rows follow at the rooms' next batches; the merged identity's are stale now.
    sql`DELETE FROM room_presence WHERE user_id = ${f}`,
    sql`UPDATE rooms SET created_by = ${t} WHERE created_by = ${f}`,
    sql`UPDATE verifications SET user_id = ${t} WHERE user_id = ${f}`,
    // No session of the merged user follows: only the browser that proved the phone (and the owner's second
    // factor, if any) is signed in as the owner, with a fresh session the caller starts. Any other browser of the
    // merged identity is signed out (docs/decisions/046-sign-in-is-one-state-machine.md).
    sql`DELETE FROM sessions WHERE user_id = ${f}`,
    sql`UPDATE users SET
          location_text = ${p.locationText},
          latitude = ${p.latitude},
          longitude = ${p.longitude},
          geohash = ${p.geohash},
          location_updated_at = ${p.locationUpdatedAt?.getTime() ?? null},
          interests = ${JSON.stringify(p.interests)},
          onboarding_completed_at = ${p.onboardingCompletedAt?.getTime() ?? null},
          subscription_tier = ${p.subscriptionTier},
          role = ${p.role},
          updated_at = ${Date.now()}
        WHERE id = ${t}`,
    sql`INSERT INTO audit_log (id, actor_id, action, target, detail, created_at)
        VALUES (${crypto.randomUUID()}, ${t}, 'user.merge', ${f}, ${JSON.stringify({ from: f, into: t })}, ${Date.now()})`,
    sql`DELETE FROM users WHERE id = ${f}`,
  ];
}

interface D1Like {
  prepare: (q: string) => { bind: (...v: unknown[]) => unknown };
  batch: (s: unknown[]) => Promise<unknown>;
}
interface LibsqlLike {
  batch: (s: { sql: string; args: unknown[] }[], mode: "write") => Promise<unknown>;
}

/** Moves every row of user `from` to user `into`, sets the owner's profile and deletes `from`, atomically. */
export async function mergeUserRows(db: Db, from: string, into: string, profile: MergedProfile): Promise<void> {
  // drizzle's batch does not take raw SQL on D1, so the statements go to the driver's own batch.
  const dialect = new SQLiteAsyncDialect();
  const queries = mergeStatements(from, into, profile).map((s) => dialect.sqlToQuery(s));
  const client = (db as unknown as { $client: D1Like | LibsqlLike }).$client;
  if ("prepare" in client) {
    await client.batch(queries.map((q) => client.prepare(q.sql).bind(...q.params)));
  } else {
    await client.batch(
      queries.map((q) => ({ sql: q.sql, args: q.params })),
      "write",
    );
  }
}
