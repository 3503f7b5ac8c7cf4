import { chooseLanguage } from "../../../core/i18n/languages";
// /api/ai: the assistant over HTTP. Thin: who is asking, parse, one assistant call, shape the answer.
import { Hono } from "hono";
import { extractAiText } from "../../../core/ai-command";
import { AiChatRequestSchema, SmartRepliesRequestSchema, TranslateRequestSchema } from "../../../core/ai-schemas";
import { TIER_LIMITS } from "../../../core/constants";
import { isPrivateRoomId, PRIVATE_VOICE_REFUSED, VoiceUploadQuerySchema } from "../../../core/rooms";
import { runAiCommand, smartReplies, transcribeVoiceMessage, translateText, voiceAllowed, voiceAudio } from "../../assistant";
import { readUsage, voiceMessagesThisMonth } from "../../assistant/usage";
import { listVoiceMessages, retranscribe, VOICE_MAX_BYTES, VOICE_MIME } from "../../assistant/voice";
import { requireUser, requireVerified } from "../../auth/session";
import type { AppBindings } from "../../env";
import { errorBody, parseJson } from "../../errors";
import { DomainError } from "../../../core/domain-error";
import { clientAddress } from "../../limits";

function historyLines(history: unknown[] | undefined): string[] {
  return (history ?? [])
    .map((h) => (typeof h === "string" ? h : ((h as { content?: string; text?: string }).content ?? (h as { text?: string }).text ?? "")))
    .filter((t) => t.trim().length > 0)
    .slice(-5);
}

export const ai = new Hono<AppBindings>()
  .post("/chat", async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, AiChatRequestSchema);
    // The client sends the text after '@ai ' (docs/product/assistant.md); a client that sends the whole message is accepted too.
    const text = extractAiText(body.message) ?? body.message;
    const result = await runAiCommand(c.env, c.var.db, {
      userId: user.id,
      text,
      channel: "web",
      address: clientAddress(c.env, c.req.header("cf-connecting-ip")),
      history: historyLines(body.context?.messageHistory),
    });
    if (!result.ok) return c.json(result.body, result.status);
    // Today's count lets the chat apply the upsell rule (docs/product/plans-and-limits.md) without another request.
    const today = await readUsage(c.var.db, user.id);
    return c.json({ message: result.message, source: result.source, usage: { aiCommands: today.aiCommands } });
  })
  .post("/translate", async (c) => {
    const user = requireUser(c);
    const body = await parseJson(c, TranslateRequestSchema);
    const result = await translateText(c.env, c.var.db, {
      userId: user.id,
      text: body.text,
      target: body.targetLanguage,
      source: body.sourceLanguage,
    });
    if (result.ok) return c.json({ ...result.translation, source: result.source });
    if (result.status === 402) return c.json(result.body, 402);
    // The sentence names the phrase and the language; the code lets a screen say it in its own words.
    return c.json(errorBody(result.code, result.error), 503);
  })
  .post("/smart-replies", async (c) => {
    // docs/product/identity.md: phone verification unlocks AI smart replies.
    const user = requireVerified(c);
    const body = await parseJson(c, SmartRepliesRequestSchema);
    const context = typeof body.context === "string" ? [body.context] : body.context;
    const language = chooseLanguage(user.language, c.req.header("accept-language"));
    const { replies } = await smartReplies(c.env, { message: body.message, context, language });
    return c.json(replies);
  })
  .get("/usage", async (c) => {
    const user = requireUser(c);
    const tier = user.subscriptionTier;
    const today = await readUsage(c.var.db, user.id);
    return c.json({
      tier,
      aiCommands: { used: today.aiCommands, limit: TIER_LIMITS[tier].aiCommands },
      translations: { used: today.translations, limit: TIER_LIMITS[tier].translations },
      voiceMessages: { usedThisMonth: await voiceMessagesThisMonth(c.var.db, user.id), limit: TIER_LIMITS[tier].voiceMessages },
    });
  })
  .post("/voice", async (c) => {
    const user = requireUser(c);
    // A recording for a private chat would be plaintext on the server: refused before anything is read.
    const query = VoiceUploadQuerySchema.safeParse({ room: c.req.query("room") });
    if (!query.success) throw new DomainError("unknown_room", "Unknown room");
    if (query.data.room && isPrivateRoomId(query.data.room)) throw new DomainError("voice_private", PRIVATE_VOICE_REFUSED);
    // Refuse before reading the audio: free users never upload.
    const refused = await voiceAllowed(c.var.db, user);
    if (refused) return c.json(refused.body, 402);
    const mime = c.req.header("content-type") ?? "";
    if (!VOICE_MIME.test(mime)) throw new DomainError("voice_audio_type", "Send the recording as audio (webm, ogg, mp4, mpeg or wav)");
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > VOICE_MAX_BYTES) throw new DomainError("voice_too_large", "Voice messages can be at most 5 MB");
    const audio = await c.req.arrayBuffer();
    if (audio.byteLength === 0) throw new DomainError("voice_empty", "The recording is empty");
    if (audio.byteLength > VOICE_MAX_BYTES) throw new DomainError("voice_too_large", "Voice messages can be at most 5 MB");
    const result = await transcribeVoiceMessage(c.env, c.var.db, { user, audio, mime: mime.split(";")[0] });
    if (!result.ok) return c.json(result.body, 402);
    const { ok: _ok, ...answer } = result;
    return c.json(answer, 201);
  })
  .get("/voice", async (c) => {
    const user = requireUser(c);
    return c.json({ messages: await listVoiceMessages(c.var.db, user) });
  })
  .post("/voice/:id/transcribe", async (c) => {
    const user = requireUser(c);
    const result = await retranscribe(c.env, c.var.db, user, c.req.param("id"));
    if (!result.found) throw new DomainError("voice_not_found", "Voice message not found");
    if (result.transcript === null)
      throw new DomainError("transcription_unavailable", "Transcription needs the online assistant, which isn't reachable right now.");
    return c.json({ id: c.req.param("id"), transcript: result.transcript });
  })
  .get("/voice/:id", async (c) => {
    const user = requireUser(c);
    const audio = await voiceAudio(c.env, c.var.db, user, c.req.param("id"));
    if (!audio) throw new DomainError("voice_not_found", "Voice message not found");
    return new Response(audio.body, { headers: { "content-type": audio.mime, "cache-control": "private, max-age=3600" } });
  });
