// The room's hot path checks a member's `send` frame with this hand-written copy of EnvelopeSchema (core/envelope.ts)
// instead of zod: it is several times cheaper per message (bench/README.md, relay). It answers the same
// envelope zod would (unknown keys dropped, `priority` defaulted) or null, and the caller then asks zod, which
// decides and words the refusal. envelope-check.test.ts checks with fast-check that both agree on every input.
import { ENVELOPE_TYPES, type Envelope } from "./envelope";

const TYPES: ReadonlySet<unknown> = new Set(ENVELOPE_TYPES);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown, min: number, max: number): v is string => typeof v === "string" && v.length >= min && v.length <= max;
const int = (v: unknown, min: number, max: number): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max;

function content(v: unknown): Envelope["content"] | null {
  if (!isObject(v)) return null;
  // The schema's union tries plain text first.
  if (str(v.text, 0, 8000)) return { text: v.text };
  if (!str(v.ciphertext, 0, 60000) || !str(v.iv, 0, 64)) return null;
  if (v.keyId === undefined) return { ciphertext: v.ciphertext, iv: v.iv };
  return str(v.keyId, 0, 128) ? { ciphertext: v.ciphertext, iv: v.iv, keyId: v.keyId } : null;
}

/** The envelope of a valid `send` frame's parsed JSON, exactly as ClientFrameSchema gives it; otherwise null. */
export function checkSendFrame(frame: unknown): Envelope | null {
  if (!isObject(frame) || frame.type !== "send") return null;
  const e = frame.envelope;
  if (!isObject(e)) return null;
  if (!str(e.id, 8, 64) || !str(e.room, 3, 200) || !str(e.senderId, 1, 64)) return null;
  if (e.senderName !== undefined && !str(e.senderName, 0, 60)) return null;
  if (!int(e.timestamp, 0, Number.MAX_SAFE_INTEGER) || !TYPES.has(e.type) || !int(e.ttl, 0, 16)) return null;
  const route = e.meshRoute;
  if (!Array.isArray(route) || route.length > 16 || !route.every((hop) => str(hop, 0, 60))) return null;
  if (typeof e.isEncrypted !== "boolean") return null;
  const priority = e.priority === undefined ? "normal" : e.priority;
  if (priority !== "normal" && priority !== "high") return null;
  const c = content(e.content);
  if (!c) return null;
  // A `__proto__` key is left to zod, whose copy of the record treats it its own way.
  if (e.meta !== undefined && (!isObject(e.meta) || Object.hasOwn(e.meta, "__proto__"))) return null;
  // Keys in the schema's order, so the stored JSON is the same as zod's output gives.
  const out: Envelope = {
    id: e.id,
    room: e.room,
    senderId: e.senderId,
    ...(e.senderName !== undefined ? { senderName: e.senderName } : {}),
    timestamp: e.timestamp,
    type: e.type as Envelope["type"],
    ttl: e.ttl,
    meshRoute: route as string[],
    isEncrypted: e.isEncrypted,
    priority,
    content: c,
    ...(e.meta !== undefined ? { meta: { ...e.meta } } : {}),
  };
  return out;
}
