// What paired phones say to each other over a WebRTC data channel (docs/decisions/066-phones-paired-by-code.md).
// Checked with this schema on receipt like any other outside input: the other phone is a stranger's code.
// zod/mini, like core/frames.ts: this runs in the browser on the /chat budget.
import * as z from "zod/mini";
import { EnvelopeSchema, MAX_FRAME_BYTES } from "./envelope";
import { fromBase64Url } from "./ids";

/** The data channel's label: both phones open it by this name. */
export const PEER_CHANNEL = "linkup-mesh";
/** Neighbours a hello may list (managed flooding needs them; a phone has few). */
export const MAX_NEIGHBOURS = 32;

const id = z.string().check(z.minLength(1), z.maxLength(64));
const key = z.string().check(z.minLength(43), z.maxLength(43));

/** A phone of the mesh as others learn of it: its LinkUp device and the name it goes by. */
export const MeshPersonSchema = z.object({
  userId: id,
  nickname: z.string().check(z.maxLength(60)),
  deviceId: id,
  publicKey: key,
  signingKey: key,
});
export type MeshPerson = z.infer<typeof MeshPersonSchema>;

export const PeerMessageSchema = z.discriminatedUnion("k", [
  /**
   * Who I am, who I am paired with now (managed flooding's neighbour list, by device id) and the phones I know on
   * the mesh (so a private message can be sealed for a phone two hops away); whether I reach the relay.
   */
  z.object({
    k: z.literal("hello"),
    neighbours: z.array(id).check(z.maxLength(MAX_NEIGHBOURS)),
    people: z.array(MeshPersonSchema).check(z.maxLength(MAX_NEIGHBOURS * 4)),
    online: z.boolean(),
  }),
  /** An envelope travelling the mesh (its hops and TTL as in core/envelope.ts). */
  z.object({ k: z.literal("env"), envelope: EnvelopeSchema }),
]);
export type PeerMessage = z.infer<typeof PeerMessageSchema>;

/** Parses a data channel message; null for anything that is not one (too big, not JSON, wrong shape). */
export function parsePeerMessage(raw: unknown): PeerMessage | null {
  if (typeof raw !== "string" || raw.length > MAX_FRAME_BYTES) return null;
  try {
    const parsed = PeerMessageSchema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as PeerMessage) : null;
  } catch {
    return null;
  }
}

/**
 * The bytes a sender's identity key signs for an envelope that travels the mesh: what it says and who says it,
 * never the hops or TTL, which every relay changes. A phone (or the relay, when one hands it in) checks it against
 * the sender's known key, so a relaying phone cannot rewrite a message or speak for someone else.
 */
export function meshSignedBytes(e: {
  id: string;
  room: string;
  senderId: string;
  timestamp: number;
  type: string;
  content: unknown;
}): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    JSON.stringify(["linkup-mesh-v1", e.id, e.room, e.senderId, e.timestamp, e.type, e.content]),
  ) as Uint8Array<ArrayBuffer>;
}

/**
 * A paired phone's identity key, short enough to read aloud: SHA-256 of the Ed25519 key, its first 6 bytes as three
 * groups of four hex digits. The first pairing trusts the key in the code (docs/decisions/066-phones-paired-by-code.md);
 * two people who see the same groups on both screens know no phone in the middle swapped it.
 */
export async function meshKeyFingerprint(signingKey: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", fromBase64Url(signingKey)));
  const hex = [...hash.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join("");
  return hex.match(/.{4}/g)!.join(" ");
}
