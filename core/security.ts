// The security centre's vocabulary (docs/product/security.md).
// Pure: the Worker computes the state, this module names events and scores it.

export type SecurityEventType = "login" | "encryption" | "breach_attempt" | "emergency" | "audit";
export type SecuritySeverity = "low" | "medium" | "high" | "critical";

/** Every event LinkUp records, with the type and severity of docs/product/security.md and the line the person reads. */
export const SECURITY_EVENTS = {
  sign_in: { type: "login", severity: "medium", message: "New sign-in to your account" },
  two_factor_on: { type: "audit", severity: "low", message: "Two-factor authentication turned on" },
  two_factor_off: { type: "audit", severity: "high", message: "Two-factor authentication turned off" },
  failed_code: { type: "breach_attempt", severity: "medium", message: "A wrong two-factor code was entered" },
  code_lockout: { type: "breach_attempt", severity: "high", message: "Two-factor locked after too many wrong codes" },
  panic: { type: "emergency", severity: "critical", message: "Panic mode wiped a device and signed it out" },
  key_added: { type: "encryption", severity: "low", message: "A new device published its encryption key" },
  key_changed: { type: "encryption", severity: "high", message: "A device's encryption key changed" },
  key_removed: { type: "encryption", severity: "low", message: "A device's encryption key was withdrawn" },
  passkey_added: { type: "audit", severity: "low", message: "A passkey was added" },
  passkey_removed: { type: "audit", severity: "medium", message: "A passkey was removed" },
  export: { type: "audit", severity: "low", message: "Your data was exported" },
  deletion_requested: { type: "audit", severity: "high", message: "Account deletion was requested" },
} as const satisfies Record<string, { type: SecurityEventType; severity: SecuritySeverity; message: string }>;

export type SecurityEventKind = keyof typeof SECURITY_EVENTS;

export interface SecurityEventView {
  id: string;
  kind: SecurityEventKind;
  type: SecurityEventType;
  severity: SecuritySeverity;
  message: string;
  timestamp: string;
  resolved: boolean;
}

/** A passkey as the security screens list it (the public key stays on the server). */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type SecurityFeatureId =
  | "e2e_encryption"
  | "quantum_resistant"
  | "biometric_auth"
  | "two_factor"
  | "mesh_anonymization"
  | "disappearing_messages"
  | "panic_mode"
  | "app_lock"
  | "stealth_mode";

export interface SecurityFeature {
  id: SecurityFeatureId;
  title: string;
  description: string;
  enabled: boolean;
  premiumOnly: boolean;
  category: "encryption" | "authentication" | "privacy" | "emergency";
  /** Whether LinkUp offers it at all; one it does not offer says so and is left out of the score. */
  offered: boolean;
  /** Kept on the phone (app lock, panic code): the server cannot see it, the screen reads it on the device. */
  onDevice?: boolean;
}

/** The facts the score is computed from, each read from the database (never from the browser). */
export interface SecurityState {
  twoFactor: boolean;
  passkeys: number;
  anonymousMode: boolean;
  /** The person's auto-delete setting is on: the chats they start disappear (docs/decisions/040-disappearing-messages.md). */
  disappearingByDefault: boolean;
  /** Device facts: false on the server, which cannot see them; the screen fills them in (withDeviceFacts). */
  panicCode: boolean;
  appLock?: boolean;
  stealthMode: boolean;
}

export function securityFeatures(s: SecurityState): SecurityFeature[] {
  return [
    {
      id: "e2e_encryption",
      title: "End-to-end encryption",
      description: "Private chats and groups are sealed on your device; the server relays only ciphertext.",
      enabled: true,
      premiumOnly: false,
      category: "encryption",
      offered: true,
    },
    {
      id: "quantum_resistant",
      title: "Quantum-resistant encryption",
      description: "Not offered yet: LinkUp's keys are X25519, which a large quantum computer could break.",
      enabled: false,
      premiumOnly: true,
      category: "encryption",
      offered: false,
    },
    {
      id: "biometric_auth",
      title: "Passkey (biometric) sign-in",
      description: "A passkey on your phone (fingerprint, face or screen lock) asked for at each new sign-in.",
      enabled: s.passkeys > 0,
      premiumOnly: false,
      category: "authentication",
      offered: true,
    },
    {
      id: "two_factor",
      title: "Two-factor authentication",
      description: "Each new sign-in asks for a code from your authenticator app.",
      enabled: s.twoFactor,
      premiumOnly: false,
      category: "authentication",
      offered: true,
    },
    {
      id: "mesh_anonymization",
      title: "Anonymous in the mesh",
      description: "Others see a generated name instead of your nickname, except in groups you joined.",
      enabled: s.anonymousMode,
      premiumOnly: false,
      category: "privacy",
      offered: true,
    },
    {
      id: "disappearing_messages",
      title: "Disappearing messages",
      description: "Chats you start delete their messages after your auto-delete timer; anyone in a chat can change its timer.",
      enabled: s.disappearingByDefault,
      premiumOnly: false,
      category: "privacy",
      offered: true,
    },
    {
      id: "panic_mode",
      title: "Panic code",
      description: "A code you type at the app lock to wipe LinkUp from that device. It is kept on this device only.",
      enabled: s.panicCode,
      premiumOnly: false,
      category: "emergency",
      offered: true,
      onDevice: true,
    },
    {
      id: "app_lock",
      title: "App lock",
      description: "A PIN or passkey asked for after the idle time you chose. It is kept on this device only.",
      enabled: Boolean(s.appLock),
      premiumOnly: false,
      category: "authentication",
      offered: true,
      onDevice: true,
    },
    {
      id: "stealth_mode",
      title: "Stealth mode",
      description: "A neutral tab title and icon; notifications hide their content.",
      enabled: s.stealthMode,
      premiumOnly: false,
      category: "privacy",
      offered: true,
    },
  ];
}

export type ScoreLabel = "Excellent" | "Good" | "Fair" | "Poor";

/**
 * The score (docs/product/security.md) is the percentage of enabled features; labels as the cache health score's. Only what
 * LinkUp offers counts (issue 32): a protection nobody can switch on would hold every score down.
 */
export function securityScore(features: SecurityFeature[]): { score: number; label: ScoreLabel } {
  const counted = features.filter((f) => f.offered);
  const score = counted.length ? Math.round((100 * counted.filter((f) => f.enabled).length) / counted.length) : 0;
  const label: ScoreLabel = score >= 80 ? "Excellent" : score >= 60 ? "Good" : score >= 40 ? "Fair" : "Poor";
  return { score, label };
}

/** The features with what this device knows (its app lock and panic code), and the score they make. */
export function withDeviceFacts(
  features: SecurityFeature[],
  device: { appLock: boolean; panicCode: boolean },
): { features: SecurityFeature[]; score: number; label: ScoreLabel } {
  const on: Partial<Record<SecurityFeatureId, boolean>> = { app_lock: device.appLock, panic_mode: device.panicCode };
  const next = features.map((f) => (f.onDevice && f.id in on ? { ...f, enabled: Boolean(on[f.id]) } : f));
  return { features: next, ...securityScore(next) };
}

/** Badge tone for a score label, so the colour says what the word says. */
export const SCORE_TONE: Record<ScoreLabel, "ok" | "fair" | "bad"> = { Excellent: "ok", Good: "ok", Fair: "fair", Poor: "bad" };

/** docs/product/security.md: only the first 4 security events are shown. */
export const SECURITY_EVENTS_SHOWN = 4;

export interface SecurityOverview {
  score: number;
  label: ScoreLabel;
  features: SecurityFeature[];
  events: SecurityEventView[];
  backupCodesLeft: number;
}
