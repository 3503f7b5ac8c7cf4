// SOS, contacts and notification centre: constants, types and display helpers shared by the Worker and the
// screens. No zod here, so screens that import it stay small; the input schemas are in sos-schemas.ts.

export const EMERGENCY_TYPES = ["medical", "fire", "security", "accident", "flood", "other"] as const;
export type EmergencyType = (typeof EMERGENCY_TYPES)[number];
export const EMERGENCY_TYPE_LABELS: Record<EmergencyType, string> = {
  medical: "Medical",
  fire: "Fire",
  security: "Security threat",
  accident: "Accident",
  flood: "Flood",
  other: "Other",
};

export const SOS_MESSAGE_MAX = 500;

export const MAX_EMERGENCY_CONTACTS = 10;

export const NOTIFICATION_TYPES = ["message", "emergency", "system", "ai", "security", "market"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_PRIORITIES = ["critical", "high", "medium", "low"] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** docs/product/settings-and-notifications.md: marketUpdates and quietHours default off, the rest on; quiet 22:00 to 07:00. */
export const DEFAULT_NOTIFICATION_PREFS = {
  messages: true,
  emergencyAlerts: true,
  systemUpdates: true,
  aiInsights: true,
  securityAlerts: true,
  marketUpdates: false,
  quietHours: false,
  quietStart: "22:00",
  quietEnd: "07:00",
};
export type NotificationPrefs = typeof DEFAULT_NOTIFICATION_PREFS;

export const PREF_LABELS: Record<Exclude<keyof NotificationPrefs, "quietStart" | "quietEnd">, string> = {
  messages: "Messages",
  emergencyAlerts: "Emergency alerts",
  systemUpdates: "System updates",
  aiInsights: "AI insights",
  securityAlerts: "Security alerts",
  marketUpdates: "Market updates",
  quietHours: "Quiet hours",
};

/** Which preference switches each notification type on or off. */
export const PREF_FOR_TYPE: Record<NotificationType, keyof NotificationPrefs> = {
  message: "messages",
  emergency: "emergencyAlerts",
  system: "systemUpdates",
  ai: "aiInsights",
  security: "securityAlerts",
  market: "marketUpdates",
};

// Answers.
export interface SosReached {
  room: number;
  push: number;
  contacts: number;
}
export interface BroadcastAnswer {
  id: string;
  created: boolean;
  reached: SosReached;
  failed: string[];
  room: string | null;
  /** The SOS named an area far from where the sender was known to be, and only their contacts were told. */
  areaWithheld?: boolean;
}
/** An SOS older than this when it first reaches a screen is history, not an alarm: no banner (issue 32). */
export const SOS_ALARM_MS = 15 * 60_000;

/**
 * The newest active SOS in a person's area from someone else that they have not answered, for the banner every
 * screen shows: read with the session, so a fresh page load has it before any script (docs/decisions/062).
 */
export interface SosBanner {
  id: string;
  /** The area room it was put in, for "Open the chat". */
  room: string;
  senderName: string;
  message: string;
  emergencyType: string;
  locationText: string | null;
  broadcastedAt: number;
}

export interface NearbySos {
  id: string;
  userId: string;
  senderName: string;
  mine: boolean;
  emergencyType: string;
  message: string;
  locationText: string | null;
  distanceMetres: number | null;
  broadcastedAt: string;
  status: "active" | "resolved";
  canResolve: boolean;
}
export interface EmergencyContactView {
  id: string;
  name: string;
  phone: string;
}
export interface NotificationView {
  id: string;
  type: NotificationType;
  title: string;
  content: string;
  priority: NotificationPriority;
  isRead: boolean;
  actionRequired: boolean;
  source: string;
  url: string | null;
  timestamp: string;
}
export interface NotificationStats {
  total: number;
  unread: number;
  emergency: number;
  today: number;
}

/** Quiet hours in Nigeria's time (WAT, UTC+1, no daylight saving); a window may cross midnight. */
export function inQuietHours(prefs: Pick<NotificationPrefs, "quietHours" | "quietStart" | "quietEnd">, now: Date = new Date()): boolean {
  if (!prefs.quietHours) return false;
  const wat = new Date(now.getTime() + 3600_000);
  const minutes = wat.getUTCHours() * 60 + wat.getUTCMinutes();
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const start = toMin(prefs.quietStart);
  const end = toMin(prefs.quietEnd);
  if (start === end) return false;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}
