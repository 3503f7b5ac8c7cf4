// The share of page loads and socket reconnects that find their session pass expired, over the capacity model's
// day (issue 28: 10 page loads and 10 reconnects a person a day, the evening peak 3× the mean), played against the
// pass's own rules (core/session-pass.ts, docs/decisions/079-a-pass-that-lasts-the-day.md): a page load reads D1
// anyway (its one statement) and renews a pass older than PASS_RENEW_AFTER_MS; a reconnect's 101 can set no cookie,
// so it only uses the pass it finds. Each person's loads and reconnects fall at independent times drawn from the
// day's profile below, every day for two weeks; the first week warms up (a pass from the night before), the second is
// counted. Seeded, so a run answers the same.
// The same seeded generator as the mesh simulation: the same people and the same day on every run.
import { rng } from "../mesh/sim.mjs";

/**
 * Relative activity per UTC+1 hour (Lagos): quiet nights, a working day, an evening peak. Scaled below so that the
 * busiest hour is exactly 3× the mean, the peak the model assumes.
 */
const PROFILE = [0.15, 0.1, 0.08, 0.08, 0.1, 0.25, 0.6, 0.9, 1, 1, 1, 1, 1.1, 1, 1, 1, 1.1, 1.4, 2, 2.6, 0, 2.6, 1.6, 0.6];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The profile with its peak hour set so that the peak is `peak` × the mean. */
function profileWithPeak(peak) {
  const rest = PROFILE.reduce((a, b) => a + b, 0);
  // x = peak × (rest + x) / 24  →  x = peak × rest / (24 − peak)
  const top = (peak * rest) / (24 - peak);
  return PROFILE.map((w) => (w === 0 ? top : w));
}

/**
 * Plays `people` people for `days` days; answers the share of reconnects and of page loads (after the first week)
 * that found no fresh pass, for a pass of `ttlMs` renewed by a load when older than `renewAfterMs`.
 */
export function expiredShare({
  ttlMs,
  renewAfterMs,
  touchMs,
  passTouchMs,
  people = 5000,
  days = 14,
  loads = 10,
  reconnects = 10,
  peak = 3,
  seed = 28,
}) {
  const weights = profileWithPeak(peak);
  const total = weights.reduce((a, b) => a + b, 0);
  const random = rng(seed);
  const timeOfDay = () => {
    let r = random() * total;
    let h = 0;
    while (r >= weights[h]) r -= weights[h++];
    return (h + random()) * HOUR;
  };
  const counted = { loads: 0, loadsExpired: 0, reconnects: 0, reconnectsExpired: 0, touches: 0 };
  for (let p = 0; p < people; p++) {
    let issued = Number.NEGATIVE_INFINITY;
    let touched = Number.NEGATIVE_INFINITY;
    // "Last used" is written when a session read from D1 finds it older than touchMs, a page served by a pass older
    // than passTouchMs (workers/auth/session.ts).
    const touch = (at, every, count) => {
      if (at - touched <= every) return;
      touched = at;
      if (count) counted.touches++;
    };
    for (let d = 0; d < days; d++) {
      const events = [
        ...Array.from({ length: loads }, () => ({ at: d * DAY + timeOfDay(), load: true })),
        ...Array.from({ length: reconnects }, () => ({ at: d * DAY + timeOfDay(), load: false })),
      ].sort((a, b) => a.at - b.at);
      const count = d >= days / 2;
      for (const e of events) {
        const fresh = e.at < issued + ttlMs;
        if (e.load) {
          if (count) {
            counted.loads++;
            if (!fresh) counted.loadsExpired++;
          }
          touch(e.at, fresh ? passTouchMs : touchMs, count);
          // A load with no fresh pass reads the session and is handed one; a fresh one older than renewAfterMs is renewed.
          if (!fresh || e.at - issued >= renewAfterMs) issued = e.at;
        } else {
          if (!fresh) touch(e.at, touchMs, count);
          if (count) {
            counted.reconnects++;
            if (!fresh) counted.reconnectsExpired++;
          }
        }
      }
    }
  }
  return {
    reconnects: counted.reconnectsExpired / counted.reconnects,
    loads: counted.loadsExpired / counted.loads,
    /** Writes of "last used" a person a day. */
    touchesPerDay: counted.touches / people / (days / 2),
    people,
    days: days / 2,
  };
}
