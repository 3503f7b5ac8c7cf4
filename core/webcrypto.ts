// WebCrypto calls whose types differ between the browser's DOM library and workerd's runtime types (the same
// code runs in both: the Worker verifies device records and prekeys, the browser seals messages). Each
// difference is bridged here once, so both type configurations check the callers (docs/architecture.md §2).

/** A key's raw bytes (workerd's types return `ArrayBuffer | JsonWebKey` for every format). */
export async function exportRawKey(key: CryptoKey): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array((await crypto.subtle.exportKey("raw", key)) as ArrayBuffer);
}

/** ECDH or X25519 shared bits (workerd's types spell the algorithm's `public` member `$public`). */
export async function deriveSharedBits(
  name: "ECDH" | "X25519",
  privateKey: CryptoKey,
  publicKey: CryptoKey,
  bits = 256,
): Promise<Uint8Array<ArrayBuffer>> {
  const algorithm = { name, public: publicKey } as unknown as Parameters<SubtleCrypto["deriveBits"]>[0];
  return new Uint8Array(await crypto.subtle.deriveBits(algorithm, privateKey, bits));
}

/** UTF-8 bytes backed by a plain ArrayBuffer (workerd's `TextEncoder` is typed with any buffer). */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
}
