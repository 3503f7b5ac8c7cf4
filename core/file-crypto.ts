// Chunked file encryption (docs/decisions/023-encrypted-files-in-rooms.md): AES-256-GCM under a fresh key per file.
// The nonce of chunk i is i itself (big-endian in 12 bytes): a key encrypts one file, so a nonce never meets a
// second plaintext. The additional data names the chunk's index and the chunk count, so a relay cannot reorder,
// drop or cut off chunks without the receiver noticing.
import { FILE_CHUNK_BYTES, FILE_TAG_BYTES } from "./files";
import { fromBase64Url, toBase64Url } from "./ids";

export async function newFileKey(): Promise<{ key: CryptoKey; raw: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return { key: await importFileKey(toBase64Url(bytes)), raw: toBase64Url(bytes) };
}

export function importFileKey(raw: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", fromBase64Url(raw), "AES-GCM", false, ["encrypt", "decrypt"]);
}

function nonceFor(index: number): Uint8Array<ArrayBuffer> {
  const iv = new Uint8Array(12);
  new DataView(iv.buffer).setBigUint64(4, BigInt(index));
  return iv;
}

function aadFor(index: number, count: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`linkup-file|1|${index}|${count}`);
}

export async function encryptChunk(key: CryptoKey, index: number, count: number, plain: BufferSource): Promise<Uint8Array<ArrayBuffer>> {
  const out = await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonceFor(index), additionalData: aadFor(index, count) }, key, plain);
  return new Uint8Array(out);
}

/** Throws when the chunk was altered, moved or belongs to another file. */
export async function decryptChunk(key: CryptoKey, index: number, count: number, sealed: BufferSource): Promise<Uint8Array<ArrayBuffer>> {
  const out = await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonceFor(index), additionalData: aadFor(index, count) }, key, sealed);
  return new Uint8Array(out);
}

/** Bytes of encrypted chunk i of a file of `size` plaintext bytes. */
export function sealedChunkBytes(size: number, index: number): number {
  return Math.max(0, Math.min(FILE_CHUNK_BYTES, size - index * FILE_CHUNK_BYTES)) + FILE_TAG_BYTES;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
