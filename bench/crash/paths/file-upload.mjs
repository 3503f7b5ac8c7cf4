// The file upload path (issue 29; docs/decisions/055-webhooks-and-files-survive-a-crash.md): a person sends a file
// into a direct room: open the upload, send its part, complete. Killed at any file.* point, the sender's client
// carries on as it does (a new upload when opening got no answer, the same part again, the same completion); the
// other member must then fetch exactly the bytes sent. An upload the sender never heard of is left to the Cron,
// which aborts it a day later (the Worker test shows that; here it is counted).
import { randomFillSync } from "node:crypto";
import { call, ok, verifiedPerson } from "../client.mjs";

// A file under one 1 MiB chunk (core/files.ts, which Node cannot load here: its imports have no extensions): one
// chunk, one R2 part of the plaintext plus the 16-byte AES-GCM tag.
const SIZE = 300_000;
const chunkCountFor = () => 1;
const partCountFor = () => 1;
const partBytesFor = (size) => size + 16;

async function open(server, ctx) {
  const res = await call(server, "/api/files", {
    method: "POST",
    cookie: ctx.a.cookie,
    json: { roomId: ctx.roomId, size: SIZE, chunkCount: chunkCountFor(SIZE), mime: "application/pdf" },
  });
  ctx.fileId = (await ok(res, "open upload")).file.id;
}

async function sendParts(server, ctx) {
  for (let n = ctx.partsSent + 1; n <= ctx.parts.length; n++) {
    const res = await call(server, `/api/files/${ctx.fileId}/parts/${n}`, {
      method: "PUT",
      cookie: ctx.a.cookie,
      headers: { "content-type": "application/octet-stream" },
      body: ctx.parts[n - 1],
    });
    await ok(res, `part ${n}`);
    ctx.partsSent = n;
  }
}

async function complete(server, ctx) {
  ctx.completed = (
    await ok(await call(server, `/api/files/${ctx.fileId}/complete`, { method: "POST", cookie: ctx.a.cookie }), "complete")
  ).file;
}

export default {
  name: "file upload",
  points: "file.",
  async setup(server) {
    const a = await verifiedPerson(server);
    const b = await verifiedPerson(server);
    const room = await ok(await call(server, "/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.id } }), "dm room");
    const parts = Array.from({ length: partCountFor(chunkCountFor(SIZE)) }, (_, i) =>
      randomFillSync(new Uint8Array(partBytesFor(SIZE, i + 1))),
    );
    return { a, b, roomId: room.room.id, parts, partsSent: 0, fileId: null, completed: null };
  },
  async act(server, ctx) {
    await open(server, ctx);
    await sendParts(server, ctx);
    await complete(server, ctx);
  },
  /** The client goes on from where it got no answer. */
  async retry(server, ctx) {
    if (!ctx.fileId) await open(server, ctx);
    await sendParts(server, ctx);
    await complete(server, ctx);
  },
  async check(server, ctx) {
    const res = await call(server, `/api/files/${ctx.fileId}`, { cookie: ctx.b.cookie });
    const got = Buffer.from(await res.arrayBuffer());
    const sent = Buffer.concat(ctx.parts);
    const same = res.ok && got.equals(sent);
    const mine = (await ok(await call(server, "/api/files", { cookie: ctx.a.cookie }), "list")).files.filter(
      (f) => f.roomId === ctx.roomId,
    );
    const ready = mine.filter((f) => f.state === "ready").length;
    const leftOver = mine.filter((f) => f.state === "uploading").length;
    return {
      survived: same && ready === 1,
      checked: `file ${ctx.completed?.state ?? "not completed"}; the other member fetched the sent bytes: ${same ? "yes" : "no"}; ready files ${ready}; unfinished uploads left for the Cron (aborted after a day) ${leftOver}`,
    };
  },
};
