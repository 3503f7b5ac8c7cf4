// The message envelope (docs/architecture.md §5): the one shape every transport carries, on every device and in rooms.
import { z } from "zod";

export const ENVELOPE_TYPES = ["text", "emergency", "system", "ai", "receipt", "presence", "key"] as const;
export const MAX_FRAME_BYTES = 64 * 1024;
/**
 * Kinds a member's device may send into a room. `emergency`, `system` and `ai` envelopes speak for LinkUp (an
 * SOS, a notice, the assistant), so only the server modules that own them put them in a room (MeshRoom's
 * `deliver` RPC, which no socket can reach). docs/decisions/013-who-says-what-in-a-room.md
 */
export const CLIENT_ENVELOPE_TYPES = ["text", "receipt", "presence", "key"] as const satisfies readonly (typeof ENVELOPE_TYPES)[number][];
/**
 * Most UTF-8 bytes of a member envelope's `meta` (JSON). Enough for a direct message's wrapped keys for
 * both people's devices (10 each at most) or a shared location; not a second body.
 */
export const MAX_META_BYTES = 4 * 1024;

export const EnvelopeSchema = z.object({
  id: z.string().min(8).max(64),
  room: z.string().min(3).max(200),
  senderId: z.string().min(1).max(64),
  senderName: z.string().max(60).optional(),
  timestamp: z.number().int().nonnegative(),
  type: z.enum(ENVELOPE_TYPES),
  ttl: z.number().int().min(0).max(16),
  meshRoute: z.array(z.string().max(60)).max(16),
  isEncrypted: z.boolean(),
  priority: z.enum(["normal", "high"]).default("normal"),
  // Plain text for public area rooms; ciphertext and iv (base64url) for private rooms.
  content: z.union([
    z.object({ text: z.string().max(8000) }),
    z.object({ ciphertext: z.string().max(60000), iv: z.string().max(64), keyId: z.string().max(128).optional() }),
  ]),
  meta: z.record(z.string(), z.unknown()).optional(),
  /**
   * When a disappearing message expires (ms since epoch). Stamped by the room from the chat's timer; whatever a
   * client writes here is dropped (docs/decisions/037c-disappearing-messages.md).
   */
  expiresAt: z.number().int().positive().optional(),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** Room ids: nearby:<geohash-5>, group:<id>, dm:<a>:<b> with the two user ids sorted. */
export function dmRoomId(a: string, b: string): string {
  return `dm:${[a, b].sort().join(":")}`;
}
export function nearbyRoomId(geohash5: string): string {
  return `nearby:${geohash5.slice(0, 5)}`;
}
export function roomKind(roomId: string): "nearby" | "group" | "dm" | null {
  const kind = roomId.split(":")[0];
  return kind === "nearby" || kind === "group" || kind === "dm" ? kind : null;
}
