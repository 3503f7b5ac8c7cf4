// ICE servers for calls (docs/decisions/024-calls-through-the-room.md): what GET /api/calls/ice-servers answers, and
// the answer of Cloudflare's TURN credential API, checked before it reaches a browser.
import { z } from "zod";

export const IceServerSchema = z.object({
  urls: z.union([z.string().max(512), z.array(z.string().max(512)).max(16)]),
  username: z.string().max(512).optional(),
  credential: z.string().max(512).optional(),
});
export type IceServer = z.infer<typeof IceServerSchema>;

/** Cloudflare's generate-ice-servers answer (201). */
export const TurnCredentialAnswerSchema = z.object({ iceServers: z.array(IceServerSchema).max(8) });

export interface IceServersAnswer {
  iceServers: IceServer[];
  /** `turn`: short-lived Cloudflare TURN credentials; `stun`: public STUN only; `none`: host candidates only. */
  relay: "turn" | "stun" | "none";
  /** Seconds the credentials stay valid (TURN only). */
  ttl?: number;
}
