// Cloudflare TURN (docs/decisions/024-calls-through-the-room.md): the Worker trades its long-term TURN key for
// credentials that expire, per request, so the key never reaches a page. Without the key, production hands out
// public STUN, and development (which needs no network) host candidates only.
import { type IceServersAnswer, TurnCredentialAnswerSchema } from "../../core/ice";
import { type AppEnv, isDevelopment } from "../env";

export const TURN_API = "https://rtc.live.cloudflare.com/v1/turn/keys";
/** How long credentials last: longer than any call should, short enough that a leaked one soon dies. */
export const TURN_TTL_SECONDS = 4 * 3600;
export const PUBLIC_STUN = ["stun:stun.cloudflare.com:3478"];

export function turnConfigured(env: AppEnv): boolean {
  return Boolean(env.TURN_KEY_ID && env.TURN_KEY_API_TOKEN);
}

export class TurnUnavailable extends Error {}

export async function iceServersFor(env: AppEnv): Promise<IceServersAnswer> {
  if (!turnConfigured(env)) {
    return isDevelopment(env) ? { iceServers: [], relay: "none" } : { iceServers: [{ urls: PUBLIC_STUN }], relay: "stun" };
  }
  let res: Response;
  try {
    res = await fetch(`${TURN_API}/${encodeURIComponent(env.TURN_KEY_ID ?? "")}/credentials/generate-ice-servers`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.TURN_KEY_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ ttl: TURN_TTL_SECONDS }),
    });
  } catch (err) {
    throw new TurnUnavailable(`TURN credential request failed: ${String(err)}`);
  }
  if (!res.ok) throw new TurnUnavailable(`TURN credential request answered ${res.status}`);
  const parsed = TurnCredentialAnswerSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new TurnUnavailable("TURN credential answer was not understood");
  // Browsers block port 53, so those URLs would only time out (Cloudflare's TURN docs say to drop them).
  const iceServers = parsed.data.iceServers
    .map((s) => ({ ...s, urls: (Array.isArray(s.urls) ? s.urls : [s.urls]).filter((u) => !/:53(\?|$)/.test(u)) }))
    .filter((s) => s.urls.length > 0);
  return { iceServers, relay: "turn", ttl: TURN_TTL_SECONDS };
}
