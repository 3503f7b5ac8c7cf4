// The screens the showcase and the mockups gallery present: each one a finished screen of the app.
export const SCREEN_CATEGORIES = [
  { id: "all", label: "All" },
  { id: "chat", label: "Chat" },
  { id: "safety", label: "Safety" },
  { id: "assistant", label: "Assistant" },
  { id: "account", label: "Account" },
] as const;

export type ScreenCategory = Exclude<(typeof SCREEN_CATEGORIES)[number]["id"], "all">;

export const SCREENS: { to: string; title: string; text: string; category: ScreenCategory }[] = [
  {
    to: "/chat",
    title: "Mesh chat",
    text: "Area rooms, private chats and groups, with an outbox that survives a dropped network.",
    category: "chat",
  },
  {
    to: "/community",
    title: "Community",
    text: "Public rooms near you and the largest ones, with your area's active SOS.",
    category: "chat",
  },
  { to: "/mesh-network", title: "Mesh network", text: "Who is in your room and how your messages travel.", category: "chat" },
  {
    to: "/emergency",
    title: "Emergency",
    text: "Send an SOS to your area and your contacts, and see alerts near you.",
    category: "safety",
  },
  { to: "/security-settings", title: "Security settings", text: "Sessions, two-factor sign-in and panic mode.", category: "safety" },
  { to: "/ai-features", title: "AI features", text: "Translation, smart replies and the community assistant.", category: "assistant" },
  { to: "/whatsapp-demo", title: "WhatsApp bot", text: "The same assistant and SOS from WhatsApp.", category: "assistant" },
  { to: "/support", title: "AI support", text: "Answers about LinkUp, handed to a person when needed.", category: "assistant" },
  { to: "/gamification", title: "Rewards", text: "Points, streaks and achievements for real actions.", category: "account" },
  { to: "/settings", title: "Settings", text: "Profile, network range, privacy and alerts.", category: "account" },
  { to: "/pricing", title: "Pricing", text: "Community, Premium and Enterprise plans.", category: "account" },
  { to: "/download", title: "Install", text: "LinkUp on your home screen, straight from the browser.", category: "account" },
];
