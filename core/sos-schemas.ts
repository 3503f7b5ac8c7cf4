// Inputs and answers of SOS, emergency contacts, web push and the notification centre (docs/architecture.md §8).
import { z } from "zod";
import { EMERGENCY_TYPES, SOS_MESSAGE_MAX } from "./sos";

export * from "./sos";

const Coordinates = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

export const EmergencyBroadcastSchema = z.object({
  message: z.string().trim().min(1, "Please describe the emergency").max(SOS_MESSAGE_MAX),
  emergencyType: z.enum(EMERGENCY_TYPES).default("other"),
  location: Coordinates.optional(),
  locationText: z.string().trim().max(120).optional(),
  // Idempotency key made by the client once per SOS, so retries on a flaky network never send twice.
  clientRequestId: z.string().trim().min(8).max(64),
});
export type EmergencyBroadcastInput = z.infer<typeof EmergencyBroadcastSchema>;

export const ContactSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(60),
  phone: z
    .string()
    .trim()
    .min(7, "Enter a phone number")
    .max(20)
    .regex(/^\+?[\d\s()-]+$/, "Enter a phone number"),
});

/** The browser's PushSubscription.toJSON(). */
export const PushSubscribeSchema = z.object({
  endpoint: z.string().url().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // 65-byte uncompressed P-256 point and 16-byte secret, base64url.
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, "p256dh must be a base64url P-256 public key"),
    auth: z.string().regex(/^[A-Za-z0-9_-]{21,24}={0,2}$/, "auth must be a base64url 16-byte secret"),
  }),
});
export type PushSubscribeInput = z.infer<typeof PushSubscribeSchema>;
export const PushUnsubscribeSchema = z.object({ endpoint: z.string().url().max(1000) });

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use HH:MM");

export const NotificationPrefsSchema = z.object({
  messages: z.boolean().optional(),
  emergencyAlerts: z.boolean().optional(),
  systemUpdates: z.boolean().optional(),
  aiInsights: z.boolean().optional(),
  securityAlerts: z.boolean().optional(),
  marketUpdates: z.boolean().optional(),
  quietHours: z.boolean().optional(),
  quietStart: time.optional(),
  quietEnd: time.optional(),
});

export const NotificationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  unread: z
    .enum(["1", "true"])
    .optional()
    .transform((v) => Boolean(v)),
});

/** Most people one SOS fan-out queue message carries (workers/sos/fanout.ts). */
export const SOS_FANOUT_BATCH = 50;
/** People one planning message of an area covers: 100 pages, one sendBatch (100 messages at most). */
export const SOS_FANOUT_PLAN = 100 * SOS_FANOUT_BATCH;

/** The row that keeps a queued message's job open until it is reached (sos_steps `page:…`, decision 054). */
const PageKey = z.string().startsWith("page:").max(160);

/**
 * A batch of an SOS fan-out on the queue (docs/decisions/054-sos-a-durable-job.md): either named people (the
 * sender's contacts who use LinkUp, or people whose push failed), or one page of an area's people by presence,
 * which the consumer reads itself and chains to the next page, so a huge area is many small messages.
 */
export const SosFanoutMessageSchema = z.union([
  z.object({
    broadcastId: z.string().min(1).max(64),
    audience: z.enum(["nearby", "contacts"]),
    userIds: z.array(z.string().min(1).max(64)).min(1).max(SOS_FANOUT_BATCH),
    key: PageKey.optional(),
  }),
  z.object({
    broadcastId: z.string().min(1).max(64),
    audience: z.literal("nearby"),
    page: z.object({
      cells: z.array(z.string().min(1).max(12)).min(1).max(25),
      phase: z.enum(["present", "late"]),
      after: z.object({ at: z.number(), id: z.string().min(1).max(64) }).nullable(),
      // A plan reads the next SOS_FANOUT_PLAN people's places only and queues their pages (decision 054).
      plan: z.boolean().optional(),
    }),
    key: PageKey.optional(),
  }),
]);
export type SosFanoutMessage = z.infer<typeof SosFanoutMessageSchema>;
