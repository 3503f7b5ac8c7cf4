// The screens the showcase and the mockups gallery present: each one a finished screen of the app.
import type { MessageKey } from "../../../../core/i18n/en";

export const SCREEN_CATEGORIES = [
  { id: "all", label: "story.cat.all" },
  { id: "chat", label: "story.cat.chat" },
  { id: "safety", label: "story.cat.safety" },
  { id: "assistant", label: "story.cat.assistant" },
  { id: "account", label: "story.cat.account" },
] as const satisfies readonly { id: string; label: MessageKey }[];

export type ScreenCategory = Exclude<(typeof SCREEN_CATEGORIES)[number]["id"], "all">;

export const SCREENS: { to: string; title: MessageKey; text: MessageKey; category: ScreenCategory }[] = [
  { to: "/chat", title: "story.screen.chat.title", text: "story.screen.chat.text", category: "chat" },
  { to: "/community", title: "story.screen.community.title", text: "story.screen.community.text", category: "chat" },
  { to: "/mesh-network", title: "story.screen.mesh.title", text: "story.screen.mesh.text", category: "chat" },
  { to: "/emergency", title: "story.screen.emergency.title", text: "story.screen.emergency.text", category: "safety" },
  { to: "/security-settings", title: "story.screen.security.title", text: "story.screen.security.text", category: "safety" },
  { to: "/ai-features", title: "story.screen.ai.title", text: "story.screen.ai.text", category: "assistant" },
  { to: "/whatsapp-demo", title: "story.screen.whatsapp.title", text: "story.screen.whatsapp.text", category: "assistant" },
  { to: "/support", title: "story.screen.support.title", text: "story.screen.support.text", category: "assistant" },
  { to: "/gamification", title: "story.screen.rewards.title", text: "story.screen.rewards.text", category: "account" },
  { to: "/settings", title: "story.screen.settings.title", text: "story.screen.settings.text", category: "account" },
  { to: "/pricing", title: "story.screen.pricing.title", text: "story.screen.pricing.text", category: "account" },
  { to: "/download", title: "story.screen.install.title", text: "story.screen.install.text", category: "account" },
];
