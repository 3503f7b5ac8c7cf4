// Calls bound to the chat (docs/protocol.md §9, docs/decisions/063-one-identity-per-person.md): the offer and
// the answer, with the DTLS fingerprints in them, travel sealed as direct messages of the chat (version 5), so a
// server that relays the signalling cannot swap in a fingerprint of its own and terminate DTLS on both sides.
// The receiver sets a remote description only from an SDP the other person's listed device sealed for this
// call, and the browser then refuses a DTLS peer whose certificate does not match that fingerprint, before any
// media flows. ICE candidates stay plain: they carry addresses, not keys (docs/protocol.md lists them).
import type { E2eSession } from "./e2e";
import type { Envelope } from "./envelope";
import { MAX_SDP_CHARS } from "./frames";

export type SdpKind = "offer" | "answer";

/** The id of the sealed envelope that carries one side's SDP: inside the signed header, so bound to the call. */
export const callEnvelopeId = (callId: string, kind: SdpKind) => `call-${kind}-${callId}`;

/** The DTLS fingerprints an SDP names (`a=fingerprint:<hash> <hex>`), normalised. */
export function sdpFingerprints(sdp: string): string[] {
  const found = new Set<string>();
  for (const m of sdp.matchAll(/^a=fingerprint:(\S+)\s+([0-9A-Fa-f:]+)\s*$/gm)) found.add(`${m[1]?.toLowerCase()} ${m[2]?.toUpperCase()}`);
  return [...found];
}

/** Shown when a call is refused because its signalling was not sealed by the other person's device. */
export const CALL_NOT_BOUND =
  "This call was refused: its security keys did not come from the other person's device, so someone may be listening in.";

/** Seals this side's SDP for the other person's devices; the wire form goes in the frame's `sdp` field. */
export async function sealSdp(
  session: Pick<E2eSession, "sealDirect">,
  call: { room: string; me: { id: string; nickname: string }; peerId: string; callId: string; kind: SdpKind; sdp: string },
): Promise<string> {
  if (sdpFingerprints(call.sdp).length === 0) throw new Error("No DTLS fingerprint in this device's SDP");
  const envelope: Envelope = {
    id: callEnvelopeId(call.callId, call.kind),
    room: call.room,
    senderId: call.me.id,
    senderName: call.me.nickname,
    timestamp: Date.now(),
    type: "text",
    ttl: 1,
    meshRoute: [],
    isEncrypted: true,
    priority: "high",
    content: { text: "" },
  };
  const sealed = await session.sealDirect(envelope, call.sdp, call.peerId);
  if (!sealed.envelope) throw new Error("The other person's security keys changed: open the chat to see the change, then call again.");
  const wire = JSON.stringify(sealed.envelope);
  if (wire.length > MAX_SDP_CHARS) throw new Error("This call's setup is too large to send sealed");
  return wire;
}

/**
 * Opens the other side's sealed SDP: only an envelope of this chat and call, from the other person, that the
 * protocol authenticates (a listed device of theirs, its entry's MAC, no replay), with a DTLS fingerprint in it.
 */
export async function openSdp(
  session: Pick<E2eSession, "open">,
  call: { room: string; peerId: string; callId: string; kind: SdpKind; wire: string },
): Promise<{ ok: true; sdp: string } | { ok: false; reason: string }> {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(call.wire) as Envelope;
  } catch {
    return { ok: false, reason: "not-sealed" };
  }
  if (!envelope || typeof envelope !== "object" || !envelope.content || typeof envelope.content !== "object")
    return { ok: false, reason: "not-sealed" };
  if (envelope.room !== call.room || envelope.senderId !== call.peerId || envelope.type !== "text")
    return { ok: false, reason: "wrong-call" };
  if (envelope.id !== callEnvelopeId(call.callId, call.kind)) return { ok: false, reason: "wrong-call" };
  const opened = await session.open(envelope);
  if (!opened.ok) return { ok: false, reason: opened.reason };
  if (sdpFingerprints(opened.text).length === 0) return { ok: false, reason: "no-fingerprint" };
  return { ok: true, sdp: opened.text };
}
