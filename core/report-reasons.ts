// Why a person reports someone to the staff desk (docs/decisions/038-reports-and-device-bans.md). Kept apart from
// core/admin-schemas.ts so the chat's report form does not pull zod into the chat's first load.
export const REPORT_REASONS = ["spam", "harassment", "scam", "hate", "impersonation", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
