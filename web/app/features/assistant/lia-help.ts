// The 'LIA Assistant' help message (spec part 1 §8): shown when the assistant cannot answer at all.
import { AI_SAMPLE_PROMPTS } from "../../../../core/ai-command";

export function liaHelpMessage(supportPhone: string): string {
  return [
    "LIA Assistant: I can't reach the assistant right now. Try again in a moment, or try one of these:",
    ...AI_SAMPLE_PROMPTS.map((p) => `• ${p}`),
    `For help from a person, call support on ${supportPhone}.`,
  ].join("\n");
}
