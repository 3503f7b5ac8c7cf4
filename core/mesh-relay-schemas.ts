// What a phone hands the relay for others it carried on the phone mesh (docs/decisions/066-phones-paired-by-code.md).
// Each envelope is checked again with the protocol's own schema and the sender's signature (workers/mesh/relay.ts).
import { z } from "zod";

/** Envelopes one request may hand in (a phone hands in what it carried in batches). */
export const MAX_RELAYED_PER_REQUEST = 50;

export const MeshRelaySchema = z.object({
  envelopes: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_RELAYED_PER_REQUEST),
});
export type MeshRelayInput = z.infer<typeof MeshRelaySchema>;

export interface MeshRelayAnswer {
  /** Ids the relay now holds (stored now, or already held: the room keeps each id once). */
  taken: string[];
  /** Ids it will never take, and why (the phone stops handing them in). */
  refused: { id: string; reason: string }[];
}
