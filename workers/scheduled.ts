// The Cron's work (wrangler.toml `crons`), one handler for the Worker entry (workers/app.ts) and the Worker tests'
// entry (tests/workers/entry.ts), so the tests run the same dispatch by schedule.
import { createDb } from "../db";
import { pruneAnalytics } from "./analytics";
import { runBillingClock } from "./billing";
import { cleanUnfinishedUploads } from "./files/cleanup";
import { runRetention } from "./retention";
import { resumeUnfinishedSos, SOS_SWEEP_CRON } from "./sos";

export const scheduled: ExportedHandlerScheduledHandler<Env> = (controller, env, ctx) => {
  const db = createDb(env);
  // Every minute, on its own: SOS jobs a dead Worker left unfinished (docs/decisions/054-sos-a-durable-job.md).
  if (controller.cron === SOS_SWEEP_CRON) {
    ctx.waitUntil(resumeUnfinishedSos(env, db).catch((e) => console.error("sos: sweep", e)));
    return;
  }
  // The billing clock: trial reminders and endings by the server's time (docs/decisions/018-billing.md); old
  // hourly and personal analytics go (docs/decisions/037-hourly-and-personal-analytics.md).
  ctx.waitUntil(runBillingClock(env, db));
  ctx.waitUntil(pruneAnalytics(db).catch((e) => console.error("analytics: prune", e)));
  // Every table that grows with use keeps rows only as long as a feature reads them (docs/decisions/051-retention.md).
  ctx.waitUntil(runRetention(db).catch((e) => console.error("retention", e)));
  // Multipart uploads never completed: aborted in R2 and removed after a day (docs/decisions/055-webhooks-and-files-survive-a-crash.md).
  ctx.waitUntil(cleanUnfinishedUploads(env, db).catch((e) => console.error("files: cleanup", e)));
};
