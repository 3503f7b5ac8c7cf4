// The database probe behind /api/health and the staff system-health view.
import { sql } from "drizzle-orm";
import type { Db } from "../index";

/** Asks the database one trivial question; throws when it does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.run(sql`select 1`);
}
