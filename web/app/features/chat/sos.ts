// SOS from the chat: an emergency envelope (type 'emergency', priority high) into the area room through the
// mesh node, so it waits in the outbox and leaves by any transport. The SOS area wires the full pipeline
// (contacts, push, emergency_broadcasts) here.
import type { MeshNode } from "../../mesh/node";

export interface SosInput {
  areaRoom: string;
  text?: string;
  position?: { latitude: number; longitude: number } | null;
}

export const DEFAULT_SOS_TEXT = "🆘 SOS: I need help urgently.";

export async function sendSos(node: MeshNode, input: SosInput) {
  const text = input.text?.trim() || DEFAULT_SOS_TEXT;
  const meta = input.position ? { location: { latitude: input.position.latitude, longitude: input.position.longitude } } : undefined;
  return node.send(input.areaRoom, text, { type: "emergency", priority: "high", meta });
}
