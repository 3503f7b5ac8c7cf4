// Direct messages, version 4 (docs/protocol.md §4, docs/decisions/074-keys-and-metadata-inside-the-seal.md):
// what version 3 left outside the seal goes inside it.
//
// - The per-device key entries (each recipient's ratchet message and X3DH header) are signed with the header, so
//   a relay that rewrites one (say a ratchet counter of 5,000,000, or another ephemeral key) is refused by the
//   signature check, before the receiver derives a single chain key.
// - The plaintext is padded to 160-byte buckets before sealing, as Signal pads its messages, so the ciphertext
//   says how long a message is only to within 160 bytes.
// Version 3 envelopes still open (history, and messages the room kept for a device that was away); a device
// refuses a version 3 one from a sender device once it has opened a version 4 one of lower or equal counter from
// it in the room, so the relay cannot pass a new message off as version 3 to escape the signature.
import { fromBase64Url, toBase64Url } from "./ids";
import { deriveSharedBits, utf8 } from "./webcrypto";

export const SIGNED_ENTRIES_VERSION = 4;

/** Plaintexts are padded to a multiple of this many bytes (Signal's message padding uses the same block). */
export const PAD_BLOCK = 160;

/**
 * The key entries as one canonical string for the signature: every field a receiver uses, in one order. A
 * field the relay changes, adds to the used ones or takes away changes the string. Anything that is not an
 * object becomes null (and is refused later as malformed, after the signature failed or held).
 */
export function signedEntries(keys: unknown): string {
  if (!Array.isArray(keys)) return "[]";
  return JSON.stringify(
    keys.map((e) => {
      if (!e || typeof e !== "object") return null;
      const entry = e as {
        to?: unknown;
        r?: {
          header?: { dh?: unknown; pn?: unknown; n?: unknown };
          ciphertext?: unknown;
        };
        x3dh?: unknown;
      };
      const h = entry.r?.header;
      const x = entry.x3dh as { ek?: unknown; spk?: unknown; opk?: unknown } | undefined;
      return [
        entry.to ?? null,
        h?.dh ?? null,
        h?.pn ?? null,
        h?.n ?? null,
        entry.r?.ciphertext ?? null,
        x === undefined ? null : [x?.ek ?? null, x?.spk ?? null, x?.opk ?? null],
      ];
    }),
  );
}

const enc = new TextEncoder();
/** Ends the text; the padding after it is spaces only, so the last marker is always this one. */
const MARK = "\u0000";

/** The text and its padding: UTF-8 bytes rounded up to the next PAD_BLOCK (at least one marker byte). */
export function padText(text: string): string {
  const bytes = enc.encode(text).byteLength + 1;
  const target = Math.ceil(bytes / PAD_BLOCK) * PAD_BLOCK;
  return `${text}${MARK}${" ".repeat(target - bytes)}`;
}

/** The text without its padding; null when the padding is not ours (a sender that does not follow version 4). */
export function unpadText(padded: string): string | null {
  const at = padded.lastIndexOf(MARK);
  if (at < 0 || !/^ *$/.test(padded.slice(at + 1))) return null;
  return padded.slice(0, at);
}

/** The lowest version 4 counter seen from a sender device in a room: version 3 at or above it is refused. */
export const v4FloorKey = (room: string, senderId: string, device: string) => `e2e:v4-from:${room}|${senderId}|${device}`;

// Direct messages, version 5 (docs/protocol.md §4 and §10, docs/decisions/084-deniable-direct-messages.md): deniable.
// No long-term signature: each recipient device's key entry carries a MAC under a key both devices derive from
// their two identity X25519 keys (static Diffie-Hellman, as X3DH's own authentication), over the header, the
// entry and the hash of the content ciphertext; the same hash is the ratchet message's additional data. The
// receiver checks its entry's MAC before any chain step (what version 4's signature did), and a recipient cannot
// reuse the shared content key to pass other words to the sender's other devices (their entries bind the hash).
// Either of the two devices could have made the MAC, so a transcript proves nothing to a third party.
export const DENIABLE_VERSION = 5;

/** The hash of a message's content (header, IV, ciphertext) that every key entry of version 5 binds. */
export async function contentBinding(header: string, iv: string, ciphertext: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8(JSON.stringify([header, iv, ciphertext])));
  return toBase64Url(new Uint8Array(digest));
}

/**
 * The MAC key of a pair of devices: HKDF over X25519(my identity key, their identity key), the two public keys
 * sorted into the info, so it is the same key on both sides and no one else's.
 */
export async function entryMacKey(mine: CryptoKeyPair, myPublic: string, peerPublic: string): Promise<CryptoKey> {
  const peer = await crypto.subtle.importKey("raw", fromBase64Url(peerPublic), { name: "X25519" }, false, []);
  const secret = await deriveSharedBits("X25519", mine.privateKey, peer);
  const ikm = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: utf8("linkup-e2e-v5"),
      info: utf8(`entry-mac|${[myPublic, peerPublic].sort().join("|")}`),
    },
    ikm,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  );
}

/** What a version 5 entry's MAC covers: the header, every field of the entry the receiver uses, the content hash. */
const macBytes = (header: string, entry: unknown, binding: string) => utf8(JSON.stringify([header, signedEntries([entry]), binding]));

export async function macEntry(key: CryptoKey, header: string, entry: unknown, binding: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, macBytes(header, entry, binding))));
}

export async function entryMacHolds(key: CryptoKey, header: string, entry: { mac?: unknown }, binding: string): Promise<boolean> {
  if (typeof entry.mac !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(entry.mac)) return false;
  return crypto.subtle.verify("HMAC", key, fromBase64Url(entry.mac), macBytes(header, entry, binding));
}
