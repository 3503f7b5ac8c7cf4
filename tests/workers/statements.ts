// D1 statements counted in Worker tests (db/query-count.ts counts them when QUERY_COUNT is "1"): the bindings that
// turn counting on, a bare execution context for calling the server directly, and what one run costs.
import { env } from "cloudflare:test";
import { queryCounts } from "../../db/query-count";
import type { AppEnv } from "../../workers/env";

/** The test bindings with statement counting on. */
export const countedEnv = { ...env, QUERY_COUNT: "1" } as unknown as AppEnv;

/** An execution context for `server.fetch(request, countedEnv, bareCtx)`: nothing runs after the answer. */
export const bareCtx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

/** The D1 reads and writes `run` makes. */
export async function statementsOf(run: () => Promise<unknown>): Promise<{ reads: number; writes: number }> {
  const before = queryCounts();
  await run();
  const after = queryCounts();
  return { reads: after.reads - before.reads, writes: after.writes - before.writes };
}
