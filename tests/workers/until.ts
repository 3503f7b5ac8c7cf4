// One poll for tests that wait on something the Worker does after answering (a queue consumer, a room's
// broadcast, a waitUntil): asks again every 25 ms until the answer is truthy.

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

/**
 * The first truthy answer of `check`; after `ms` without one it throws with the last answer, so a test fails
 * where it waited, saying what it saw.
 */
export async function until<T>(check: () => T | Promise<T>, ms = 5000): Promise<Truthy<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const answer = await check();
    if (answer) return answer as Truthy<T>;
    if (Date.now() > end) throw new Error(`not so within ${ms} ms; last answer: ${JSON.stringify(answer)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
