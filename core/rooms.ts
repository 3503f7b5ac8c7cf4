// Room API shapes and request schemas (GET /api/rooms and friends), shared by the Worker and the screens.
import { z } from "zod";
import { SignedInvitationSchema } from "./group-invitations";

export type RoomKind = "nearby" | "group" | "dm";

export interface RoomSummary {
  id: string;
  kind: RoomKind;
  /** Area name ('Ikeja area'), group name, or the other person's nickname for a direct chat. */
  name: string;
  /** True for groups and direct chats: end-to-end encrypted. Area rooms are public and say so. */
  encrypted: boolean;
  joined: boolean;
  memberCount: number;
  /** Epoch ms of the last message recorded for the room, or null. */
  lastMessageAt: number | null;
  /** For direct chats: the other person's user id. */
  peerId?: string;
  /** For direct chats: whether the other person has a verified phone, so can take calls (the room checks again). */
  peerVerified?: boolean;
  /** A team room: its members are an Enterprise team's, managed on /team (docs/decisions/067-enterprise-teams.md). */
  team?: boolean;
  /** A direct chat waiting for consent (docs/decisions/050-consent-before-a-stranger-reaches-you.md). */
  request?: DirectRequestInfo;
}

/** `incoming`: someone asks to message this person; `outgoing`: this person asked and waits. */
export interface DirectRequestInfo {
  direction: "incoming" | "outgoing";
  since: number;
}

// Zod-free, so a screen can show them without loading this module's schemas.
export { COMMUNITY_RADIUS_KM, DIRECT_REQUEST_LIMITS, REQUEST_TEXTS } from "./room-limits";

export interface NearbyInfo {
  roomId: string;
  name: string;
  /** Where the area came from: the browser's position, or the location text of the profile. */
  source: "position" | "location-text";
}

export interface RoomsAnswer {
  nearby: NearbyInfo | null;
  rooms: RoomSummary[];
  /** Groups the person was asked into: not rooms of theirs until they accept. */
  invitations?: InvitationInfo[];
  /** People the person has blocked. */
  blocked?: BlockedInfo[];
}

export interface DeviceKeyInfo {
  deviceId: string;
  publicKey: string;
  /** Ed25519 identity key and record signature (docs/protocol.md §2); absent for devices that never signed. */
  signingKey?: string;
  signature?: string;
}

export interface RoomMemberInfo {
  userId: string;
  nickname: string;
  role: "member" | "owner";
  keys: DeviceKeyInfo[];
  /** The invitation a member's device signed for someone not yet signed into the group's epoch (decision 081). */
  invitation?: unknown;
}

/** GET /api/rooms/:id/stats: live figures of one room (nothing here is simulated). */
export interface RoomStats {
  roomId: string;
  /** Connected sockets (devices and tabs) right now. */
  nodes: number;
  /** Distinct people connected right now. */
  people: number;
  /** Who is connected (as the presence frame lists them, at most 200). */
  present: { userId: string; nickname: string; nodes: number }[];
  /** Sockets open in the room now (its own live figure). */
  activeConnections: number;
  /** Envelopes the room keeps for resume. */
  messagesStored: number;
  /** Envelope deliveries the room has made to sockets, all time. */
  messagesRelayed: number;
}

/**
 * Device keys one person may have published; a new device replaces the longest unseen one. Keeps a direct
 * message's wrapped keys (one per device of both people) within the envelope's meta limit.
 */
export const MAX_DEVICE_KEYS = 10;

/** GET /api/rooms/invitations: groups a person was asked into and has not answered yet. */
export interface InvitationInfo {
  roomId: string;
  name: string;
  invitedBy: string | null;
  invitedByName: string | null;
  createdAt: number;
}

/** GET /api/blocks: people this person has blocked. */
export interface BlockedInfo {
  userId: string;
  nickname: string;
}

const userId = z.string().trim().min(1).max(64);

export const CreateGroupSchema = z.object({
  name: z.string().trim().min(1).max(60),
  memberIds: z.array(userId).max(50).default([]),
});
export const OpenDmSchema = z.object({ userId });
/**
 * `signed`: the inviter's device's statements, one per person (core/group-invitations.ts); an invitation without
 * one (a screen without JavaScript) waits for an owner's or admin's "Let in" (docs/decisions/081-no-silent-join.md).
 */
export const InviteSchema = z.object({
  userIds: z.array(userId).min(1).max(50),
  signed: z.array(SignedInvitationSchema).max(50).optional(),
});
export const BlockSchema = z.object({ userId });
/**
 * A device's X25519 public key: 32 bytes as base64url (43 characters); with its Ed25519 identity key and the
 * signature of the device record (docs/protocol.md §2), which clients require before they trust a device.
 */
export const PublishKeySchema = z.object({
  deviceId: z.string().trim().min(4).max(64),
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Expected a 32-byte X25519 public key in base64url"),
  signingKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "Expected a 32-byte Ed25519 public key in base64url")
    .optional(),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{86}$/, "Expected a 64-byte Ed25519 signature in base64url")
    .optional(),
});
export type PublishKeyInput = z.infer<typeof PublishKeySchema>;
export const DeviceIdSchema = z.string().trim().min(4).max(64);

/** One-time prekeys a device may have waiting on the server (docs/protocol.md §4); a request adds at most this. */
export const MAX_ONE_TIME_PREKEYS = 100;
const prekeyId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
const x25519 = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "Expected a 32-byte X25519 public key in base64url");
/** PUT /api/keys/:deviceId/prekeys: a signed prekey (signed by the device's identity key) and/or one-time prekeys. */
export const PublishPrekeysSchema = z
  .object({
    signedPrekey: z
      .object({
        keyId: prekeyId,
        publicKey: x25519,
        signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, "Expected a 64-byte Ed25519 signature in base64url"),
      })
      .optional(),
    oneTimePrekeys: z
      .array(z.object({ keyId: prekeyId, publicKey: x25519 }))
      .max(MAX_ONE_TIME_PREKEYS)
      .default([]),
  })
  .refine((b) => new Set(b.oneTimePrekeys.map((k) => k.keyId)).size === b.oneTimePrekeys.length, {
    message: "One-time prekey ids must differ",
    path: ["oneTimePrekeys"],
  });
export type PublishPrekeysInput = z.infer<typeof PublishPrekeysSchema>;
/** Room ids accepted in paths: nearby:<geohash-5>, group:<id>, dm:<a>:<b>. */
export const RoomIdSchema = z
  .string()
  .max(200)
  .regex(/^(nearby:[0-9b-hjkmnp-z]{5}|group:[A-Za-z0-9_-]{8,64}|dm:[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{1,64})$/, "Unknown room");

// Zod-free, so the browser's chat can ask without loading this module's schemas.
export { isPrivateRoomId } from "./private-rooms";

/** POST /api/ai/voice?room=: the chat a recording is for (private chats are refused, docs/protocol.md §1). */
export const VoiceUploadQuerySchema = z.object({ room: RoomIdSchema.optional() });

/** The 403 of a voice upload for a private chat, and what the chat says instead of recording. */
export const PRIVATE_VOICE_REFUSED = "Voice messages in private chats are not sent to the server for transcription.";

/** A public area room as /community lists it. */
export interface CommunityRoom {
  id: string;
  name: string;
  memberCount: number;
  /** From the viewer's area to this one, or null for a visitor with no area. */
  distanceKm: number | null;
  joined: boolean;
}

export interface CommunityAnswer {
  signedIn: boolean;
  area: { name: string; roomId: string } | null;
  /** Area rooms within COMMUNITY_RADIUS_KM of the viewer's area, nearest first (their own first of all). */
  near: CommunityRoom[];
  /** The largest area rooms nationwide. */
  largest: CommunityRoom[];
}

/** The /community join form. */
export const JoinRoomFormSchema = z.object({ roomId: RoomIdSchema });
