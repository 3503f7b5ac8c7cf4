// Business constants (docs/product/plans-and-limits.md, docs/product/settings-and-notifications.md). Screens and
// servers read them from here.

export const PRODUCT = "LinkUp";
export const STORAGE_PREFIX = "linkup";
export const MOBILE_MAX_WIDTH = 768;
export const COOKIE_CONSENT_VERSION = "1.0";
export const COOKIE_CONSENT_COOKIE = "linkup-cookies-accepted";
/** The consent cookie's value when the person chose to use LinkUp without its offline features. */
export const COOKIE_CONSENT_DECLINED = "declined";

export const TIERS = ["free", "premium", "enterprise"] as const;
export type Tier = (typeof TIERS)[number];

export const PRICES_NGN = {
  premium: { monthly: 2500, yearly: 25000 },
  enterprise: { monthly: 15000, yearly: 150000 },
} as const;
export const TRIAL_DAYS = 7;
/** The premium-required message for analytics (docs/product/plans-and-limits.md) (with the free-trial offer), answered to a free person. */
export const ANALYTICS_PREMIUM_REQUIRED = `Your own analytics are a Premium feature. Upgrade to Premium to see them — try it free for ${TRIAL_DAYS} days.`;

const MiB = 1024 * 1024;

/**
 * Per user per day (docs/product/plans-and-limits.md); voice and file transfers are per month. null means unlimited. Files: Premium
 * 50 a month up to 100 MB; Community's are ours (docs/decisions/023-encrypted-files-in-rooms.md).
 */
export const TIER_LIMITS: Record<
  Tier,
  {
    aiCommands: number | null;
    translations: number | null;
    voiceMessages: number | null;
    analytics: boolean;
    fileTransfers: number | null;
    fileMaxBytes: number;
  }
> = {
  free: { aiCommands: 10, translations: 5, voiceMessages: 0, analytics: false, fileTransfers: 10, fileMaxBytes: 25 * MiB },
  premium: { aiCommands: null, translations: null, voiceMessages: 50, analytics: true, fileTransfers: 50, fileMaxBytes: 100 * MiB },
  enterprise: { aiCommands: null, translations: null, voiceMessages: null, analytics: true, fileTransfers: null, fileMaxBytes: 100 * MiB },
};

export const TOAST = {
  limit: 1,
  removeDelayMs: 1_000_000,
  durationMs: 5000,
  swipeThresholdPx: 50,
  hotkey: "F8",
  viewportMaxWidthPx: 420,
} as const;

export const SUPPORT_HOURS = [
  { days: "Monday to Friday", hours: "8:00-20:00 WAT" },
  { days: "Saturday", hours: "9:00-18:00" },
  { days: "Sunday", hours: "10:00-16:00" },
] as const;

export const EMERGENCY_NUMBERS = ["112", "199"] as const;

/** The settings' defaults (docs/product/settings-and-notifications.md; new users start with them; 'Reset Settings' returns to them). */
export const SETTINGS_DEFAULTS = {
  language: "english",
  quietStart: "22:00",
  quietEnd: "07:00",
  networkRange: "auto",
  powerSaving: "balanced",
  autoDelete: "never",
  meshNetworking: true,
  pushEnabled: true,
  anonymousMode: false,
  // Stealth mode: a neutral title and icon, and push notifications without their content.
  stealthMode: false,
};

export const SETTINGS_OPTIONS = {
  languages: [
    "english",
    "spanish",
    "french",
    "german",
    "portuguese",
    "arabic",
    "chinese",
    "japanese",
    "russian",
    "hindi",
    "hausa",
    "igbo",
    "yoruba",
    // Not among the product's 18: the phone channels already speak Nigerian Pidgin (docs/decisions/031-web-app-languages.md).
    "pidgin",
    "swahili",
    "amharic",
    "zulu",
    "xhosa",
    "afrikaans",
  ],
  networkRange: ["auto", "short", "medium", "long"],
  powerSaving: ["performance", "balanced", "battery"],
  autoDelete: ["never", "1hour", "1day", "1week", "1month"],
} as const;

export const TRANSLATION_LANGUAGES = ["English", "Hausa", "Igbo", "Yoruba", "Swahili", "French", "Arabic", "Nigerian Pidgin"] as const;

export const QUICK_REPLIES = ["Hello", "Got it", "Share location", "Emergency", "Amazing", "Thank you"] as const;

/** Badges show '99+' above 99. */
export function badgeText(count: number): string {
  return count > 99 ? "99+" : String(count);
}
