// Reports of a person to the staff desk (docs/decisions/038-reports-and-device-bans.md): filed as support
// tickets of category 'report' naming the person reported, so staff answer, close and audit them like any
// ticket, and ban from the person's desk entry.
import { REPORT_CATEGORY, type ReportInput } from "../../core/admin-schemas";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import { insertTicket } from "../../db/queries/support";
import { findUserById } from "../../db/queries/users";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { DomainError } from "../../core/domain-error";
import { giveBackAddressToken, takeAddressToken } from "../limits";

export const TOO_MANY_REPORTS = "You have sent many reports today. Our staff will look at them; please try again tomorrow.";

/**
 * Files the report, or says when the reporter may send another: their day's reports are used up, or (without a
 * verified phone) those of their address, which their new anonymous identities share
 * (docs/decisions/047-limits-taken-atomically.md). Each is one atomic upsert.
 */
export async function fileReport(env: AppEnv, db: Db, reporter: User, input: ReportInput, clientAddress: string | null = null) {
  if (input.userId === reporter.id) throw new DomainError("cannot_report_self", "You cannot report yourself");
  const subject = await findUserById(db, input.userId);
  if (!subject) throw new DomainError("user_not_found", "User not found");
  const now = new Date();
  const taken = await takeAddressToken(env, db, "reports", `person:${reporter.id}`, now);
  if (!taken.ok) return taken;
  if (reporter.authMode !== "verified") {
    const fromAddress = await takeAddressToken(env, db, "anonReports", clientAddress, now);
    if (!fromAddress.ok) {
      await giveBackAddressToken(env, db, "reports", `person:${reporter.id}`, now);
      return fromAddress;
    }
  }
  const id = newId();
  // Staff read the reason, the reporter's words and where it happened in one line of the queue.
  const where = input.roomId ? ` (in ${input.roomId})` : "";
  const message = `${input.reason}${where}${input.details ? `: ${input.details}` : ""}`;
  await insertTicket(db, { id, userId: reporter.id, message, category: REPORT_CATEGORY, subjectId: subject.id });
  return { ok: true as const, id, status: "open" as const };
}
