import { describe, expect, it } from "vitest";
import { decryptChunk, encryptChunk, newFileKey } from "./file-crypto";
import fc from "fast-check";
import {
  checkFileMessage,
  chunkCountFor,
  FILE_CHUNK_BYTES,
  FILE_PART_BYTES,
  FileMessageSchema,
  fileMessageText,
  partBytesFor,
  partCountFor,
  parseFileMessage,
} from "./files";

describe("file parts", () => {
  it("cut a file into equal parts of at least 5 MiB and one shorter last part that add up to the ciphertext", () => {
    for (const size of [0, 1, FILE_CHUNK_BYTES, 5 * FILE_CHUNK_BYTES, 12 * FILE_CHUNK_BYTES + 4321, 100 * FILE_CHUNK_BYTES]) {
      const chunks = chunkCountFor(size);
      const parts = Array.from({ length: partCountFor(chunks) }, (_, i) => partBytesFor(size, i + 1));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(size + chunks * 16);
      for (const p of parts.slice(0, -1)) expect(p).toBe(FILE_PART_BYTES);
      expect(FILE_PART_BYTES).toBeGreaterThanOrEqual(5 * 1024 * 1024);
      expect(partBytesFor(size, parts.length + 1)).toBe(0);
    }
  });
});

describe("chunk encryption", () => {
  it("refuses a chunk moved to another place or taken from a file of another length", async () => {
    const { key } = await newFileKey();
    const plain = new TextEncoder().encode("first chunk");
    const sealed = await encryptChunk(key, 0, 3, plain);
    expect(new TextDecoder().decode(await decryptChunk(key, 0, 3, sealed))).toBe("first chunk");
    await expect(decryptChunk(key, 1, 3, sealed)).rejects.toThrow();
    await expect(decryptChunk(key, 0, 2, sealed)).rejects.toThrow();
  });
});

describe("file messages", () => {
  const message = {
    fileId: "AAAAAAAAAAAAAAAAAAAAAA",
    name: "report.pdf",
    size: 10,
    mime: "application/pdf",
    key: "A".repeat(43),
    chunkSize: FILE_CHUNK_BYTES,
    sha256: "0".repeat(64),
    kind: "file" as const,
  };
  it("round-trip through a chat message's text, and anything else is plain text", () => {
    expect(parseFileMessage(fileMessageText(message))).toEqual(message);
    expect(parseFileMessage("hello")).toBeNull();
    expect(parseFileMessage("linkup:file:{not json")).toBeNull();
    expect(parseFileMessage(`linkup:file:${JSON.stringify({ ...message, key: "short" })}`)).toBeNull();
  });
});

describe("the browser's file message check", () => {
  // The chat checks peers' file messages without zod (core/files-client.ts); it must accept and refuse exactly
  // what the schema does.
  const good = {
    fileId: "AAAAAAAAAAAAAAAAAAAAAA",
    name: "photo.jpg",
    size: 2048,
    mime: "image/jpeg",
    key: "A".repeat(43),
    chunkSize: FILE_CHUNK_BYTES,
    sha256: "0".repeat(64),
    thumbnail: "data:image/jpeg;base64,AAAA",
    kind: "voice",
    transcript: "hello",
  };
  const field = fc.oneof(
    fc.constantFrom(
      undefined,
      null,
      "",
      0,
      -1,
      1.5,
      2 ** 53,
      [],
      {},
      "x".repeat(300),
      "data:image/png;base64,AA",
      "short",
      "file",
      "voice",
      "sound",
    ),
    fc.string(),
    fc.integer(),
  );
  it("agrees with FileMessageSchema on good messages and on every field gone wrong", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(good)), field, fc.boolean(), (key, value, drop) => {
        const candidate: Record<string, unknown> = { ...good };
        if (drop) delete candidate[key];
        else candidate[key] = value;
        const parsed = FileMessageSchema.safeParse(candidate);
        expect(checkFileMessage(candidate)).toEqual(parsed.success ? parsed.data : null);
      }),
      { numRuns: 2000 },
    );
    expect(checkFileMessage(good)).toEqual(good);
    expect(checkFileMessage({ ...good, kind: undefined })).toMatchObject({ kind: "file" });
  });
});
