// Shapes of LinkUp API answers, shared by the Worker (which builds them) and the screens (which read them).
export interface Me {
  id: string;
  nickname: string;
  phone: string | null;
  authMode: "anonymous" | "verified";
  role: "user" | "staff" | "admin";
  tier: "free" | "premium" | "enterprise";
  locationText: string | null;
  hasLocation: boolean;
  interests: string[];
  onboardingCompleted: boolean;
  settings: {
    language: string;
    quietStart: string;
    quietEnd: string;
    networkRange: string;
    powerSaving: string;
    autoDelete: string;
    meshNetworking: boolean;
    pushEnabled: boolean;
    anonymousMode: boolean;
    stealthMode: boolean;
  };
  createdAt: string;
}

export interface PublicStats {
  users: number;
  messagesToday: number;
  activeConnections: number;
  areaRooms: number;
  emergencyBroadcasts: number;
  marketCities: number;
}

/** One signed-in session of the person, as the sessions list of /security-settings shows it. */
export interface SessionView {
  /** A reference that names the session without being (or revealing) its cookie or stored hash. */
  ref: string;
  device: string;
  userAgent: string | null;
  current: boolean;
  createdAt: string;
  lastUsedAt: string;
}

/** Two-factor authentication as /security-settings shows it; `setup` only while enrolment awaits its code. */
export interface TwoFactorView {
  enabled: boolean;
  backupCodesLeft: number;
  setup: { secret: string; otpauthUrl: string; qrSvg: string } | null;
}
