// Security events and the security score of /advanced-security (docs/product/security.md).
// Events are written where the thing happens (sign-in, second factor, panic, device keys, my data); the score is
// computed from the account's stored state each time, never kept.
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
import { insertSecurityEvent, listSecurityEventRows } from "../../db/queries/security-events";
import { countBackupCodesLeft, findTwoFactor } from "../../db/queries/two-factor";
import type { User } from "../../db/schema";
import { listPasskeyRows } from "../../db/queries/passkeys";

/** Records one event for the person; `detail` is appended to the catalogue's line (a device, a channel). */
export async function recordSecurityEvent(db: Db, userId: string, kind: SecurityEventKind, detail?: string, at = new Date()) {
  const { type, severity, message } = SECURITY_EVENTS[kind];
  await insertSecurityEvent(db, {
    id: newId(),
    userId,
    kind,
    type,
    severity,
    message: detail ? `${message}: ${detail}` : message,
    createdAt: at,
  });
}

export async function listSecurityEvents(db: Db, userId: string, limit = 50): Promise<SecurityEventView[]> {
  const rows = await listSecurityEventRows(db, userId, limit);
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
    findTwoFactor(db, user.id),
    countBackupCodesLeft(db, user.id),
    listSecurityEvents(db, user.id, SECURITY_EVENTS_SHOWN),
  ]);
  const features = securityFeatures({
    twoFactor: Boolean(tf?.enabledAt),
    passkeys: (await listPasskeyRows(db, user.id)).length,
    anonymousMode: user.anonymousMode,
    disappearingByDefault: user.autoDelete !== "never",
    panicCode: false,
    stealthMode: user.stealthMode,
  });
  return { ...securityScore(features), features, events, backupCodesLeft: tf?.enabledAt ? codes : 0 };
}
