// Envelopes that travelled the phone mesh, handed to the relay by whichever phone reaches it first
// (docs/decisions/066-phones-paired-by-code.md). The phone handing them in is not their sender, so the room's rule
// "only as yourself" (docs/decisions/013-who-says-what-in-a-room.md) is kept another way: each envelope carries its
// sender's Ed25519 signature (core/peer-mesh.ts meshSignedBytes), checked here against the device key the sender
// published. Text goes into the area room through `deliver`, which keeps each id once, so copies from several
// phones and from the sender's own outbox make one message; an SOS goes through the one SOS pipeline with its
// envelope id as the request id, so it alerts once.
import { type Envelope, EnvelopeSchema } from "../../core/envelope";
import { fromBase64Url } from "../../core/ids";
import type { MeshRelayAnswer } from "../../core/mesh-relay-schemas";
import { meshSignedBytes } from "../../core/peer-mesh";
import { roomKind } from "../../core/room-ids";
import { SOS_MESSAGE_MAX } from "../../core/sos";
import type { Db } from "../../db";
import { listDeviceKeys } from "../../db/queries/rooms";
import { findUserById } from "../../db/queries/users";
import { isBanned } from "../admin/bans";
import { stampMemberEnvelope } from "../../durable-objects/mesh-logic";
import type { AppEnv } from "../env";
import { roomStub } from "../rooms/stub";
import { broadcastSos } from "../sos";

/** Older than the phones carry an SOS (web/app/mesh/forward-store.ts): not taken. */
export const RELAY_OLDEST_MS = 72 * 60 * 60 * 1000;
/** Clocks of phones differ; beyond this an envelope claims a time still to come. */
const FUTURE_SLACK_MS = 10 * 60 * 1000;

async function signedBySender(db: Db, envelope: Envelope): Promise<boolean> {
  const mark = envelope.meta?.mesh as { device?: unknown; sig?: unknown } | undefined;
  if (typeof mark?.device !== "string" || typeof mark.sig !== "string") return false;
  const device = (await listDeviceKeys(db, envelope.senderId)).find((d) => d.deviceId === mark.device);
  if (!device?.signingKey) return false;
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(device.signingKey), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(mark.sig), meshSignedBytes(envelope));
  } catch {
    return false;
  }
}

/** Takes what a phone carried for others; answers what the relay holds now and what it will never take. */
export async function relayFromMesh(
  env: AppEnv,
  db: Db,
  input: { envelopes: Record<string, unknown>[]; clientAddress: string | null },
): Promise<MeshRelayAnswer> {
  const answer: MeshRelayAnswer = { taken: [], refused: [] };
  const now = Date.now();
  for (const raw of input.envelopes) {
    const parsed = EnvelopeSchema.safeParse(raw);
    const id = typeof raw.id === "string" ? raw.id.slice(0, 64) : "";
    if (!parsed.success) {
      answer.refused.push({ id, reason: "malformed" });
      continue;
    }
    const envelope = parsed.data as Envelope;
    // Only the public area rooms: a private room's envelopes are sealed for devices, and its members' own
    // outboxes bring them (docs/decisions/066-phones-paired-by-code.md).
    if (
      roomKind(envelope.room) !== "nearby" ||
      (envelope.type !== "text" && envelope.type !== "emergency") ||
      !("text" in envelope.content)
    ) {
      answer.refused.push({ id, reason: "not_relayable" });
      continue;
    }
    if (envelope.timestamp < now - RELAY_OLDEST_MS || envelope.timestamp > now + FUTURE_SLACK_MS) {
      answer.refused.push({ id, reason: "stale" });
      continue;
    }
    if (!(await signedBySender(db, envelope))) {
      answer.refused.push({ id, reason: "signature" });
      continue;
    }
    const sender = await findUserById(db, envelope.senderId);
    if (!sender) {
      answer.refused.push({ id, reason: "unknown_sender" });
      continue;
    }
    // A banned person's words do not come back in through another phone (docs/decisions/025-bans.md).
    if (isBanned(sender)) {
      answer.refused.push({ id, reason: "banned" });
      continue;
    }
    if (envelope.type === "emergency") {
      const location = envelope.meta?.location as { latitude?: unknown; longitude?: unknown } | undefined;
      await broadcastSos(env, db, {
        userId: sender.id,
        message: envelope.content.text.slice(0, SOS_MESSAGE_MAX) || "SOS",
        emergencyType: "other",
        location:
          typeof location?.latitude === "number" && typeof location.longitude === "number"
            ? { latitude: location.latitude, longitude: location.longitude }
            : undefined,
        clientRequestId: envelope.id,
        channel: "web",
        clientAddress: input.clientAddress,
      });
    } else {
      await roomStub(env, envelope.room).deliver(stampMemberEnvelope(envelope, { nickname: sender.nickname }));
    }
    answer.taken.push(envelope.id);
  }
  return answer;
}
