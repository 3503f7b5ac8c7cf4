// Uploads that never finished (docs/decisions/055-webhooks-and-files-survive-a-crash.md): a sender who gave up, or
// a Worker that died between R2 and D1. The Cron aborts each R2 multipart upload a day after it began (a sender
// resumes within minutes; R2 itself would keep the parts 7 days, docs/decisions/051-retention.md) and removes
// its row, so nothing is left half-made.
import { deleteUnfinishedUpload, unfinishedUploads } from "../../db/queries/files";
import type { Db } from "../../db";
import type { AppEnv } from "../env";

export const UNFINISHED_UPLOAD_MS = 24 * 3600 * 1000;
/**
 * Per Cron run (every 15 minutes): each upload costs two R2 operations and one D1 write, about 300 in all, within
 * an invocation's subrequests on Workers Paid (10,000; https://developers.cloudflare.com/workers/platform/limits/).
 */
const PER_RUN = 100;

export async function cleanUnfinishedUploads(env: Pick<AppEnv, "FILES">, db: Db, now = new Date()): Promise<number> {
  const stale = await unfinishedUploads(db, new Date(now.getTime() - UNFINISHED_UPLOAD_MS), PER_RUN);
  let cleaned = 0;
  for (const row of stale) {
    try {
      if (row.uploadId) {
        // Already aborted, or completed by R2 when the Worker died before marking it: either way it is gone.
        await env.FILES.resumeMultipartUpload(row.r2Key, row.uploadId)
          .abort()
          .catch(() => {});
      }
      // An object R2 completed that was never marked ready is no one's file: the sender never heard it finished.
      await env.FILES.delete(row.r2Key);
      await deleteUnfinishedUpload(db, row.id);
      cleaned++;
    } catch (e) {
      console.error("files: could not clean an unfinished upload", row.id, e);
    }
  }
  if (stale.length > 0) console.log("files: unfinished uploads cleaned", cleaned);
  return cleaned;
}
