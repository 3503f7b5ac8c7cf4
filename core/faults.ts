// Named failure points for crash tests (docs/decisions/053-nothing-lost.md). A path that must survive a crash
// calls `await faultPoint("sos.recorded", env)` between its writes. Nothing is armed in production:
// - Worker and Durable Object tests arm a point with `armFault(name)`; the next pass through it throws
//   `InjectedFault` (the Worker "dies" there), so a test can retry and check the end state.
// - The SIGKILL runs serve the build with `FAULT_HANG_AT=<name>` (development only): the point logs
//   `linkup-fault-reached <name>` and never returns, and the runner kills workerd at that moment. With
//   `FAULT_TRACE=1` every point passed logs `linkup-fault-passed <name>`, so the runner learns a path's points by
//   walking it once.

export class InjectedFault extends Error {
  constructor(readonly point: string) {
    super(`injected fault at ${point}`);
    this.name = "InjectedFault";
  }
}

/** Armed points and how many more passes each fails (same isolate: the Worker tests and their Durable Objects). */
const armed = new Map<string, number>();
/** Every point passed since the last reset, in order, so a test can list the points a path has. */
const passed: string[] = [];

export function armFault(point: string, times = 1): void {
  armed.set(point, times);
}

export function resetFaults(): void {
  armed.clear();
  passed.length = 0;
}

/** The points passed since the last reset (a test walks a path once, then fails it at each point in turn). */
export function faultPointsPassed(): readonly string[] {
  return passed;
}

export async function faultPoint(
  point: string,
  env?: { FAULT_HANG_AT?: string; FAULT_TRACE?: string; ENVIRONMENT?: string },
): Promise<void> {
  if (passed.length < 1000) passed.push(point);
  if (env?.ENVIRONMENT === "development" && env.FAULT_TRACE === "1") console.log(`linkup-fault-passed ${point}`);
  const left = armed.get(point);
  if (left !== undefined) {
    if (left <= 1) armed.delete(point);
    else armed.set(point, left - 1);
    throw new InjectedFault(point);
  }
  if (env?.ENVIRONMENT === "development" && env.FAULT_HANG_AT === point) {
    console.log(`linkup-fault-reached ${point}`);
    await new Promise<never>(() => {});
  }
}
