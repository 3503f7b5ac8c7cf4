import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { beforeAll } from "vitest";
import type { Db } from "../index";
import * as schema from "../schema";
import { querySuite } from "./query-suite";
import { deviceLinkQuerySuite } from "./suite-device-links";
import { groupInvitationQuerySuite } from "./suite-group-invitations";
import { identityQuerySuite } from "./suite-identity";
import { pagesQuerySuite } from "./suite-pages";
import { passRevocationsQuerySuite } from "./suite-pass-revocations";
import { pricesQuerySuite } from "./suite-prices";
import { retentionQuerySuite } from "./suite-retention";
import { serviceQuerySuite } from "./suite-service";
import { shardQuerySuite } from "./suite-shards";
import { sosQuerySuite } from "./suite-sos";
import { teamQuerySuite } from "./suite-teams";

let db: Db;
beforeAll(async () => {
  // A real libSQL database in a file, migrated with the same migrations as D1.
  const file = join(mkdtempSync(join(tmpdir(), "linkup-libsql-")), "test.db");
  const instance = drizzle(createClient({ url: `file:${file}` }), { schema });
  await migrate(instance, { migrationsFolder: "db/migrations" });
  db = instance as unknown as Db;
});

querySuite("libSQL", () => db);
identityQuerySuite("libSQL", () => db);
serviceQuerySuite("libSQL", () => db);
retentionQuerySuite("libSQL", () => db);
shardQuerySuite("libSQL", () => db);
pagesQuerySuite("libSQL", () => db);
sosQuerySuite("libSQL", () => db);
passRevocationsQuerySuite("libSQL", () => db);
pricesQuerySuite("libSQL", () => db);
teamQuerySuite("libSQL", () => db);
deviceLinkQuerySuite("libSQL", () => db);
groupInvitationQuerySuite("libSQL", () => db);
