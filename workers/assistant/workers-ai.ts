// Workers AI through the `AI` binding (docs/architecture.md §6, docs/decisions/005-assistant-models.md).
import { z } from "zod";
import { LANGUAGES, type LanguageCode } from "../../core/ai-command";
import { SUPPORT_CATEGORIES, type SupportCategory } from "../../core/ai-schemas";
import { INSTRUCT_MODEL, SPEECH_MODEL, TRANSLATION_MODEL } from "../../core/assistant-models";
import type { AssistantProvider, ChatInput, TranslateOutput } from "./provider";

export { INSTRUCT_MODEL, SPEECH_MODEL, TRANSLATION_MODEL };
export const M2M100_LANGUAGES: ReadonlySet<LanguageCode> = new Set(["en", "fr", "ar"]);

/** The part of the binding we use; validated answers, so a changed model output fails loudly, not silently. */
export interface AiRunner {
  run(model: string, input: Record<string, unknown>): Promise<unknown>;
}

const SYSTEM = [
  "You are LIA, the LinkUp assistant for communities in Nigeria and across Africa (farmers, traders, students, families).",
  "Answer in plain, short sentences (at most 120 words), in the language the user writes in.",
  "Never invent prices, figures, forecasts, phone numbers or facts you are not sure of; say you do not know instead.",
  "For any emergency tell the user to call 112 or 199 and to use the SOS button in LinkUp.",
].join(" ");

const TextAnswer = z.object({
  response: z.string().optional(),
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).optional(),
});
const TranslationAnswer = z.object({ translated_text: z.string().min(1) }).passthrough();
const SpeechAnswer = z.object({ text: z.string() }).passthrough();

function textOf(raw: unknown): string {
  const parsed = TextAnswer.parse(raw);
  const text = (parsed.response ?? parsed.choices?.[0]?.message.content ?? "").trim();
  if (!text) throw new Error("Workers AI answered with empty text");
  return text;
}

function toBase64(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let binary = "";
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function workersAiProvider(ai: AiRunner): AssistantProvider {
  const instruct = async (system: string, user: string, history: string[] = [], maxTokens = 400) =>
    textOf(
      await ai.run(INSTRUCT_MODEL, {
        // Recent chat lines go into the system turn as context: they are other people's words, not the user's turns.
        messages: [
          {
            role: "system",
            content: history.length ? `${system}\nRecent chat messages, oldest first:\n${history.map((h) => `- ${h}`).join("\n")}` : system,
          },
          { role: "user", content: user },
        ],
        max_tokens: maxTokens,
      }),
    );

  return {
    name: "workers-ai",
    chat: (input: ChatInput) => instruct(input.system ? `${SYSTEM}\n${input.system}` : SYSTEM, input.question, input.history),

    async translate(text, target, source): Promise<TranslateOutput> {
      if (source && M2M100_LANGUAGES.has(source) && M2M100_LANGUAGES.has(target)) {
        const out = TranslationAnswer.parse(await ai.run(TRANSLATION_MODEL, { text, source_lang: source, target_lang: target }));
        return { translatedText: out.translated_text.trim(), sourceLanguage: source };
      }
      const from = source ? ` from ${LANGUAGES[source]}` : "";
      const translated = await instruct(
        `You are a professional translator. Translate the user's text${from} into ${LANGUAGES[target]}. Reply with the translation only, no notes or quotes.`,
        text,
        [],
        300,
      );
      return { translatedText: translated.replace(/^["“]|["”]$/g, ""), sourceLanguage: source ?? "auto" };
    },

    async smartReplies(message, context = []) {
      const answer = await instruct(
        "Suggest three short replies (at most 6 words each) the user could send in answer to the last chat message. One reply per line, no numbering, no quotes.",
        message,
        context.slice(-5),
        80,
      );
      const replies = answer
        .split("\n")
        .map((l) =>
          l
            .replace(/^[\s\-*\d.)]+/, "")
            .replace(/^["“]|["”]$/g, "")
            .trim(),
        )
        .filter((l) => l.length > 0 && l.length <= 60);
      if (replies.length === 0) throw new Error("Workers AI gave no usable smart replies");
      return replies.slice(0, 3);
    },

    async transcribe(audio) {
      const out = SpeechAnswer.parse(await ai.run(SPEECH_MODEL, { audio: toBase64(audio) }));
      return out.text.trim();
    },

    async classify(message): Promise<{ category: SupportCategory }> {
      const answer = await instruct(
        `Classify this customer-support message of a chat app into exactly one category: ${SUPPORT_CATEGORIES.filter((c) => c !== "error" && c !== "followup").join(", ")}. Reply with the category word only.`,
        message,
        [],
        5,
      );
      const word = answer.toLowerCase().replace(/[^a-z]/g, "");
      const category = SUPPORT_CATEGORIES.find((c) => c === word);
      if (!category) throw new Error(`Workers AI gave an unknown category: ${answer}`);
      return { category };
    },
  };
}
