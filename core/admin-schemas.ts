// Inputs of the staff desk and the admin console (docs/product/admin-and-analytics.md).
import { z } from "zod";
import { REPORT_REASONS } from "./report-reasons";

/** An admin makes someone staff or takes it back; admin itself comes only from ADMIN_PHONES. */
export const SetRoleSchema = z.object({ role: z.enum(["user", "staff"]) });

/** An Enterprise organisation's dedicated staff member, or nobody (docs/decisions/067-enterprise-teams.md). */
export const SupportStaffSchema = z.object({ staffId: z.string().trim().min(1).max(64).nullable() });

/** Find a person by phone (any written form) or by a piece of the nickname. */
export const FindPeopleQuerySchema = z.object({ q: z.string().trim().min(2).max(64) });

/** The console's one statement (POST /api/admin/sql, field `query`; docs/product/admin-and-analytics.md). */
export const ConsoleQuerySchema = z.object({ query: z.string().min(1).max(2000) });

/**
 * The console's quick queries, over users and emergency_broadcasts (docs/product/admin-and-analytics.md). Messages and connections are
 * no longer D1 rows: their figures come from the rooms' batches, the hourly roll-up and room_presence
 * (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
 */
export const QUICK_QUERIES = [
  {
    id: "new-users",
    label: "New users in the last 24 hours",
    query: "SELECT count(*) AS new_users FROM users WHERE created_at > (unixepoch() - 86400) * 1000",
  },
  {
    id: "tiers",
    label: "People by tier",
    query: "SELECT subscription_tier, count(*) AS people FROM users GROUP BY subscription_tier ORDER BY people DESC",
  },
  {
    id: "messages-today",
    label: "Messages in the last 24 hours",
    query:
      "SELECT coalesce(sum(count), 0) AS messages FROM analytics_hourly WHERE kind LIKE 'message.%' AND hour >= strftime('%Y-%m-%dT%H', unixepoch() - 86400, 'unixepoch')",
  },
  { id: "mesh-active", label: "Active mesh connections", query: "SELECT coalesce(sum(sockets), 0) AS active FROM room_presence" },
  {
    id: "sos-week",
    label: "SOS broadcasts in the last 7 days",
    query:
      "SELECT date(broadcasted_at / 1000, 'unixepoch') AS day, count(*) AS broadcasts FROM emergency_broadcasts WHERE broadcasted_at > (unixepoch() - 7 * 86400) * 1000 GROUP BY day ORDER BY day DESC",
  },
] as const;

/** Staff answer a call-back ticket; `close` ends it in the same step. */
export const TicketReplySchema = z.object({ message: z.string().trim().min(1).max(1000), close: z.boolean().default(false) });

/** Staff ban a person (the reason is for the audit log and the desk, never shown to others). */
export const BanSchema = z.object({ reason: z.string().trim().min(3).max(300) });

/** What a banned person is told when signing in or joining a room (docs/decisions/025-bans.md). */
export const BANNED_MESSAGE = "This account is suspended. Contact LinkUp support if you think this is a mistake.";

/** A price older than this is not quoted: the assistant and USSD say there is no recent price instead. */
export const RECENT_PRICE_DAYS = 30;

export function isRecentPrice(row: { updatedAt: Date }, now = new Date()): boolean {
  return now.getTime() - row.updatedAt.getTime() <= RECENT_PRICE_DAYS * 86_400_000;
}

/**
 * The source of the seeded prices: generated from one base price per item, never observed at a market. They are
 * shown, labelled, only in development; production quotes none (docs/decisions/060-every-claim-true.md).
 */
export const EXAMPLE_PRICE_SOURCE = "example";

/** The day a price was seen and who reported it, as people read it next to the price. */
export function priceOrigin(row: { source: string; updatedAt: Date }): string {
  const source = row.source === EXAMPLE_PRICE_SOURCE ? "example, not observed" : row.source;
  return `${source}, ${row.updatedAt.toISOString().slice(0, 10)}`;
}

const day = z.iso.date();
/** Staff set one market price (docs/product/assistant.md), with its source and the day it was seen. */
export const MarketPriceSchema = z.object({
  commodity: z.string().trim().min(2).max(60),
  market: z.string().trim().min(2).max(80),
  city: z.string().trim().min(2).max(60),
  unit: z.string().trim().min(1).max(40),
  priceNgn: z.coerce.number().int().positive().max(100_000_000),
  source: z.string().trim().min(2).max(120),
  date: day.refine((d) => Date.parse(`${d}T00:00:00Z`) <= Date.now(), "must not be in the future"),
});
export type MarketPriceInput = z.infer<typeof MarketPriceSchema>;

/** The analytics dashboard's range buttons (1h, 24h, 7d, 30d; docs/product/admin-and-analytics.md). */
export const AnalyticsQuerySchema = z.object({
  range: z.enum(["1h", "24h", "7d", "30d"]).default("24h"),
  /** `me`: the signed-in person's own activity (Premium); `service`: the whole service (admins). */
  scope: z.enum(["service", "me"]).default("service"),
});

/** One open SOS as the staff desk lists it (GET /api/admin/sos), grouped by area. */
export interface DeskSos {
  id: string;
  type: string;
  message: string;
  channel: string;
  nickname: string;
  locationText: string | null;
  broadcastedAt: string;
}
/** An SOS fan-out message the queue gave up on (docs/decisions/054-sos-a-durable-job.md). */
export interface DeskDeadLetter {
  id: string;
  broadcastId: string | null;
  /** How many named people it holds; null for a page of an area. */
  people: number | null;
  malformed: boolean;
  attempts: number;
  receivedAt: string;
}

export interface DeskSosArea {
  area: string;
  geohash: string | null;
  sos: DeskSos[];
}

export { REPORT_REASONS, type ReportReason } from "./report-reasons";

/** A report of a person: a reason from the list, optional words, and the chat it came from. */
export const ReportSchema = z.object({
  userId: z.string().trim().min(1).max(64),
  reason: z.enum(REPORT_REASONS),
  details: z.string().trim().max(500).default(""),
  roomId: z.string().trim().max(128).optional(),
});
export type ReportInput = z.infer<typeof ReportSchema>;

/** The ticket category a report is filed under. */
export const REPORT_CATEGORY = "report";
