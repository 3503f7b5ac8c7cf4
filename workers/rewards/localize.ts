// Achievements in the person's language: core/rewards.ts names them in English (the words of docs/product/rewards.md); the answer
// carries them translated, as the SOS push is (docs/decisions/031-web-app-languages.md), so every screen that
// shows an achievement shows it in the language the person chose.
import { loadTranslator } from "../../core/i18n/load-catalog";
import type { MessageKey } from "../../core/i18n/en";
import { chooseLanguage } from "../../core/i18n/languages";
import type { RewardsAnswer } from "../../core/rewards";

const ACHIEVEMENT_TEXT: Record<string, { title: MessageKey; description: MessageKey; reward: MessageKey }> = {
  "first-contact": { title: "ach.first-contact", description: "ach.first-contact.body", reward: "ach.first-contact.reward" },
  "message-master": { title: "ach.message-master", description: "ach.message-master.body", reward: "ach.message-master.reward" },
  "network-builder": { title: "ach.network-builder", description: "ach.network-builder.body", reward: "ach.network-builder.reward" },
  "emergency-hero": { title: "ach.emergency-hero", description: "ach.emergency-hero.body", reward: "ach.emergency-hero.reward" },
  "streak-warrior": { title: "ach.streak-warrior", description: "ach.streak-warrior.body", reward: "ach.streak-warrior.reward" },
  "community-champion": {
    title: "ach.community-champion",
    description: "ach.community-champion.body",
    reward: "ach.community-champion.reward",
  },
};

/** The catalog key of an achievement's name, for texts that name it (the reward notice). */
export const achievementTitleKey = (id: string): MessageKey | undefined => ACHIEVEMENT_TEXT[id]?.title;

/** The saved language first, then the browser's, then English (core/i18n/languages.ts). */
export async function localizeRewards(answer: RewardsAnswer, saved: string | null | undefined, acceptLanguage: string | null | undefined) {
  const t = await loadTranslator(chooseLanguage(saved, acceptLanguage));
  return {
    ...answer,
    achievements: answer.achievements.map((a) => {
      const keys = ACHIEVEMENT_TEXT[a.id];
      return keys ? { ...a, title: t(keys.title), description: t(keys.description), reward: t(keys.reward) } : a;
    }),
  };
}
