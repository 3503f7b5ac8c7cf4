import { describe, expect, it } from "vitest";
import { decryptChunk, encryptChunk, newFileKey } from "./file-crypto";
import { chunkCountFor, FILE_CHUNK_BYTES, FILE_PART_BYTES, fileMessageText, partBytesFor, partCountFor, parseFileMessage } from "./files";

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
