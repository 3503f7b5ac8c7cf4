import { TIER_LIMITS } from "../../core/constants";
import { newId } from "../../core/ids";
import type { Db } from "../../db";
import { findFile, insertFile, setTranscript, voiceFilesOf } from "../../db/queries/files";
import type { User } from "../../db/schema";
import type { AppEnv } from "../env";
import { offlineProvider } from "./offline";
import { NeedsOnline, withFallback, withTimeout } from "./provider";
import { giveBackVoiceMessageOfMonth, voiceMessagesThisMonth } from "./usage";
import { AI_TIMEOUT_MS, onlineProvider, type Refusal } from "./common";

// The sizes and the month's allowance live apart (./voice-allowance.ts), so the upload limits and file uploads that
// read them do not bring the assistant into the Worker's startup chunk (docs/decisions/070-light-enough-for-2g.md).
export {
  VOICE_LIMIT_MESSAGE,
  VOICE_MAX_BYTES,
  VOICE_MIME,
  VOICE_PREMIUM_MESSAGE,
  takeVoiceAllowance,
  voiceAllowed,
} from "./voice-allowance";
import { takeVoiceAllowance } from "./voice-allowance";

export type VoiceResult =
  | { ok: true; id: string; transcript: string; source: "online" | "offline"; usedThisMonth: number; monthlyLimit: number | null }
  | Refusal;

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
