// '@ai ' messages and the assistant's pieces in the chat (web/app/features/assistant, owned by the assistant
// area). They need the network, so they load on first use and stay out of the chat's first download; the
// 'LIA Assistant' help message, shown when the assistant cannot be reached, is always at hand.
import { lazy } from "react";
import type { AssistantAnswer } from "../assistant/client";

export { liaHelpMessage as helpMessage } from "../assistant/lia-help";

export async function ask(text: string, history: string[]): Promise<AssistantAnswer> {
  try {
    const { askAssistant } = await import("../assistant/client");
    return await askAssistant(text, history);
  } catch {
    return { kind: "failed" };
  }
}

export const PremiumOffer = lazy(() => import("../assistant/premium-offer").then((m) => ({ default: m.PremiumOffer })));
export const ChatUpsell = lazy(() => import("../assistant/premium-offer").then((m) => ({ default: m.ChatUpsell })));
export const SmartReplyChips = lazy(() => import("../assistant/smart-replies").then((m) => ({ default: m.SmartReplyChips })));
export const VoiceRecorder = lazy(() => import("../assistant/voice-recorder").then((m) => ({ default: m.VoiceRecorder })));
