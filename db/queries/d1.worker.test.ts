import { env } from "cloudflare:test";
import { createDb } from "../index";
import { querySuite } from "./query-suite";

querySuite("D1", () => createDb(env));
