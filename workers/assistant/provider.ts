// The assistant's provider interface (docs/architecture.md §6): Workers AI in production, the offline assistant locally
// and whenever the binding fails or is slow.
import type { LanguageCode } from "../../core/ai-command";
import type { SupportCategory } from "../../core/ai-schemas";

export interface ChatInput {
  question: string;
  /** Recent chat lines, oldest first (the last 5 messages, docs/product/assistant.md). */
  history?: string[];
  /** Extra instructions, e.g. the support bot's facts. */
  system?: string;
}

export interface TranslateOutput {
  translatedText: string;
  sourceLanguage: LanguageCode | "auto";
}

export interface AssistantProvider {
  readonly name: "workers-ai" | "offline";
  chat(input: ChatInput): Promise<string>;
  translate(text: string, target: LanguageCode, source?: LanguageCode): Promise<TranslateOutput>;
  smartReplies(message: string, context?: string[]): Promise<string[]>;
  transcribe(audio: ArrayBuffer, mime: string): Promise<string>;
  classify(message: string): Promise<{ category: SupportCategory }>;
}

/** The offline assistant cannot do this; the caller answers honestly that it needs the online assistant. */
export class NeedsOnline extends Error {
  constructor(readonly what: string) {
    super(`${what} needs the online assistant`);
    this.name = "NeedsOnline";
  }
}

export class ProviderTimeout extends Error {
  constructor(ms: number) {
    super(`AI provider did not answer within ${ms} ms`);
    this.name = "ProviderTimeout";
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderTimeout(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type Sourced<T> = { value: T; source: "online" | "offline" };

/**
 * Runs one provider call online and falls back to the offline assistant on any error or after the timeout.
 * When `online` is null (local dev, tests, offline mode) the offline assistant answers directly.
 */
export async function withFallback<T>(
  online: AssistantProvider | null,
  offline: AssistantProvider,
  call: (p: AssistantProvider) => Promise<T>,
  timeoutMs: number,
): Promise<Sourced<T>> {
  if (online) {
    try {
      return { value: await withTimeout(call(online), timeoutMs), source: "online" };
    } catch (e) {
      console.warn("assistant: online provider failed, using the offline assistant:", e instanceof Error ? e.message : e);
    }
  }
  return { value: await call(offline), source: "offline" };
}
