// The message envelope (docs/architecture.md §5): the one shape every transport carries, on every device and in rooms.
// zod/mini, like core/frames.ts: the one definition runs in the Worker and in the browser, where the full zod
// build would cost about 25 KiB of gzipped JavaScript on the /chat budget (150 KiB).
import * as z from "zod/mini";

export const ENVELOPE_TYPES = ["text", "emergency", "system", "ai", "receipt", "presence", "key"] as const;
export const MAX_FRAME_BYTES = 64 * 1024;
/** The most hops an envelope may take: its ttl and the length of its meshRoute. */
export const MAX_TTL = 16;
/**
 * Time to live a new envelope starts with, on devices and on the server alike: the most, since the client's
 * managed flooding keeps relays few (docs/decisions/035-managed-flooding.md).
 */
export const DEFAULT_TTL = MAX_TTL;
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

const str = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const upTo = (max: number) => z.string().check(z.maxLength(max));

export const EnvelopeSchema = z.object({
  id: str(8, 64),
  room: str(3, 200),
  senderId: str(1, 64),
  senderName: z.optional(upTo(60)),
  timestamp: z.int().check(z.minimum(0)),
  type: z.enum(ENVELOPE_TYPES),
  ttl: z.int().check(z.minimum(0), z.maximum(MAX_TTL)),
  meshRoute: z.array(upTo(60)).check(z.maxLength(MAX_TTL)),
  isEncrypted: z.boolean(),
  priority: z._default(z.enum(["normal", "high"]), "normal"),
  // Plain text for public area rooms; ciphertext and iv (base64url) for private rooms.
  content: z.union([z.object({ text: upTo(8000) }), z.object({ ciphertext: upTo(60000), iv: upTo(64), keyId: z.optional(upTo(128)) })]),
  meta: z.optional(z.record(z.string(), z.unknown())),
  /**
   * When a disappearing message expires (ms since epoch). Stamped by the room from the chat's timer; whatever a
   * client writes here is dropped (docs/decisions/040-disappearing-messages.md).
   */
  expiresAt: z.optional(z.int().check(z.minimum(1))),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** Room ids are parsed in core/room-ids.ts; re-exported here for the modules that take them with envelopes. */
export { dmRoomId, nearbyRoomId, roomKind } from "./room-ids";
