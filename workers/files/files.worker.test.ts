// Files in rooms through the real Worker, D1 and local R2: who may send, the tier limits, resumable parts, who may
// fetch, and that the stored object is ciphertext (docs/decisions/023-encrypted-files-in-rooms.md).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { encryptChunk, newFileKey } from "../../core/file-crypto";
import { FILE_CHUNK_BYTES, FILE_CHUNKS_PER_PART, FILE_TEXTS, chunkCountFor, partBytesFor } from "../../core/files";
import { anonymousSession, call, setTier, verifiedSession } from "../../tests/workers/helpers";

const MiB = 1024 * 1024;
type Person = Awaited<ReturnType<typeof verifiedSession>>;

async function dm(a: Person, b: Person): Promise<string> {
  const res = await call("/api/rooms/dm", { method: "POST", cookie: a.cookie, json: { userId: b.id } });
  return (await res.json<{ room: { id: string } }>()).room.id;
}

async function group(owner: Person, member: Person): Promise<string> {
  const res = await call("/api/rooms/groups", { method: "POST", cookie: owner.cookie, json: { name: "Market", memberIds: [member.id] } });
  const roomId = (await res.json<{ room: { id: string } }>()).room.id;
  const accepted = await call(`/api/rooms/invitations/${roomId}/accept`, { method: "POST", cookie: member.cookie });
  expect(accepted.status).toBe(200);
  return roomId;
}

function create(p: { cookie: string }, roomId: string, size: number, mime = "application/pdf") {
  return call("/api/files", { method: "POST", cookie: p.cookie, json: { roomId, size, chunkCount: chunkCountFor(size), mime } });
}

async function usedThisMonth(id: string, count: number) {
  const date = new Date().toISOString().slice(0, 10);
  await env.DB.prepare("insert into usage_daily (user_id, date, file_transfers) values (?, ?, ?)").bind(id, date, count).run();
}

function putPart(p: { cookie: string }, fileId: string, n: number, bytes: Uint8Array<ArrayBuffer>) {
  return call(`/api/files/${fileId}/parts/${n}`, {
    method: "PUT",
    cookie: p.cookie,
    headers: { "content-type": "application/octet-stream" },
    body: bytes,
  });
}

/** Encrypts a file as the browser does (core/file-crypto.ts) and cuts the ciphertext into its parts. */
async function sealedParts(plain: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>[]> {
  const { key } = await newFileKey();
  const count = chunkCountFor(plain.byteLength);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < count; i++)
    chunks.push(await encryptChunk(key, i, count, plain.subarray(i * FILE_CHUNK_BYTES, (i + 1) * FILE_CHUNK_BYTES)));
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < count; i += FILE_CHUNKS_PER_PART) {
    const group = chunks.slice(i, i + FILE_CHUNKS_PER_PART);
    const part = new Uint8Array(group.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of group) {
      part.set(c, at);
      at += c.byteLength;
    }
    parts.push(part);
  }
  return parts;
}

function readable(size: number): Uint8Array<ArrayBuffer> {
  const line = new TextEncoder().encode("Meet at Balogun market gate by 4pm. ");
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = line[i % line.length];
  return out;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

describe("who may send a file", () => {
  it("refuses a person without a verified phone with the verification message", async () => {
    const anon = await anonymousSession();
    const res = await call("/api/files", {
      method: "POST",
      cookie: anon.cookie,
      json: { roomId: "nearby:s14uc", size: 10, chunkCount: 1, mime: "text/plain" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      error: FILE_TEXTS.verificationRequired,
      code: "file_verify",
      title: "Premium Feature",
    });
  });

  it("refuses a room the sender is not a member of", async () => {
    const [a, b, c] = [await verifiedSession("0806", "Ada"), await verifiedSession("0806", "Bayo"), await verifiedSession("0806", "Chi")];
    const roomId = await group(a, b);
    const res = await create(c, roomId, 1000);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "You are not a member of this room", code: "not_member" });
  });

  it("refuses malformed input with a clear 400", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    const wrongCount = await call("/api/files", {
      method: "POST",
      cookie: a.cookie,
      json: { roomId, size: 3 * MiB, chunkCount: 1, mime: "text/plain" },
    });
    expect(wrongCount.status).toBe(400);
    expect((await wrongCount.json<{ error: string }>()).error).toMatch(/chunkCount/);
    const badMime = await call("/api/files", {
      method: "POST",
      cookie: a.cookie,
      json: { roomId, size: 3, chunkCount: 1, mime: "<script>" },
    });
    expect(badMime.status).toBe(400);
  });
});

describe("tier limits", () => {
  it("offers Premium for a Community file over 25 MB and lets Premium send it", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    const res = await create(a, roomId, 30 * MiB);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      error: FILE_TEXTS.communityTooLarge,
      code: "file_premium_size",
      offer: "premium_feature",
      upgrade: { plan: "premium" },
    });
    await setTier(a.id, "premium");
    expect((await create(a, roomId, 30 * MiB)).status).toBe(201);
  });

  it("refuses any file over 100 MB with 413, Premium too", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    await setTier(a.id, "premium");
    const roomId = await dm(a, b);
    const res = await create(a, roomId, 100 * MiB + 1);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "Files can be at most 100 MB." });
    expect((await create(a, roomId, 100 * MiB)).status).toBe(201);
  });

  it("counts transfers per month: Premium's 51st is refused with 429", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    await setTier(a.id, "premium");
    const roomId = await dm(a, b);
    await usedThisMonth(a.id, 49);
    const last = await create(a, roomId, 100);
    expect(last.status).toBe(201);
    expect(await last.json()).toMatchObject({ usedThisMonth: 50, monthlyLimit: 50 });
    const refused = await create(a, roomId, 100);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "You've used your 50 file transfers for this month. They renew on the 1st." });
  });

  it("offers Premium when Community's 10 transfers of the month are used", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    await usedThisMonth(a.id, 10);
    const res = await create(a, roomId, 100);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ error: FILE_TEXTS.communityMonthFull, code: "file_premium_month", offer: "limit_reached" });
  });
});

describe("the month's transfers under parallel requests (docs/decisions/047-limits-taken-atomically.md)", () => {
  const tally = (statuses: number[]) => {
    const t: Record<number, number> = {};
    for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
    return t;
  };

  it("100 parallel uploads from a Premium sender: exactly the month's 50 start, 50 × 429 with Retry-After", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    await setTier(a.id, "premium");
    const roomId = await dm(a, b);
    const answers = await Promise.all(Array.from({ length: 100 }, () => create(a, roomId, 100)));
    expect(tally(answers.map((r) => r.status))).toEqual({ 201: 50, 429: 50 });
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.every((r) => Number(r.headers.get("retry-after")) > 0)).toBe(true);
    expect(await refused[0].json()).toMatchObject({ error: "You've used your 50 file transfers for this month. They renew on the 1st." });
    const files = await env.DB.prepare("select count(*) as n from files where owner_id = ?").bind(a.id).first<{ n: number }>();
    expect(files?.n).toBe(50);
  });

  it("100 parallel uploads from a Community sender: exactly 10 start, the rest are offered Premium", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    const answers = await Promise.all(Array.from({ length: 100 }, () => create(a, roomId, 100)));
    expect(tally(answers.map((r) => r.status))).toEqual({ 201: 10, 402: 90 });
    expect(await answers.find((r) => r.status === 402)?.json()).toMatchObject({
      error: FILE_TEXTS.communityMonthFull,
      code: "file_premium_month",
    });
  });
});

describe("a resumable upload and its download", () => {
  it("stores ciphertext part by part, lists what it has for a resume, and hands it to the room's members", async () => {
    const [a, b, c] = [await verifiedSession("0806", "Ada"), await verifiedSession("0806", "Bayo"), await verifiedSession("0806", "Chi")];
    const roomId = await dm(a, b);
    const plain = readable(6 * MiB + 123);
    const parts = await sealedParts(plain);
    expect(parts.length).toBe(2);
    const created = await create(a, roomId, plain.byteLength);
    expect(created.status).toBe(201);
    const { file } = await created.json<{ file: { id: string; partCount: number; state: string } }>();
    expect(file).toMatchObject({ partCount: 2, state: "uploading" });

    // The first part arrives; then the connection drops. The sender asks what the server has.
    expect((await putPart(a, file.id, 1, parts[0])).status).toBe(200);
    const listed = await call(`/api/files/${file.id}/parts`, { cookie: a.cookie });
    expect((await listed.json<{ parts: { partNumber: number }[] }>()).parts.map((p) => p.partNumber)).toEqual([1]);
    const early = await call(`/api/files/${file.id}/complete`, { method: "POST", cookie: a.cookie });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ missing: [2] });

    // Nobody but the sender adds parts, and a part must have its exact length.
    expect((await putPart(b, file.id, 2, parts[1])).status).toBe(404);
    const short = await putPart(a, file.id, 2, parts[1].subarray(1));
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({
      error: `Part 2 must be ${partBytesFor(plain.byteLength, 2)} bytes`,
      code: "part_size",
      values: { part: 2, bytes: partBytesFor(plain.byteLength, 2) },
    });
    expect((await putPart(a, file.id, 2, parts[1])).status).toBe(200);
    expect((await call(`/api/files/${file.id}/complete`, { method: "POST", cookie: a.cookie })).status).toBe(200);

    // The room's other member fetches exactly the ciphertext; an outsider cannot.
    const got = await call(`/api/files/${file.id}`, { cookie: b.cookie });
    expect(got.status).toBe(200);
    const body = new Uint8Array(await got.arrayBuffer());
    expect(body.byteLength).toBe(parts[0].byteLength + parts[1].byteLength);
    expect(body.subarray(0, 64)).toEqual(parts[0].subarray(0, 64));
    expect((await call(`/api/files/${file.id}`, { cookie: c.cookie })).status).toBe(403);

    // What R2 holds is not the plaintext: no run of the readable text survives.
    const stored = await env.FILES.get(`rooms/${roomId}/${file.id}`);
    const bytes = new Uint8Array(await (stored as R2ObjectBody).arrayBuffer());
    expect(bytes.byteLength).toBe(plain.byteLength + chunkCountFor(plain.byteLength) * 16);
    expect(contains(bytes.subarray(0, 4096), new TextEncoder().encode("Balogun market"))).toBe(false);
  });

  it("counts a file in its sender's own analytics once complete, and in nobody else's", async () => {
    const [a, b] = [await verifiedSession("0806", "Dapo"), await verifiedSession("0806", "Efe")];
    for (const p of [a, b]) await setTier(p.id, "premium");
    const files = async (p: Person) =>
      (await (await call("/api/analytics/metrics?scope=me&range=1h", { cookie: p.cookie })).json<{ files: number }>()).files;
    const plain = readable(1000);
    const [part] = await sealedParts(plain);
    const { file } = await (await create(a, await dm(a, b), plain.byteLength)).json<{ file: { id: string } }>();
    expect((await putPart(a, file.id, 1, part)).status).toBe(200);
    // An upload that never completes is not a file sent.
    expect(await files(a)).toBe(0);
    expect((await call(`/api/files/${file.id}/complete`, { method: "POST", cookie: a.cookie })).status).toBe(200);
    expect(await files(a)).toBe(1);
    expect(await files(b)).toBe(0);
  });

  it("refuses a part larger than any part before reading it", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    const { file } = await (await create(a, roomId, 20 * MiB)).json<{ file: { id: string } }>();
    const res = await putPart(a, file.id, 1, new Uint8Array(6 * MiB));
    expect(res.status).toBe(413);
  });
});

describe("who may fetch and delete", () => {
  async function sentFile(a: Person, roomId: string): Promise<string> {
    const plain = readable(2000);
    const [part] = await sealedParts(plain);
    const { file } = await (await create(a, roomId, plain.byteLength)).json<{ file: { id: string } }>();
    expect((await putPart(a, file.id, 1, part)).status).toBe(200);
    expect((await call(`/api/files/${file.id}/complete`, { method: "POST", cookie: a.cookie })).status).toBe(200);
    return file.id;
  }

  it("shuts out a member who left the group", async () => {
    const [a, b] = [await verifiedSession("0806", "Ada"), await verifiedSession("0806", "Bayo")];
    const roomId = await group(a, b);
    const id = await sentFile(a, roomId);
    expect((await call(`/api/files/${id}`, { cookie: b.cookie })).status).toBe(200);
    const listed = await call("/api/files", { cookie: b.cookie });
    expect((await listed.json<{ files: { id: string }[] }>()).files.map((f) => f.id)).toContain(id);
    expect((await call(`/api/rooms/${roomId}/leave`, { method: "POST", cookie: b.cookie })).status).toBe(200);
    const after = await call(`/api/files/${id}`, { cookie: b.cookie });
    expect(after.status).toBe(403);
    expect(await after.json()).toEqual({ error: "You are not a member of this room", code: "not_member" });
    const listedAfter = await call("/api/files", { cookie: b.cookie });
    expect((await listedAfter.json<{ files: { id: string }[] }>()).files.map((f) => f.id)).not.toContain(id);
  });

  it("lets only the sender delete, and the R2 object goes with it", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    const id = await sentFile(a, roomId);
    expect((await call(`/api/files/${id}`, { method: "DELETE", cookie: b.cookie })).status).toBe(404);
    expect(await env.FILES.head(`rooms/${roomId}/${id}`)).not.toBeNull();
    expect((await call(`/api/files/${id}`, { method: "DELETE", cookie: a.cookie })).status).toBe(200);
    expect(await env.FILES.head(`rooms/${roomId}/${id}`)).toBeNull();
    expect((await call(`/api/files/${id}`, { cookie: b.cookie })).status).toBe(404);
  });
});

describe("voice notes", () => {
  function voice(p: { cookie: string }, roomId: string, size: number, voiceId?: string) {
    return call("/api/files", {
      method: "POST",
      cookie: p.cookie,
      json: { roomId, size, chunkCount: chunkCountFor(size), mime: "audio/webm", kind: "voice", voiceId },
    });
  }
  async function voiceCount(p: { cookie: string }) {
    const res = await call("/api/ai/usage", { cookie: p.cookie });
    return (await res.json<{ voiceMessages: { usedThisMonth: number } }>()).voiceMessages.usedThisMonth;
  }

  it("count as voice messages: Community gets the Premium offer, Premium's are counted out of 50", async () => {
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    const roomId = await dm(a, b);
    const refused = await voice(a, roomId, 20_000);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({
      code: "voice_premium",
      offer: "premium_feature",
      error: expect.stringContaining("Voice messages are a Premium feature"),
    });
    await setTier(a.id, "premium");
    const sent = await voice(a, roomId, 20_000);
    expect(sent.status).toBe(201);
    // Counted as a voice message; the row says nothing of the kind (it is sealed in the chat message).
    expect(await sent.json()).toMatchObject({
      usedThisMonth: 1,
      monthlyLimit: 50,
      file: { kind: "file", mime: "application/octet-stream" },
    });
    expect((await voice(a, roomId, 6 * MiB)).status).toBe(413);
  });

  it("of a private room leave no plaintext kind or MIME type in D1; an area room's file keeps its type", async () => {
    const [a, b] = [await verifiedSession("0806", "Ada"), await verifiedSession("0806", "Bayo")];
    await setTier(a.id, "premium");
    const rooms = [await dm(a, b), await group(a, b)];
    const ids: string[] = [];
    for (const roomId of rooms) {
      const note = await voice(a, roomId, 20_000);
      expect(note.status).toBe(201);
      const image = await create(a, roomId, 30_000, "image/jpeg");
      expect(image.status).toBe(201);
      for (const res of [note, image]) ids.push((await res.json<{ file: { id: string } }>()).file.id);
    }
    const area = await create(a, "nearby:s14uc", 10, "text/plain");
    expect(area.status).toBe(201);
    const areaId = (await area.json<{ file: { id: string } }>()).file.id;
    const { results } = await env.DB.prepare("select id, kind, mime, name from files where owner_id = ?").bind(a.id).all<{
      id: string;
      kind: string;
      mime: string;
      name: string;
    }>();
    const rows = new Map(results.map((r) => [r.id, r]));
    for (const id of ids) expect(rows.get(id)).toEqual({ id, kind: "file", mime: "application/octet-stream", name: "" });
    expect(rows.get(areaId)).toMatchObject({ mime: "text/plain" });
    // Nothing in the private rows names a type: no column holds "voice", "audio/" or "image/".
    expect(JSON.stringify(ids.map((id) => rows.get(id)))).not.toMatch(/voice|audio\/|image\//);
  });

  it("100 parallel voice notes from a Premium sender: exactly the month's 50 are counted and sent", async () => {
    // docs/decisions/047-limits-taken-atomically.md: one conditional write over the month's rows.
    const [a, b] = [await verifiedSession("0806"), await verifiedSession("0806")];
    await setTier(a.id, "premium");
    const roomId = await dm(a, b);
    const answers = await Promise.all(Array.from({ length: 100 }, () => voice(a, roomId, 20_000)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses.filter((s) => s === 402)).toHaveLength(50);
    expect(await answers.find((r) => r.status === 402)?.json()).toMatchObject({ code: "voice_month_full", offer: "limit_reached" });
    expect(await voiceCount(a)).toBe(50);
  });

  it("in an area room replace the transcribed recording once, without counting it twice", async () => {
    const a = await verifiedSession("0806");
    await setTier(a.id, "premium");
    const recorded = await call("/api/ai/voice", {
      method: "POST",
      cookie: a.cookie,
      headers: { "content-type": "audio/webm" },
      body: new Uint8Array(2048).fill(7),
    });
    expect(recorded.status).toBe(201);
    const { id } = await recorded.json<{ id: string }>();
    expect(await voiceCount(a)).toBe(1);
    const note = await voice(a, "nearby:s14uc", 2048, id);
    expect(note.status).toBe(201);
    expect(await voiceCount(a)).toBe(1);
    // The plaintext copy the assistant kept is gone; the claim works once.
    expect((await call(`/api/ai/voice/${id}`, { cookie: a.cookie })).status).toBe(404);
    expect((await voice(a, "nearby:s14uc", 2048, id)).status).toBe(400);
  });
});
