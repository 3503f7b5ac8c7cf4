// Security events and the security score of /advanced-security (spec part 2: security event shape, score).
// Events are written where the thing happens (sign-in, second factor, panic, device keys, my data); the score is
// computed from the account's stored state each time, never kept.
import { and, count, desc, eq, isNull } from "drizzle-orm";
import {
  SECURITY_EVENTS,
  SECURITY_EVENTS_SHOWN,
  type SecurityEventKind,
  type SecurityEventView,
  type SecurityOverview,
  securityFeatures,
  securityScore,
} from "../../core/security";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import { backupCodes, securityEvents, twoFactor, type User } from "../../db/schema";
import { countPasskeys } from "./passkeys";

/** Records one event for the person; `detail` is appended to the catalogue's line (a device, a channel). */
export async function recordSecurityEvent(db: Db, userId: string, kind: SecurityEventKind, detail?: string, at = new Date()) {
  const { type, severity, message } = SECURITY_EVENTS[kind];
  await db
    .insert(securityEvents)
    .values({ id: newId(), userId, kind, type, severity, message: detail ? `${message}: ${detail}` : message, createdAt: at });
}

export async function listSecurityEvents(db: Db, userId: string, limit = 50): Promise<SecurityEventView[]> {
  const rows = await db
    .select()
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.createdAt), desc(securityEvents.id))
    .limit(limit)
    .all();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as SecurityEventKind,
    type: r.type,
    severity: r.severity,
    message: r.message,
    timestamp: r.createdAt.toISOString(),
    resolved: r.resolved,
  }));
}

/** The security centre's summary: features from the stored state, their score, the newest events. */
export async function securityOverview(db: Db, user: User): Promise<SecurityOverview> {
  const [tf, codes, events] = await Promise.all([
    db.select({ enabledAt: twoFactor.enabledAt }).from(twoFactor).where(eq(twoFactor.userId, user.id)).get(),
    db
      .select({ n: count() })
      .from(backupCodes)
      .where(and(eq(backupCodes.userId, user.id), isNull(backupCodes.usedAt)))
      .get(),
    listSecurityEvents(db, user.id, SECURITY_EVENTS_SHOWN),
  ]);
  const features = securityFeatures({
    twoFactor: Boolean(tf?.enabledAt),
    passkeys: await countPasskeys(db, user.id),
    anonymousMode: user.anonymousMode,
    disappearingByDefault: user.autoDelete !== "never",
    panicCode: false,
    stealthMode: user.stealthMode,
  });
  return { ...securityScore(features), features, events, backupCodesLeft: tf?.enabledAt ? (codes?.n ?? 0) : 0 };
}
