// The session passes' revocation feed (docs/decisions/079-a-pass-that-lasts-the-day.md): rows are written by the
// triggers of migration pass-revocation-feed, read here by each isolate in id order, kept PASS_TTL_MS.
import { and, asc, gt } from "drizzle-orm";
import type { Db } from "../index";
import { passRevocations } from "../schema";

/** Rows one read takes at most: the isolate reads again at once while a read comes back full. */
export const FEED_PAGE_ROWS = 2000;

/** Revocations after `afterId` and since `since`, oldest first (the primary key and the `at` index). */
export function revocationsAfter(db: Db, afterId: number, since: Date) {
  return db
    .select({ id: passRevocations.id, sessionId: passRevocations.sessionId, userId: passRevocations.userId, at: passRevocations.at })
    .from(passRevocations)
    .where(and(gt(passRevocations.id, afterId), gt(passRevocations.at, since)))
    .orderBy(asc(passRevocations.id))
    .limit(FEED_PAGE_ROWS)
    .all();
}
