// '@ai ' messages and the assistant's pieces in the chat (web/app/features/assistant, owned by the assistant
// area). They need the network, so they load on first use and stay out of the chat's first download; the
// 'LIA Assistant' help message, shown when the assistant cannot be reached, is always at hand.
import type { AssistantAnswer } from "../assistant/client";
import { lazyPart } from "./lazy-part";

export { liaHelpMessage as helpMessage } from "../assistant/lia-help";

export async function ask(text: string, history: string[]): Promise<AssistantAnswer> {
  try {
    const { askAssistant } = await import("../assistant/client");
    return await askAssistant(text, history);
  } catch {
    return { kind: "failed" };
  }
}

export const PremiumOffer = lazyPart(() => import("../assistant/premium-offer").then((m) => m.PremiumOffer));
export const ChatUpsell = lazyPart(() => import("../assistant/premium-offer").then((m) => m.ChatUpsell));
export const SmartReplyChips = lazyPart(() => import("../assistant/smart-replies").then((m) => m.SmartReplyChips));
