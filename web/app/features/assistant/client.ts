// The assistant's browser client: '@ai' commands, smart replies, translation, support and voice messages.
// Types only from core (no zod in the browser bundle); the server validates everything.
import type { SmartReply, SupportAnswer, Translation, VoiceMessageResponse } from "../../../../core/ai-schemas";
import { HttpError, apiRequest } from "../../../../core/http";
import { type Offer, offerOf as offerIn, type Refusal, refusalOf } from "../../i18n/refusal";

export type AssistantAnswer =
  | { kind: "reply"; message: string; aiCommandsToday?: number }
  | ({ kind: "offer" } & Offer)
  | { kind: "failed" };

function offerOf(e: unknown): Offer | null {
  return e instanceof HttpError && e.status === 402 ? offerIn(e.json) : null;
}

/**
 * Sends the text after '@ai ' to POST /api/ai/chat (docs/product/assistant.md). A 402 is the premium offer; any other
 * failure is 'failed' (the chat then shows the LIA Assistant help message).
 */
export async function askAssistant(text: string, history: string[] = []): Promise<AssistantAnswer> {
  try {
    const answer = await apiRequest<{ message: string; usage?: { aiCommands: number } }>("POST", "/api/ai/chat", {
      message: text,
      context: { messageHistory: history.slice(-5), userLocation: "mesh-network", meshStatus: "connected" },
    });
    if (!answer || typeof answer.message !== "string") return { kind: "failed" };
    return { kind: "reply", message: answer.message, aiCommandsToday: answer.usage?.aiCommands };
  } catch (e) {
    const offer = offerOf(e);
    return offer ? { kind: "offer", ...offer } : { kind: "failed" };
  }
}

/** Smart-reply chips for a received message: [] when not available (not verified, offline, error). */
export async function fetchSmartReplies(message: string, context: string[] = []): Promise<SmartReply[]> {
  if (!message.trim()) return [];
  try {
    const replies = await apiRequest<SmartReply[]>("POST", "/api/ai/smart-replies", { message, context: context.slice(-5) });
    return Array.isArray(replies) ? replies.filter((r) => typeof r?.text === "string") : [];
  } catch {
    return [];
  }
}

export type TranslateAnswer = { kind: "ok"; translation: Translation } | ({ kind: "offer" } & Offer) | { kind: "error"; error: Refusal };

export async function translate(text: string, targetLanguage: string, sourceLanguage?: string): Promise<TranslateAnswer> {
  try {
    const translation = await apiRequest<Translation>("POST", "/api/ai/translate", { text, targetLanguage, sourceLanguage });
    return { kind: "ok", translation };
  } catch (e) {
    const offer = offerOf(e);
    if (offer) return { kind: "offer", ...offer };
    const refusal = e instanceof HttpError ? refusalOf(e.json) : null;
    return { kind: "error", error: refusal ?? { key: "api.translationFailed" } };
  }
}

export async function askSupport(message: string, userPhone?: string): Promise<SupportAnswer> {
  return apiRequest<SupportAnswer>("POST", "/api/support/query", { message, userPhone: userPhone || undefined });
}

export async function supportFollowup(
  originalQuery: string,
  response: string,
  userPhone?: string,
): Promise<{ followUp: string; ticketId?: string }> {
  return apiRequest("POST", "/api/support/followup", { originalQuery, response, userPhone: userPhone || undefined });
}

export type VoiceAnswer = { kind: "ok"; voice: VoiceMessageResponse } | ({ kind: "offer" } & Offer) | { kind: "error"; error: Refusal };

/** Uploads a recording; the server stores it in R2 and transcribes it (premium: 50 a month). */
export async function sendVoiceMessage(audio: Blob, room?: string): Promise<VoiceAnswer> {
  // The chat it is for goes along, so the server can refuse a private one (docs/protocol.md §1).
  const res = await fetch(room ? `/api/ai/voice?room=${encodeURIComponent(room)}` : "/api/ai/voice", {
    method: "POST",
    credentials: "include",
    headers: { "content-type": audio.type || "audio/webm" },
    body: audio,
  });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (res.ok) return { kind: "ok", voice: body as unknown as VoiceMessageResponse };
  const offer = res.status === 402 ? offerIn(body) : null;
  if (offer) return { kind: "offer", ...offer };
  return { kind: "error", error: refusalOf(body) ?? `${res.status}: ${res.statusText}` };
}

/** Asks again for the transcript of a voice message recorded while the online assistant was unreachable. */
export async function retryTranscript(id: string): Promise<string | null> {
  try {
    const answer = await apiRequest<{ transcript: string }>("POST", `/api/ai/voice/${encodeURIComponent(id)}/transcribe`);
    return answer.transcript || null;
  } catch {
    return null;
  }
}
