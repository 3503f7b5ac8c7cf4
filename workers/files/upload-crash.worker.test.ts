// A file upload that dies at any step ends ready after the sender's retry, or is cleaned by the Cron (issue 29,
// docs/decisions/055-webhooks-and-files-survive-a-crash.md). For every fault point the upload passes, the Worker
// dies there once, the sender's client retries as it does (a new upload when opening got no answer, the same part,
// the same completion), and the end state is checked.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { armFault, faultPointsPassed, resetFaults } from "../../core/faults";
import { chunkCountFor, partBytesFor, partCountFor } from "../../core/files";
import { createDb } from "../../db";
import { call, verifiedSession } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { cleanUnfinishedUploads, UNFINISHED_UPLOAD_MS } from "./cleanup";

const appEnv = env as unknown as AppEnv;
const db = createDb(appEnv);
const SIZE = 300_000;

afterEach(() => resetFaults());

type Person = Awaited<ReturnType<typeof verifiedSession>>;

async function dmRoom(): Promise<{ a: Person; b: Person; roomId: string }> {
  const a = await verifiedSession("0808");
  const b = await verifiedSession("0808");
  const res = await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.id } });
  return { a, b, roomId: (await res.json<{ room: { id: string } }>()).room.id };
}

/** The ciphertext the browser would send, part by part (random bytes of each part's exact length). */
function partsFor(size: number): Uint8Array<ArrayBuffer>[] {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let n = 1; n <= partCountFor(chunkCountFor(size)); n++) {
    const bytes = new Uint8Array(partBytesFor(size, n));
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    parts.push(bytes);
  }
  return parts;
}

/** Retries a step once after a 5xx, as the web client does; anything else is answered as is. */
async function withRetry(step: () => Promise<Response>): Promise<Response> {
  const first = await step();
  return first.status >= 500 ? step() : first;
}

/** The sender's client: open, send each part, complete, each retried after the Worker died. */
async function send(a: Person, roomId: string, parts: Uint8Array<ArrayBuffer>[]): Promise<string> {
  const opened = await withRetry(() =>
    call("/api/files", {
      method: "POST",
      cookie: a.cookie,
      json: { roomId, size: SIZE, chunkCount: chunkCountFor(SIZE), mime: "application/pdf" },
    }),
  );
  expect(opened.status).toBe(201);
  const id = (await opened.json<{ file: { id: string } }>()).file.id;
  for (const [i, bytes] of parts.entries()) {
    const put = await withRetry(() =>
      call(`/api/files/${id}/parts/${i + 1}`, {
        method: "PUT",
        cookie: a.cookie,
        headers: { "content-type": "application/octet-stream" },
        body: bytes,
      }),
    );
    expect(put.status).toBe(200);
  }
  const done = await withRetry(() => call(`/api/files/${id}/complete`, { method: "POST", cookie: a.cookie }));
  expect(done.status).toBe(200);
  expect((await done.json<{ file: { state: string } }>()).file.state).toBe("ready");
  return id;
}

const uploadsOf = async (ownerId: string) =>
  (
    await env.DB.prepare("select id, state, r2_key as r2Key, upload_id as uploadId from files where owner_id = ?")
      .bind(ownerId)
      .all<{ id: string; state: string; r2Key: string; uploadId: string | null }>()
  ).results;

async function transfersUsed(userId: string) {
  const r = await env.DB.prepare("select coalesce(sum(file_transfers), 0) as n from usage_daily where user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return r!.n;
}

const POINTS = ["file.opened", "file.recorded", "file.part-stored", "file.completed", "file.ready"];

describe("a file upload that dies at any step ends ready, or is cleaned by the Cron", () => {
  it("walks every point of the upload path", async () => {
    const { a, roomId } = await dmRoom();
    resetFaults();
    await send(a, roomId, partsFor(SIZE));
    expect([...new Set(faultPointsPassed().filter((p) => p.startsWith("file.")))]).toEqual(POINTS);
  });

  for (const point of POINTS) {
    it(`dying at ${point}: the file ends ready with the sent bytes, one transfer counted, and nothing half-made after the Cron`, async () => {
      const { a, b, roomId } = await dmRoom();
      const parts = partsFor(SIZE);
      armFault(point);
      const id = await send(a, roomId, parts);

      // The other member fetches exactly what was sent.
      const got = new Uint8Array(await (await call(`/api/files/${id}`, { cookie: b.cookie })).arrayBuffer());
      const sent = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
      let at = 0;
      for (const p of parts) {
        sent.set(p, at);
        at += p.byteLength;
      }
      expect(got).toEqual(sent);
      expect(await transfersUsed(a.id)).toBe(1);

      // An upload the sender never heard of (dying after its row was written) is aborted and removed a day later.
      const abandoned = (await uploadsOf(a.id)).filter((f) => f.state === "uploading");
      expect(abandoned).toHaveLength(point === "file.recorded" ? 1 : 0);
      await cleanUnfinishedUploads(appEnv, db, new Date(Date.now() + UNFINISHED_UPLOAD_MS + 60_000));
      expect((await uploadsOf(a.id)).map((f) => [f.id, f.state])).toEqual([[id, "ready"]]);
      for (const f of abandoned) {
        await expect(appEnv.FILES.resumeMultipartUpload(f.r2Key, f.uploadId as string).uploadPart(1, parts[0])).rejects.toThrow();
      }
    });
  }

  it("an upload completed in R2 whose sender never came back is removed with its object after a day, not before", async () => {
    const { a, roomId } = await dmRoom();
    const parts = partsFor(SIZE);
    const opened = await call("/api/files", {
      method: "POST",
      cookie: a.cookie,
      json: { roomId, size: SIZE, chunkCount: chunkCountFor(SIZE), mime: "application/pdf" },
    });
    const id = (await opened.json<{ file: { id: string } }>()).file.id;
    await call(`/api/files/${id}/parts/1`, { method: "PUT", cookie: a.cookie, body: parts[0] });
    armFault("file.completed");
    expect((await call(`/api/files/${id}/complete`, { method: "POST", cookie: a.cookie })).status).toBe(500);
    const [row] = await uploadsOf(a.id);
    expect(row.state).toBe("uploading");
    expect(await appEnv.FILES.head(row.r2Key)).not.toBeNull();

    // Within the day the sender may still retry: the Cron leaves it alone.
    await cleanUnfinishedUploads(appEnv, db, new Date(Date.now() + UNFINISHED_UPLOAD_MS - 60_000));
    expect(await uploadsOf(a.id)).toHaveLength(1);
    await cleanUnfinishedUploads(appEnv, db, new Date(Date.now() + UNFINISHED_UPLOAD_MS + 60_000));
    expect(await uploadsOf(a.id)).toHaveLength(0);
    expect(await appEnv.FILES.head(row.r2Key)).toBeNull();
  });
});
