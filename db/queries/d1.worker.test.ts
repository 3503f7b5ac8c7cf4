import { env } from "cloudflare:test";
import { createDb } from "../index";
import { querySuite } from "./query-suite";
import { identityQuerySuite } from "./suite-identity";

querySuite("D1", () => createDb(env));
identityQuerySuite("D1", () => createDb(env));
