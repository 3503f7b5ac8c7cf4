// D1 statements counted in Worker tests (db/query-count.ts counts them when QUERY_COUNT is "1"): the bindings that
// turn counting on, a bare execution context for calling the server directly, and what one run costs.
import { env } from "cloudflare:test";
import { queryCounts } from "../../db/query-count";
import type { AppEnv } from "../../workers/env";

/** The test bindings with statement counting on. */
export const countedEnv = { ...env, QUERY_COUNT: "1" } as unknown as AppEnv;

/** An execution context for `server.fetch(request, countedEnv, bareCtx)`: nothing runs after the answer. */
export const bareCtx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

const total = () => queryCounts().reads + queryCounts().writes;

/** The D1 reads and writes `run` makes. */
export async function statementsOf(run: () => Promise<unknown>): Promise<{ reads: number; writes: number }> {
  // Work an earlier request left running after its answer (waitUntil) is not this one's: wait until it settles.
  for (let last = -1, now = total(); now !== last; last = now, now = total()) await new Promise((r) => setTimeout(r, 25));
  const before = queryCounts();
  await run();
  const after = queryCounts();
  return { reads: after.reads - before.reads, writes: after.writes - before.writes };
}
