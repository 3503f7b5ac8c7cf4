import { env } from "cloudflare:test";
import { createDb } from "../index";
import { querySuite } from "./query-suite";
import { deviceLinkQuerySuite } from "./suite-device-links";
import { identityQuerySuite } from "./suite-identity";
import { pagesQuerySuite } from "./suite-pages";
import { retentionQuerySuite } from "./suite-retention";
import { serviceQuerySuite } from "./suite-service";
import { shardQuerySuite } from "./suite-shards";
import { sosQuerySuite } from "./suite-sos";

querySuite("D1", () => createDb(env));
identityQuerySuite("D1", () => createDb(env));
serviceQuerySuite("D1", () => createDb(env));
retentionQuerySuite("D1", () => createDb(env));
shardQuerySuite("D1", () => createDb(env));
pagesQuerySuite("D1", () => createDb(env));
sosQuerySuite("D1", () => createDb(env));
deviceLinkQuerySuite("D1", () => createDb(env));
