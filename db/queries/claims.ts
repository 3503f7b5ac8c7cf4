// Free Premium claimed per phone number, once ever (premium_claims; docs/decisions/049-abuse-bans-claims-and-names.md).
import { and, eq } from "drizzle-orm";
import type { Db } from "../index";
import { premiumClaims } from "../schema";

/** Records the claim; false when this phone already had it. One insert, so parallel claims get one true. */
export async function claimPremium(db: Db, phoneHash: string, kind: string): Promise<boolean> {
  const rows = await db.insert(premiumClaims).values({ phoneHash, kind }).onConflictDoNothing().returning({ kind: premiumClaims.kind });
  return rows.length === 1;
}

export async function premiumClaimed(db: Db, phoneHash: string, kind: string): Promise<boolean> {
  const row = await db
    .select({ kind: premiumClaims.kind })
    .from(premiumClaims)
    .where(and(eq(premiumClaims.phoneHash, phoneHash), eq(premiumClaims.kind, kind)))
    .get();
  return Boolean(row);
}
