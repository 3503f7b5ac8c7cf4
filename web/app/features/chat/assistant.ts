// '@ai ' messages in the chat: asks the assistant through web/app/features/assistant/client.ts (owned by the
// assistant area, loaded lazily so its code only arrives when someone asks).
import { liaHelpMessage } from "../assistant/lia-help";

export type AssistantAnswer = { kind: "reply"; message: string } | { kind: "offer"; error: string; code: string } | { kind: "failed" };
type AssistantModule = { askAssistant: (text: string, history?: string[]) => Promise<AssistantAnswer> };

// A glob, not an import: the chat builds whether or not the assistant client is there yet.
const modules = import.meta.glob<AssistantModule>("../assistant/client.ts");

export async function ask(text: string, history: string[] = []): Promise<AssistantAnswer> {
  const load = Object.values(modules)[0];
  if (!load) return { kind: "failed" };
  try {
    return await (await load()).askAssistant(text, history);
  } catch {
    return { kind: "failed" };
  }
}

/** The 'LIA Assistant' help message shown when the assistant cannot answer (spec part 1 §8). */
export const helpMessage = liaHelpMessage;
