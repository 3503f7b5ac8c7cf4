// Voice messages (docs/product/plans-and-limits.md): premium 50 a month, enterprise unlimited, free none. The audio is kept in
// R2 (`FILES`) and transcribed by the provider; offline, the audio is kept and the transcript waits.
import { VOICE_PREMIUM_MESSAGE } from "../../core/ai-command";
import { TIER_LIMITS } from "../../core/constants";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import { findFile, insertFile, setTranscript, voiceFilesOf } from "../../db/queries/files";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { offlineProvider } from "./offline";
import { NeedsOnline, withFallback, withTimeout } from "./provider";
import { giveBackVoiceMessageOfMonth, takeVoiceMessageOfMonth, voiceMessagesThisMonth } from "./usage";
import { AI_TIMEOUT_MS, onlineProvider, type Refusal, upgradeOffer } from "./common";

export const VOICE_MAX_BYTES = 5 * 1024 * 1024;
export const VOICE_MIME = /^audio\/(webm|ogg|mp4|mpeg|wav|x-wav|aac|m4a)(;.*)?$/;

export { VOICE_PREMIUM_MESSAGE };
export const VOICE_LIMIT_MESSAGE = `You've used your ${TIER_LIMITS.premium.voiceMessages} voice messages for this month. They renew on the 1st.`;

export type VoiceResult =
  | { ok: true; id: string; transcript: string; source: "online" | "offline"; usedThisMonth: number; monthlyLimit: number | null }
  | Refusal;

/** The refusal a user gets before recording, or null when they may send a voice message now. */
export async function voiceAllowed(db: Db, user: User, now = new Date()): Promise<Refusal | null> {
  const limit = TIER_LIMITS[user.subscriptionTier].voiceMessages;
  if (limit === 0) return upgradeOffer("premium_feature", "voice_premium", VOICE_PREMIUM_MESSAGE);
  if (limit !== null && (await voiceMessagesThisMonth(db, user.id, now)) >= limit)
    return upgradeOffer("limit_reached", "voice_month_full", VOICE_LIMIT_MESSAGE, { limit: TIER_LIMITS.premium.voiceMessages ?? 0 });
  return null;
}

/**
 * Takes one of the month's voice messages in one conditional write, or answers the refusal: parallel recordings
 * never pass the month's limit (docs/decisions/047-limits-taken-atomically.md).
 */
export async function takeVoiceAllowance(db: Db, user: User, now = new Date()): Promise<Refusal | null> {
  const limit = TIER_LIMITS[user.subscriptionTier].voiceMessages;
  if (limit === 0) return upgradeOffer("premium_feature", "voice_premium", VOICE_PREMIUM_MESSAGE);
  if (await takeVoiceMessageOfMonth(db, user.id, limit, now)) return null;
  return upgradeOffer("limit_reached", "voice_month_full", VOICE_LIMIT_MESSAGE, { limit: TIER_LIMITS.premium.voiceMessages ?? 0 });
}

export async function transcribeVoiceMessage(
  env: AppEnv,
  db: Db,
  input: { user: User; audio: ArrayBuffer; mime: string; timeoutMs?: number; now?: Date },
): Promise<VoiceResult> {
  const now = input.now ?? new Date();
  const refused = await takeVoiceAllowance(db, input.user, now);
  if (refused) return refused;
  try {
    return await storeVoiceMessage(env, db, { ...input, now });
  } catch (e) {
    // Nothing was kept: the month's message is given back.
    await giveBackVoiceMessageOfMonth(db, input.user.id, now);
    throw e;
  }
}

async function storeVoiceMessage(
  env: AppEnv,
  db: Db,
  input: { user: User; audio: ArrayBuffer; mime: string; timeoutMs?: number; now: Date },
): Promise<VoiceResult> {
  const id = newId();
  const ext = input.mime.split(/[/;]/)[1] ?? "webm";
  const r2Key = `voice/${input.user.id}/${id}.${ext}`;
  await env.FILES.put(r2Key, input.audio, { httpMetadata: { contentType: input.mime } });
  let transcript = "";
  let source: "online" | "offline" = "offline";
  try {
    const out = await withFallback(
      onlineProvider(env),
      offlineProvider(),
      (p) => p.transcribe(input.audio, input.mime),
      input.timeoutMs ?? AI_TIMEOUT_MS * 3,
    );
    transcript = out.value;
    source = out.source;
  } catch (e) {
    if (!(e instanceof NeedsOnline)) throw e;
  }
  await insertFile(db, {
    id,
    ownerId: input.user.id,
    kind: "voice",
    name: `voice-message.${ext}`,
    size: input.audio.byteLength,
    mime: input.mime,
    r2Key,
    encryptionLevel: "premium",
    transcript: transcript || null,
  });
  return {
    ok: true,
    id,
    transcript,
    source,
    usedThisMonth: await voiceMessagesThisMonth(db, input.user.id, input.now),
    monthlyLimit: TIER_LIMITS[input.user.subscriptionTier].voiceMessages,
  };
}

/** The owner's voice message audio, or null. */
export async function voiceAudio(env: AppEnv, db: Db, user: User, id: string) {
  const row = await findFile(db, id);
  if (row?.kind !== "voice" || row.ownerId !== user.id) return null;
  const obj = await env.FILES.get(row.r2Key);
  return obj ? { body: obj.body, mime: row.mime } : null;
}

/** The user's voice messages, newest first. */
export async function listVoiceMessages(db: Db, user: User, limit = 20) {
  const rows = await voiceFilesOf(db, user.id, limit);
  return rows.map((r) => ({ ...r, transcript: r.transcript ?? "", createdAt: r.createdAt.toISOString() }));
}

/**
 * Transcribes a stored voice message again (one recorded while the online assistant was unreachable).
 * Not counted again; null when it is not the user's, or when transcription still needs the online assistant.
 */
export async function retranscribe(env: AppEnv, db: Db, user: User, id: string, timeoutMs = AI_TIMEOUT_MS * 3) {
  const row = await findFile(db, id);
  if (row?.kind !== "voice" || row.ownerId !== user.id) return { found: false as const };
  if (row.transcript) return { found: true as const, transcript: row.transcript };
  const online = onlineProvider(env);
  const obj = online ? await env.FILES.get(row.r2Key) : null;
  if (!online || !obj) return { found: true as const, transcript: null };
  try {
    const transcript = (await withTimeout(online.transcribe(await obj.arrayBuffer(), row.mime), timeoutMs)).trim();
    if (transcript) await setTranscript(db, id, transcript);
    return { found: true as const, transcript: transcript || null };
  } catch (e) {
    console.warn("assistant: transcription failed again:", e instanceof Error ? e.message : e);
    return { found: true as const, transcript: null };
  }
}
