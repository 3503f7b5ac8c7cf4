// One drizzle schema for D1 and libSQL. snake_case columns; names the admin console queries are fixed
// (docs/product/admin-and-analytics.md): users(created_at, subscription_tier), emergency_broadcasts(broadcasted_at).
// Messages and connections are no longer rows here: the rooms keep them (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
import { sql } from "drizzle-orm";
import { foreignKey, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SETTINGS_DEFAULTS } from "../core/constants";
import { DEFAULT_NOTIFICATION_PREFS } from "../core/sos";

const now = sql`(unixepoch() * 1000)`;
const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(now);

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    nickname: text("nickname").notNull(),
    phone: text("phone"),
    authMode: text("auth_mode", { enum: ["anonymous", "verified"] })
      .notNull()
      .default("anonymous"),
    // staff run the support desk; admins run everything (docs/decisions/019-staff-and-admins.md).
    role: text("role", { enum: ["user", "staff", "admin"] })
      .notNull()
      .default("user"),
    // Mirror of the active subscription, kept for the admin console's queries; billing updates it.
    subscriptionTier: text("subscription_tier", { enum: ["free", "premium", "enterprise"] })
      .notNull()
      .default("free"),
    // When the current tier lapses by the clock (trial, grace period, complimentary end): the session check
    // recomputes the tier once this passes, so no request is served on an expired entitlement.
    tierExpiresAt: integer("tier_expires_at", { mode: "timestamp_ms" }),
    locationText: text("location_text"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    geohash: text("geohash"),
    locationUpdatedAt: integer("location_updated_at", { mode: "timestamp_ms" }),
    interests: text("interests", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    language: text("language").notNull().default(SETTINGS_DEFAULTS.language),
    quietStart: text("quiet_start").notNull().default(SETTINGS_DEFAULTS.quietStart),
    quietEnd: text("quiet_end").notNull().default(SETTINGS_DEFAULTS.quietEnd),
    networkRange: text("network_range").notNull().default(SETTINGS_DEFAULTS.networkRange),
    powerSaving: text("power_saving").notNull().default(SETTINGS_DEFAULTS.powerSaving),
    autoDelete: text("auto_delete").notNull().default(SETTINGS_DEFAULTS.autoDelete),
    meshNetworking: integer("mesh_networking", { mode: "boolean" }).notNull().default(SETTINGS_DEFAULTS.meshNetworking),
    pushEnabled: integer("push_enabled", { mode: "boolean" }).notNull().default(SETTINGS_DEFAULTS.pushEnabled),
    anonymousMode: integer("anonymous_mode", { mode: "boolean" }).notNull().default(SETTINGS_DEFAULTS.anonymousMode),
    stealthMode: integer("stealth_mode", { mode: "boolean" }).notNull().default(SETTINGS_DEFAULTS.stealthMode),
    onboardingCompletedAt: integer("onboarding_completed_at", { mode: "timestamp_ms" }),
    // Set by staff: no session, sign-in or room for this account until unbanned (docs/decisions/025-bans.md).
    bannedAt: integer("banned_at", { mode: "timestamp_ms" }),
    banReason: text("ban_reason"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_phone_unique").on(t.phone),
    index("users_geohash_idx").on(t.geohash),
    // An SOS pages an area's people by how recently they were present (workers/sos/pages.ts, decision 054).
    index("users_area_presence_idx").on(t.geohash, t.locationUpdatedAt, t.id),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // HMAC of the opaque cookie token: a stolen database row cannot be replayed as a cookie.
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    // Refreshed at most every few minutes (workers/auth/session.ts), for the sessions list of /security-settings.
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
    // A sign-in whose phone code was right but whose second factor is still owed: signed in to nothing yet.
    secondFactorPending: integer("second_factor_pending", { mode: "boolean" }).notNull().default(false),
    // The identity that typed the phone code, merged into this session's user only once the second factor is
    // proven (docs/decisions/046-sign-in-is-one-state-machine.md). No foreign key: it may be gone by then.
    pendingMergeFrom: text("pending_merge_from"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  // expires_at: the Cron drops sessions long expired without scanning the table (docs/decisions/051-retention.md).
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

// The revocation feed of session passes (docs/decisions/079-a-pass-that-lasts-the-day.md): a session that ended
// before its time or changed hands, or a person whose name, mode, role or ban changed, written by triggers on
// `sessions` and `users` (migration pass-revocation-feed), so no code path that ends a session can forget it. Each
// isolate reads what is new every REVOCATION_FEED_MS and refuses the passes it names on socket upgrades; the Cron
// keeps PASS_TTL_MS of it. The id only grows (AUTOINCREMENT): an isolate asks for the rows after the last it saw.
export const passRevocations = sqliteTable(
  "pass_revocations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** A session ended (its stored hash): every pass naming it is refused. */
    sessionId: text("session_id"),
    /** A person whose pass-held fields changed: their passes issued before `at` are refused. */
    userId: text("user_id"),
    at: integer("at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [index("pass_revocations_at_idx").on(t.at)],
);

// Two-factor authentication with an authenticator app (RFC 6238). The secret must be readable to check codes, so
// it is sealed, not hashed (AES-GCM, workers/identity/secret-box.ts; rows from before are plain base32 until read);
// it is on only once enabledAt is set (a code from the app confirmed it).
export const twoFactor = sqliteTable("two_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: integer("enabled_at", { mode: "timestamp_ms" }),
  // The last accepted 30-second step: a code is good once, even inside its window.
  lastStep: integer("last_step"),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
});

export const backupCodes = sqliteTable(
  "backup_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("backup_codes_user_idx").on(t.userId)],
);

export const verifications = sqliteTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    phone: text("phone").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    codeHash: text("code_hash").notNull(),
    channel: text("channel", { enum: ["whatsapp", "sms"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    ip: text("ip"),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    consumedAt: integer("consumed_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("verifications_phone_idx").on(t.phone, t.createdAt), index("verifications_ip_idx").on(t.ip, t.createdAt)],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tier: text("tier", { enum: ["premium", "enterprise"] }).notNull(),
    // Stripe's subscription status (incomplete, trialing, active, past_due, canceled, unpaid…).
    status: text("status").notNull(),
    // stripe: paid through the provider (or its local stand-in); trial: the card-less 7-day trial;
    // complimentary: granted by staff with an end date (docs/decisions/018-billing.md).
    source: text("source", { enum: ["stripe", "trial", "complimentary"] })
      .notNull()
      .default("stripe"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    priceId: text("price_id"),
    // A downgrade waits for the next billing cycle: the price to switch to at renewal.
    pendingPriceId: text("pending_price_id"),
    currentPeriodEnd: integer("current_period_end", { mode: "timestamp_ms" }),
    trialEndsAt: integer("trial_ends_at", { mode: "timestamp_ms" }),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    // After a failed renewal the person keeps the tier until then.
    graceEndsAt: integer("grace_ends_at", { mode: "timestamp_ms" }),
    // `created` (ms) of the newest provider event applied: older events never move the record back.
    lastEventAt: integer("last_event_at", { mode: "timestamp_ms" }),
    reminderSentAt: integer("reminder_sent_at", { mode: "timestamp_ms" }),
    endedNoticeAt: integer("ended_notice_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId), uniqueIndex("subscriptions_stripe_unique").on(t.stripeSubscriptionId)],
);

export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull().default(now),
});

/** One provider customer per person; the customer's metadata holds our user id too. */
export const billingCustomers = sqliteTable("billing_customers", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  customerId: text("customer_id").notNull().unique(),
  createdAt: createdAt(),
});

/** The free trial is once per verified phone number, whichever account the phone ends up on. */
export const trialClaims = sqliteTable("trial_claims", {
  phone: text("phone").primaryKey(),
  userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * Free Premium a phone number has had, once ever: the trial ("trial") and each achievement's reward
 * ("achievement:<id>"). Keyed by an HMAC of the phone under SESSION_SECRET and tied to no account, so deleting the
 * account and registering the phone again earns neither twice (docs/decisions/049-abuse-bans-claims-and-names.md).
 */
export const premiumClaims = sqliteTable(
  "premium_claims",
  {
    phoneHash: text("phone_hash").notNull(),
    kind: text("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.phoneHash, t.kind] })],
);

export const rooms = sqliteTable("rooms", {
  // nearby:<geohash-5>, group:<id> or dm:<a>:<b> (docs/architecture.md §5).
  id: text("id").primaryKey(),
  kind: text("kind", { enum: ["nearby", "group", "dm"] }).notNull(),
  name: text("name").notNull(),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

export const roomMembers = sqliteTable(
  "room_members",
  {
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["member", "owner"] })
      .notNull()
      .default("member"),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }).notNull().default(now),
    // The invitation a member's device signed for them (core/group-invitations.ts), kept from acceptance until a
    // membership statement signs them in (docs/decisions/081-no-silent-join.md); about 330 bytes, then NULL.
    invitation: text("invitation"),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index("room_members_user_idx").on(t.userId)],
);

// A person asked into a group: not a member (no access, nothing received) until they accept
// (docs/decisions/015-group-membership-and-blocks.md).
export const roomInvitations = sqliteTable(
  "room_invitations",
  {
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    // The inviter's device's signed statement (core/group-invitations.ts); NULL for one made without JavaScript.
    statement: text("statement"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index("room_invitations_user_idx").on(t.userId)],
);

// A direct chat opened with someone who shares no room with the opener waits for their consent
// (docs/decisions/050-consent-before-a-stranger-reaches-you.md). No row: an ordinary direct chat. Keyed by the room,
// whose id already names both people; `from_user_id` is one of them (no foreign key: like the room id, it is left as
// it is by the account merge, and the account deletion removes the row with the room).
export const directRequests = sqliteTable("direct_requests", {
  roomId: text("room_id")
    .primaryKey()
    .references(() => rooms.id, { onDelete: "cascade" }),
  fromUserId: text("from_user_id").notNull(),
  status: text("status", { enum: ["pending", "declined"] }).notNull(),
  createdAt: createdAt(),
  decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
});

// blocker_id blocked blocked_id: no direct chat or group invitation from them to the blocker.
export const userBlocks = sqliteTable(
  "user_blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] })],
);

export const deviceKeys = sqliteTable(
  "device_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    deviceId: text("device_id").notNull(),
    // Public X25519 key, base64url. Private keys never leave the browser.
    publicKey: text("public_key").notNull(),
    // The device's Ed25519 identity key and its signature over the record (docs/protocol.md §2); clients
    // ignore records without them, so the server cannot add a device of its own unnoticed.
    signingKey: text("signing_key"),
    signature: text("signature"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
);

// The newest device list of a person, signed by the person's account key (core/device-list.ts, docs/protocol.md
// §2): stored as the client sent it; the server checks it only to refuse junk and older versions.
export const deviceLists = sqliteTable("device_lists", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  accountKey: text("account_key").notNull(),
  version: integer("version").notNull(),
  // The signed list as JSON (at most 64 devices: ~12 KB, far below D1's 2 MB row limit).
  body: text("body").notNull(),
  updatedAt: createdAt(),
});

// A private group's membership statements, one per epoch (core/group-epochs.ts, docs/protocol.md §6a): signed by
// a member's device, chained by hash, stored as the client sent it. The server relays them and cannot make one;
// the primary key keeps one statement per number, so two changes racing for an epoch cannot both land.
export const groupEpochs = sqliteTable(
  "group_epochs",
  {
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    epoch: integer("epoch").notNull(),
    // The statement as JSON (at most 256 members: ~20 KB, far below D1's 2 MB row limit).
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.epoch] })],
);

// A device link in progress (core/device-link.ts, docs/protocol.md §2a): the old device's code names it; the new
// device's MACed record and the old device's sealed account key pass through it. Kept an hour (it counts toward
// the person's links per hour) and used once; at most LINKS_PER_HOUR rows per person, each under 2 KB.
export const deviceLinks = sqliteTable(
  "device_links",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    request: text("request"),
    grant: text("grant"),
    // Set when the new device took the grant (or the old device gave up): the code is spent.
    closed: integer("closed", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("device_links_user").on(t.userId, t.createdAt)],
);

// X3DH prekeys of a device (docs/protocol.md §4): one signed prekey (signed by the device's identity key) and a
// batch of one-time prekeys, each handed out once. Gone with the device's record.
export const devicePrekeys = sqliteTable(
  "device_prekeys",
  {
    userId: text("user_id").notNull(),
    deviceId: text("device_id").notNull(),
    keyId: integer("key_id").notNull(),
    kind: text("kind", { enum: ["signed", "one-time"] }).notNull(),
    publicKey: text("public_key").notNull(),
    // Only for the signed prekey: the Ed25519 signature by the device's identity key.
    signature: text("signature"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.deviceId, t.kind, t.keyId] }),
    foreignKey({ columns: [t.userId, t.deviceId], foreignColumns: [deviceKeys.userId, deviceKeys.deviceId] }).onDelete("cascade"),
  ],
);

/**
 * A room's activity as its Durable Object last wrote it, one row per room, in the room's once-a-minute batch
 * (docs/decisions/056-the-room-is-the-record-of-its-messages.md): when it last had a message (the chat list's
 * order), how many it has had, and the highest envelope seq already counted in D1 under the room's storage
 * epoch, so a batch replayed after a crash adds nothing twice.
 */
export const roomActivity = sqliteTable("room_activity", {
  roomId: text("room_id").primaryKey(),
  lastMessageAt: integer("last_message_at", { mode: "timestamp_ms" }),
  messages: integer("messages").notNull().default(0),
  epoch: integer("epoch").notNull().default(0),
  countedSeq: integer("counted_seq").notNull().default(0),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
});

/**
 * Who has sockets open in which room, as of the room's last batch (decision 056): the open-connection figures,
 * "online anywhere" for direct-message pushes and the rooms a ban must close. Rows go when the person leaves.
 */
export const roomPresence = sqliteTable(
  "room_presence",
  {
    roomId: text("room_id").notNull(),
    userId: text("user_id").notNull(),
    sockets: integer("sockets").notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] }), index("room_presence_user_idx").on(t.userId)],
);

export const emergencyBroadcasts = sqliteTable(
  "emergency_broadcasts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientRequestId: text("client_request_id").notNull(),
    channel: text("channel", { enum: ["web", "ussd", "whatsapp"] }).notNull(),
    emergencyType: text("emergency_type").notNull(),
    message: text("message").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
    locationText: text("location_text"),
    geohash: text("geohash"),
    status: text("status", { enum: ["active", "resolved"] })
      .notNull()
      .default("active"),
    // What each channel reached, and which failed: { room, push, contacts, failed: [...] }.
    reached: text("reached", { mode: "json" }).$type<Record<string, unknown>>(),
    broadcastedAt: integer("broadcasted_at", { mode: "timestamp_ms" }).notNull().default(now),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    resolvedBy: text("resolved_by"),
    // The SOS limits count these rows in the insert itself (db/queries/emergency.ts, decision 047): the HMAC of the
    // web address of a sender without a verified phone (their identities from one address share a budget), and
    // whether it alerted an area far from where the sender was known to be.
    addressKey: text("address_key"),
    farArea: integer("far_area", { mode: "boolean" }).notNull().default(false),
    // HMAC of the client address it was sent from (web only): an answer from the same address earns no reward.
    addressHash: text("address_hash"),
    // When every step of the SOS job had finished (docs/decisions/054-sos-a-durable-job.md): null while a retry,
    // the Cron sweep or the queue still has something to do.
    jobDoneAt: integer("job_done_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("emergency_job_unfinished_idx").on(t.jobDoneAt, t.broadcastedAt),
    uniqueIndex("emergency_client_request_unique").on(t.userId, t.clientRequestId),
    index("emergency_geohash_idx").on(t.geohash, t.status),
    index("emergency_user_time_idx").on(t.userId, t.broadcastedAt),
    index("emergency_address_time_idx").on(t.addressKey, t.broadcastedAt),
  ],
);

// One row per person an SOS fan-out batch reached through the queue (workers/sos/fanout.ts): its outcome, so a
// retried batch pushes again only where it failed and never stores a second notification.
export const sosDeliveries = sqliteTable(
  "sos_deliveries",
  {
    broadcastId: text("broadcast_id")
      .notNull()
      .references(() => emergencyBroadcasts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notificationId: text("notification_id"),
    // sending: claimed before the push (decision 054: a claim older than the lease is taken over);
    // pushed: a browser took it; stored: in the notification centre, no browser to push to; off: the person
    // switched emergency alerts off; failed: the push service refused it (the batch is retried).
    status: text("status", { enum: ["sending", "pushed", "stored", "off", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(1),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.broadcastId, t.userId] })],
);

// The steps of an SOS job as each completes (docs/decisions/054-sos-a-durable-job.md): "room", "area",
// "contacts", and one "contact:<phone>" claim per emergency contact messaged. state "started" is a claim taken
// at `at` (taken over once older than the lease), "done" is finished; result holds what the step reached.
export const sosSteps = sqliteTable(
  "sos_steps",
  {
    broadcastId: text("broadcast_id")
      .notNull()
      .references(() => emergencyBroadcasts.id, { onDelete: "cascade" }),
    step: text("step").notNull(),
    state: text("state", { enum: ["started", "done"] }).notNull(),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.broadcastId, t.step] })],
);

// SOS fan-out messages the queue gave up on (its dead-letter queue, decision 054): kept for the staff desk,
// which can put one back on the queue.
export const sosDeadLetters = sqliteTable(
  "sos_dead_letters",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id").notNull(),
    broadcastId: text("broadcast_id"),
    body: text("body", { mode: "json" }).$type<unknown>().notNull(),
    attempts: integer("attempts").notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull().default(now),
    replayedAt: integer("replayed_at", { mode: "timestamp_ms" }),
    replayedBy: text("replayed_by"),
  },
  (t) => [
    uniqueIndex("sos_dead_letters_message_unique").on(t.messageId),
    index("sos_dead_letters_open_idx").on(t.replayedAt, t.receivedAt),
  ],
);

export const emergencyContacts = sqliteTable(
  "emergency_contacts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("emergency_contacts_user_idx").on(t.userId)],
);

export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("push_endpoint_unique").on(t.endpoint), index("push_user_idx").on(t.userId)],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["message", "emergency", "system", "ai", "security", "market"] }).notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    priority: text("priority", { enum: ["critical", "high", "medium", "low"] })
      .notNull()
      .default("medium"),
    isRead: integer("is_read", { mode: "boolean" }).notNull().default(false),
    actionRequired: integer("action_required", { mode: "boolean" }).notNull().default(false),
    source: text("source").notNull().default("system"),
    url: text("url"),
    createdAt: createdAt(),
  },
  // created_at alone: the Cron drops old notifications without scanning the table (docs/decisions/051-retention.md).
  (t) => [index("notifications_user_idx").on(t.userId, t.createdAt), index("notifications_created_idx").on(t.createdAt)],
);

export const notificationPrefs = sqliteTable("notification_prefs", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  messages: integer("messages", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.messages),
  emergencyAlerts: integer("emergency_alerts", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.emergencyAlerts),
  systemUpdates: integer("system_updates", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.systemUpdates),
  aiInsights: integer("ai_insights", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.aiInsights),
  securityAlerts: integer("security_alerts", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.securityAlerts),
  marketUpdates: integer("market_updates", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.marketUpdates),
  quietHours: integer("quiet_hours", { mode: "boolean" }).notNull().default(DEFAULT_NOTIFICATION_PREFS.quietHours),
  quietStart: text("quiet_start").notNull().default(DEFAULT_NOTIFICATION_PREFS.quietStart),
  quietEnd: text("quiet_end").notNull().default(DEFAULT_NOTIFICATION_PREFS.quietEnd),
});

export const usageDaily = sqliteTable(
  "usage_daily",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // YYYY-MM-DD (UTC): a new date starts a new count, so no reset job is needed.
    date: text("date").notNull(),
    aiCommands: integer("ai_commands").notNull().default(0),
    translations: integer("translations").notNull().default(0),
    messagesCount: integer("messages_count").notNull().default(0),
    voiceMessages: integer("voice_messages").notNull().default(0),
    fileTransfers: integer("file_transfers").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.date] })],
);

export const supportTickets = sqliteTable("support_tickets", {
  id: text("id").primaryKey(),
  userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  phone: text("phone"),
  message: text("message").notNull(),
  category: text("category").notNull(),
  // A report (category 'report'): the person reported, whom staff open on the desk (docs/decisions/038-reports-and-device-bans.md).
  subjectId: text("subject_id").references(() => users.id, { onDelete: "set null" }),
  status: text("status", { enum: ["open", "closed"] })
    .notNull()
    .default("open"),
  createdAt: createdAt(),
});

export const rewards = sqliteTable("rewards", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  totalPoints: integer("total_points").notNull().default(0),
  streak: integer("streak").notNull().default(0),
  lastBonusDate: text("last_bonus_date"),
  achievements: text("achievements", { mode: "json" }).$type<Record<string, number>>().notNull().default(sql`'{}'`),
});

export const files = sqliteTable(
  "files",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["file", "voice"] })
      .notNull()
      .default("file"),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    mime: text("mime").notNull(),
    r2Key: text("r2_key").notNull(),
    encryptionLevel: text("encryption_level", { enum: ["premium", "standard"] })
      .notNull()
      .default("standard"),
    downloadCount: integer("download_count").notNull().default(0),
    transcript: text("transcript"),
    // Files sent in a room (docs/decisions/023-encrypted-files-in-rooms.md): only the room's members fetch them.
    // The object is ciphertext; name and key travel only in the chat message.
    roomId: text("room_id"),
    // The R2 multipart upload while `uploading`; parts are listed in file_parts (R2's binding cannot list them).
    uploadId: text("upload_id"),
    state: text("state", { enum: ["uploading", "ready"] })
      .notNull()
      .default("ready"),
    partCount: integer("part_count").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("files_owner_idx").on(t.ownerId),
    index("files_room_idx").on(t.roomId, t.createdAt),
    // Only uploads under way: the Cron finds those never finished without scanning every file (decision 051).
    index("files_uploading_idx").on(t.createdAt).where(sql`${t.state} = 'uploading'`),
  ],
);

export const fileParts = sqliteTable(
  "file_parts",
  {
    fileId: text("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    partNumber: integer("part_number").notNull(),
    etag: text("etag").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.partNumber] })],
);

export const marketPrices = sqliteTable(
  "market_prices",
  {
    id: text("id").primaryKey(),
    commodity: text("commodity").notNull(),
    market: text("market").notNull(),
    city: text("city").notNull(),
    unit: text("unit").notNull(),
    priceNgn: integer("price_ngn").notNull(),
    // Who reported the price; with updated_at (the day it was seen) it is said next to every price
    // (docs/decisions/026-market-prices.md).
    source: text("source").notNull().default("LinkUp reference figure"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [index("market_prices_commodity_idx").on(t.commodity, t.city)],
);

// Prices people report (docs/decisions/068-market-prices-people-report.md): each answer quotes the median of the
// last 14 days' reports of one item, unit and market; older rows are pruned (db/queries/retention.ts).
export const priceReports = sqliteTable(
  "price_reports",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // As typed (cleaned), for display; the *_key columns are what reports and questions match on (core/price-reports.ts).
    item: text("item").notNull(),
    itemKey: text("item_key").notNull(),
    unit: text("unit").notNull(),
    priceNgn: integer("price_ngn").notNull(),
    market: text("market").notNull(),
    marketKey: text("market_key").notNull(),
    // The gazetteer town the market is in, when it names one ('Mile 12, Lagos' → Lagos): a question naming the town finds it.
    town: text("town"),
    channel: text("channel", { enum: ["web", "whatsapp", "ussd"] }).notNull(),
    // Set once the report was judged no outlier and its points were settled (earned or over the day's cap).
    settled: integer("settled", { mode: "boolean" }).notNull().default(false),
    reportedAt: integer("reported_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  (t) => [
    index("price_reports_item_idx").on(t.itemKey, t.reportedAt),
    index("price_reports_user_idx").on(t.userId, t.reportedAt),
    // The retention rule's range (db/queries/retention.ts).
    index("price_reports_time_idx").on(t.reportedAt),
  ],
);

export const faqEntries = sqliteTable("faq_entries", {
  id: text("id").primaryKey(),
  question: text("question").notNull(),
  answer: text("answer").notNull(),
  category: text("category").notNull(),
  popular: integer("popular", { mode: "boolean" }).notNull().default(false),
  tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
});

export const blogArticles = sqliteTable("blog_articles", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  content: text("content").notNull(),
  author: text("author").notNull(),
  date: text("date").notNull(),
  readTime: text("read_time").notNull(),
  category: text("category").notNull(),
  tags: text("tags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  featured: integer("featured", { mode: "boolean" }).notNull().default(false),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    actorId: text("actor_id"),
    action: text("action").notNull(),
    target: text("target"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt)],
);

export const outboundMessages = sqliteTable(
  "outbound_messages",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    channel: text("channel", { enum: ["whatsapp", "sms"] }).notNull(),
    body: text("body").notNull(),
    // stored: kept in the dev outbox (no Twilio); queued → sent | failed with Twilio.
    status: text("status", { enum: ["stored", "queued", "sent", "failed"] }).notNull(),
    providerId: text("provider_id"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("outbound_created_idx").on(t.createdAt)],
);

// Per-phone state of the feature-phone channels (WhatsApp, USSD): opt-out, language, last shared place.
export const phoneChannels = sqliteTable("phone_channels", {
  phone: text("phone").primaryKey(),
  optedOut: integer("opted_out", { mode: "boolean" }).notNull().default(false),
  language: text("language").notNull().default("english"),
  latitude: real("latitude"),
  longitude: real("longitude"),
  locationText: text("location_text"),
  // An SOS asked for before any location was shared: sent as soon as a location arrives (WhatsApp).
  pendingSos: text("pending_sos", { mode: "json" }).$type<{ message: string; requestId: string; at: number }>(),
  // When this phone last proved itself on WhatsApp or USSD by replying a code sent to it: it links the phone
  // channel only, never a web session (docs/decisions/011-a-code-proves-the-browser-that-typed-it.md).
  confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
});

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

// Counters per client address (anonymous session starts, anonymous AI use), for limits a new anonymous
// session must not reset. The address is stored only as an HMAC (workers/limits).
export const addressCounters = sqliteTable(
  "address_counters",
  {
    key: text("key").notNull(),
    window: text("window").notNull(),
    count: integer("count").notNull().default(0),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.window] }), index("address_counters_expires_idx").on(t.expiresAt)],
);

/**
 * Rewards ledger (issue 18): one row per action that earned points. (user, kind, ref) is unique, so an action
 * repeated (the same message, a second verification, the bonus twice on one server date) earns nothing more.
 */
export const pointEvents = sqliteTable(
  "point_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["message", "verified", "daily_bonus", "sos_helped", "achievement", "price_report"] }).notNull(),
    ref: text("ref").notNull(),
    points: integer("points").notNull(),
    // Server date (UTC, YYYY-MM-DD) of the action: daily caps and the bonus streak count by it.
    day: text("day").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("point_events_action_idx").on(t.userId, t.kind, t.ref), index("point_events_day_idx").on(t.userId, t.day)],
);

// Daily roll-ups of what happens on LinkUp (docs/decisions/027-analytics.md): counts per UTC day, event kind and
// coarse area (geohash-3, about 150 km; "" when unknown). No person, room or message is named here.
export const analyticsDaily = sqliteTable(
  "analytics_daily",
  {
    day: text("day").notNull(),
    kind: text("kind").notNull(),
    area: text("area").notNull().default(""),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.area] })],
);

// The last 48 hours by UTC hour (same kinds and areas as the daily roll-up), so the 1h and 24h ranges count real
// hours; older hours are pruned by the cron (docs/decisions/037-hourly-and-personal-analytics.md).
export const analyticsHourly = sqliteTable(
  "analytics_hourly",
  {
    // "YYYY-MM-DDTHH" (UTC).
    hour: text("hour").notNull(),
    kind: text("kind").notNull(),
    area: text("area").notNull().default(""),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hour, t.kind, t.area] })],
);

// One person's own activity by UTC hour and kind, for their Premium analytics; no area, room or text, kept 31 days
// and gone with the account (docs/decisions/037-hourly-and-personal-analytics.md).
export const analyticsPersonal = sqliteTable(
  "analytics_personal",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    hour: text("hour").notNull(),
    kind: text("kind").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour, t.kind] })],
);

/**
 * Security events (docs/product/security.md): what happened to the protection of one person's account,
 * shown on /advanced-security. `kind` is our precise event; `type` and `severity` are the product's coarser fields.
 */
/**
 * Browsers a person signed in from: the HMAC of a long-lived device cookie (workers/auth/device.ts). A ban
 * covers the banned person's browsers through these rows, so unbanning lifts it with no second step
 * (docs/decisions/038-reports-and-device-bans.md).
 */
export const userDevices = sqliteTable(
  "user_devices",
  {
    deviceId: text("device_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.userId] }), index("user_devices_user_idx").on(t.userId)],
);

export const securityEvents = sqliteTable(
  "security_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    type: text("type", { enum: ["login", "encryption", "breach_attempt", "emergency", "audit"] }).notNull(),
    severity: text("severity", { enum: ["low", "medium", "high", "critical"] }).notNull(),
    message: text("message").notNull(),
    resolved: integer("resolved", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  // created_at alone: the Cron's retention looks through one span of time at a time (docs/decisions/051-retention.md).
  (t) => [index("security_events_user_idx").on(t.userId, t.createdAt), index("security_events_created_idx").on(t.createdAt)],
);

/**
 * Keys of the public API (docs/decisions/032-public-api-and-keys.md): the key itself is shown once; only its
 * HMAC under SESSION_SECRET is kept, like session tokens. Revoked keys stay listed for the audit of their use.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    hint: text("hint").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.keyHash), index("api_keys_user_idx").on(t.userId)],
);

/** Calls per key per server date (UTC, YYYY-MM-DD): a new date starts a new count, so no reset job is needed. */
export const apiKeyUsage = sqliteTable(
  "api_key_usage",
  {
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);

/**
 * People who answered an SOS ("I'm coming to help"). When the SOS is resolved, each verified responder earns the
 * "SOS helped" points once (docs/decisions/033-rewards-that-grant-premium.md).
 */
export const sosResponses = sqliteTable(
  "sos_responses",
  {
    sosId: text("sos_id")
      .notNull()
      .references(() => emergencyBroadcasts.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    respondedAt: createdAt(),
    // HMAC of the client address the answer came from (docs/decisions/049-abuse-bans-claims-and-names.md).
    addressHash: text("address_hash"),
  },
  (t) => [primaryKey({ columns: [t.sosId, t.userId] })],
);

// Passkeys (WebAuthn) of a person: a second factor at sign-in (docs/decisions/030-passkeys.md).
export const passkeys = sqliteTable(
  "passkeys",
  {
    // The credential id, base64url, as the authenticator made it.
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

// The one open WebAuthn challenge of a session (a registration or a sign-in), good for five minutes and once.
export const webauthnChallenges = sqliteTable("webauthn_challenges", {
  sessionId: text("session_id")
    .primaryKey()
    .references(() => sessions.id, { onDelete: "cascade" }),
  purpose: text("purpose", { enum: ["register", "authenticate"] }).notNull(),
  challenge: text("challenge").notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

// ---------------------------------------------------------------- shards (docs/decisions/058-beyond-one-database.md)
// Every shard has every table; these three are global, read and written only on `DB` (shard 0), which is today's
// database. No foreign keys to users: the person a row names may live on another database.

// Which shard holds the areas whose cell starts with `prefix` (the longest prefix wins; none: shard 0). An area moves
// by copying its rows and then changing its row here.
export const areaShards = sqliteTable("area_shards", {
  prefix: text("prefix").primaryKey(),
  shard: integer("shard").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
});

// The global directory: a person's home shard, and their verified phone so a phone number finds them. A person
// without a row lives on shard 0 (everyone from before sharding).
export const personDirectory = sqliteTable(
  "person_directory",
  {
    userId: text("user_id").primaryKey(),
    shard: integer("shard").notNull(),
    phone: text("phone"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("person_directory_phone_unique").on(t.phone)],
);

// The shard of each group (its creator's home shard when made). Area rooms and direct chats need no row: their
// shard follows from their id.
export const roomShards = sqliteTable("room_shards", {
  roomId: text("room_id").primaryKey(),
  shard: integer("shard").notNull(),
  createdAt: createdAt(),
});

// Per shard, on a person's home shard: the rooms they belong to that live on another shard, so their room list
// asks only the shards that hold one of their rooms.
export const awayRooms = sqliteTable(
  "away_rooms",
  {
    userId: text("user_id").notNull(),
    roomId: text("room_id").notNull(),
    shard: integer("shard").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roomId] })],
);

// Per shard, on a room's shard: the `users` rows that are copies of people who live on another shard (a room's
// member list and its foreign keys need their row here). Counts of people skip them.
export const personCopies = sqliteTable("person_copies", {
  userId: text("user_id").primaryKey(),
  homeShard: integer("home_shard").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
});

// Enterprise teams (docs/decisions/067-enterprise-teams.md): an Enterprise subscriber owns one organisation; its
// seats (TEAM_SEATS, the owner's included) bound `org_members`, and open invitations count against them too, so
// every table here stays within a few rows per Enterprise subscriber.
export const orgs = sqliteTable(
  "orgs",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Who may invite: owner and admins only, or every member too.
    invitePolicy: text("invite_policy", { enum: ["admins", "members"] })
      .notNull()
      .default("admins"),
    // Whether a seat gives its holder the Enterprise tier's features (workers/teams/seats.ts).
    seatFeatures: integer("seat_features", { mode: "boolean" }).notNull().default(true),
    // The language of invitations to phones not yet on LinkUp (null: English); people on LinkUp get their own.
    language: text("language"),
    // Message retention: the disappearing timer the team room keeps (docs/decisions/040-disappearing-messages.md).
    retention: text("retention").notNull().default("never"),
    // The team room: a `group:` room whose members are exactly the organisation's.
    roomId: text("room_id").references(() => rooms.id, { onDelete: "set null" }),
    // Dedicated support: the staff member an admin named to answer this organisation's requests first (decision 067).
    supportStaffId: text("support_staff_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("orgs_owner_unique").on(t.ownerId), uniqueIndex("orgs_room_unique").on(t.roomId)],
);

export const orgMembers = sqliteTable(
  "org_members",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member"] })
      .notNull()
      .default("member"),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" }).notNull().default(now),
  },
  // One organisation per person: a seat's tier never comes from two places.
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), uniqueIndex("org_members_user_unique").on(t.userId)],
);

// An invitation: a code (kept as its HMAC), single use, expiring; for one phone number or for whoever has the code.
export const orgInvites = sqliteTable(
  "org_invites",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    phone: text("phone"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    usedBy: text("used_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("org_invites_code_unique").on(t.codeHash), index("org_invites_org_idx").on(t.orgId)],
);
