// SOS from the chat goes through the one SOS pipeline (POST /api/emergency/broadcast): the server records
// it, puts the emergency envelope into the area room, pushes to people nearby and messages the user's
// emergency contacts. With no network at all, the SOS waits in the mesh node's outbox (kept across reloads)
// and goes to the same pipeline once a connection is back: rooms take emergencies only from the server.
import { apiRequest, HttpError } from "../../../../core/http";
import { newId } from "../../../../core/ids";
import type { BroadcastAnswer } from "../../../../core/sos";
import type { MeshNode } from "../../mesh/node";

export interface SosInput {
  areaRoom: string;
  text?: string;
  position?: { latitude: number; longitude: number } | null;
}

export const DEFAULT_SOS_TEXT = "🆘 SOS: I need help urgently.";

export type SosOutcome = { via: "server"; answer: BroadcastAnswer } | { via: "mesh" };

export async function sendSos(node: MeshNode, input: SosInput): Promise<SosOutcome> {
  const text = input.text?.trim() || DEFAULT_SOS_TEXT;
  const location = input.position ? { latitude: input.position.latitude, longitude: input.position.longitude } : undefined;
  try {
    const answer = await apiRequest<BroadcastAnswer>("POST", "/api/emergency/broadcast", {
      message: text,
      emergencyType: "other",
      location,
      clientRequestId: newId(),
    });
    return { via: "server", answer };
  } catch (e) {
    // The server refused (e.g. bad input): say so. Only a network failure falls back to the mesh.
    if (e instanceof HttpError) throw e;
    await node.send(input.areaRoom, text, { type: "emergency", priority: "high", meta: location ? { location } : undefined });
    return { via: "mesh" };
  }
}
