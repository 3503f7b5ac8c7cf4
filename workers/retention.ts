// Bounded growth (docs/decisions/051-retention.md): the Cron (every 15 minutes) runs each table's retention rule
// from db/queries/retention.ts and logs how many rows each table lost. A failing rule is logged, counted as a
// failed D1 write, and the others still run.
import type { Db } from "../db";
import { RETENTION_RULES, type RetentionOptions } from "../db/queries/retention";
import { countTrouble } from "./analytics";

export type RetentionCounts = Partial<Record<keyof typeof RETENTION_RULES, number>>;

export async function runRetention(db: Db, opts: Partial<RetentionOptions> = {}): Promise<RetentionCounts> {
  const o: RetentionOptions = { now: opts.now ?? Date.now(), chunkRows: opts.chunkRows };
  const counts: RetentionCounts = {};
  // One table after another: D1 runs one statement at a time anyway, and requests interleave between chunks.
  for (const [table, rule] of Object.entries(RETENTION_RULES) as [
    keyof typeof RETENTION_RULES,
    (typeof RETENTION_RULES)[keyof typeof RETENTION_RULES],
  ][]) {
    try {
      counts[table] = await rule(db, o);
    } catch (e) {
      console.error("retention:", table, e);
      // Counted for the admins' Trouble figures (docs/decisions/053-nothing-lost.md).
      await countTrouble(db, "d1_write_failed");
    }
  }
  console.log("retention: rows deleted", JSON.stringify(counts));
  return counts;
}
