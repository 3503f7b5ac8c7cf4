// The 'LIA Assistant' help message (docs/product/assistant.md): shown when the assistant cannot answer at all, in the
// person's language; the sample commands stay as typed, since the assistant understands them so.
import { AI_SAMPLE_PROMPTS } from "../../../../core/ai-command";
import type { MessageKey } from "../../../../core/i18n/en";

export function liaHelpMessage(t: (key: MessageKey, vars?: Record<string, string>) => string, supportPhone: string): string {
  return [
    t("lia.unreachable"),
    ...AI_SAMPLE_PROMPTS.map((p) => `• ${p}`),
    supportPhone ? t("lia.person", { phone: supportPhone }) : t("lia.personNoPhone"),
  ].join("\n");
}
