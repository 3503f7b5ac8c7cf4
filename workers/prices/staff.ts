// Staff look after reported prices (docs/decisions/068-market-prices-people-report.md): the window's reports with
// the outliers flagged first, and removing a report (audited). Banning an abuser is the existing ban
// (workers/admin/bans.ts), by the reporter's id shown here.
import { DomainError } from "../../core/domain-error";
import { PRICE_WINDOW_MS, splitOutliers } from "../../core/price-reports";
import type { Db } from "../../db";
import { deletePriceReport, findPriceReports, type PriceReportRow } from "../../db/queries/price-reports";
import type { User } from "../../db/schema";
import { auditAction } from "../admin";

export type ReportStanding = "counted" | "outlier" | "replaced";

const shown = (r: PriceReportRow, standing: ReportStanding) => ({
  id: r.id,
  reporterId: r.userId,
  item: r.item,
  unit: r.unit,
  priceNgn: r.priceNgn,
  market: r.market,
  channel: r.channel,
  reportedAt: r.reportedAt.toISOString(),
  standing,
});

/** The window's reports (at most 500, newest first), outliers first: each counted, an outlier, or replaced by a newer one of its reporter. */
export async function staffPriceReports(db: Db, now = new Date()) {
  const rows = await findPriceReports(db, { since: new Date(now.getTime() - PRICE_WINDOW_MS), limit: 500 });
  const groups = new Map<string, PriceReportRow[]>();
  for (const r of rows) {
    const key = `${r.itemKey}\u0000${r.unit}\u0000${r.marketKey}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const standing = new Map<string, ReportStanding>();
  for (const group of groups.values()) {
    const seen = new Set<string>();
    const newest = group.filter((r) => !seen.has(r.userId) && seen.add(r.userId));
    for (const r of group) standing.set(r.id, "replaced");
    const { kept, outliers } = splitOutliers(newest);
    for (const r of kept) standing.set(r.id, "counted");
    for (const r of outliers) standing.set(r.id, "outlier");
  }
  const order: Record<ReportStanding, number> = { outlier: 0, counted: 1, replaced: 2 };
  return rows
    .map((r) => shown(r, standing.get(r.id) ?? "counted"))
    .sort((a, b) => order[a.standing] - order[b.standing] || b.reportedAt.localeCompare(a.reportedAt));
}

/** Removes one report; the audit log keeps what it said. Points it earned stay (the ledger is not rewritten). */
export async function removePriceReport(db: Db, staff: User, id: string) {
  const gone = await deletePriceReport(db, id);
  if (!gone) throw new DomainError("report_not_found", "Report not found");
  await auditAction(db, staff, "market.report_removed", id, shown(gone, "counted"), null);
  return { id, deleted: true };
}
