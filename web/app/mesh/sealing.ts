// Sealing and sender keys of the mesh node: private rooms' content is encrypted when it leaves and opened when
// it arrives, with the protocol of core/e2e.ts (docs/protocol.md). Device changes and new group members are
// said in the chat before the message they concern.
import type { E2eSession, TrustChange } from "../../../core/e2e";
import type { Envelope } from "../../../core/envelope";
import type { OutboxItem } from "./db";
import type { History } from "./history";
import * as keys from "./keys";
import { DEFAULT_TTL } from "../../../core/envelope";
import { dmPeer, isPrivateRoomId as isPrivateRoom } from "../../../core/room-ids";
import { packContent, unpackContent } from "./logic";

export type SealingSession = Pick<E2eSession, "sealDirect" | "sealGroup" | "prepareGroup" | "open" | "acceptSenderKey">;

export interface SealingDeps {
  me: { id: string; nickname: string };
  hop: string;
  history: History;
  /** Puts a sender-key envelope in the outbox and tries to send it. */
  enqueue(item: OutboxItem): Promise<void>;
  session?: () => Promise<SealingSession>;
  publishDeviceKey?: (userId: string) => Promise<void>;
  members?: (room: string) => Promise<{ userId: string; nickname?: string }[]>;
}

export type Opened = { text: string; meta?: Record<string, unknown> };

/** A group's members as the server lists them (who receives my sender key). */
async function fetchMembers(room: string): Promise<{ userId: string; nickname?: string }[]> {
  const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/members`, { credentials: "include" });
  if (!res.ok) throw new Error("Could not check the group's members, so this message waits");
  const body = (await res.json()) as { members?: { userId?: unknown; nickname?: unknown }[] };
  return (body.members ?? [])
    .filter((m): m is { userId: string; nickname: unknown } => typeof m.userId === "string")
    .map((m) => ({ userId: m.userId, nickname: typeof m.nickname === "string" ? m.nickname : undefined }));
}

export class Sealing {
  /** Nicknames of group members (for security notices). */
  private readonly names = new Map<string, string>();
  private readonly session: () => Promise<SealingSession>;
  private readonly publish: (userId: string) => Promise<void>;
  private readonly members: (room: string) => Promise<{ userId: string; nickname?: string }[]>;

  constructor(private readonly deps: SealingDeps) {
    this.session = deps.session ?? keys.session;
    this.publish = deps.publishDeviceKey ?? keys.publishDeviceKey;
    this.members = deps.members ?? fetchMembers;
  }

  /**
   * Encrypts the content of an envelope for a private room (plain rooms go as they are). Devices that
   * appeared or changed since last time are shown in the chat before this message.
   */
  async seal(envelope: Envelope): Promise<Envelope> {
    if (!isPrivateRoom(envelope.room) || !("text" in envelope.content)) return envelope;
    // Meta (a shared location...) is content too: it travels inside the ciphertext, never beside it.
    const text = packContent(envelope.content.text, envelope.meta);
    envelope = { ...envelope, meta: undefined };
    // Receivers accept only devices they can find published: this one should be before its first message
    // (offline, with only another tab's relay, it was published on an earlier visit).
    await this.publish(this.deps.me.id).catch(() => {});
    const session = await this.session();
    const peer = dmPeer(envelope.room, this.deps.me.id);
    if (peer) {
      const sealed = await session.sealDirect(envelope, text, peer);
      await this.showChanges(envelope.room, sealed.changes, envelope.timestamp - 1);
      return sealed.envelope;
    }
    await this.shareSenderKey(envelope.room, envelope.timestamp - 1);
    return session.sealGroup(envelope, text);
  }

  /**
   * Hands my group sender key to every trusted device of the members that lacks it, wrapped per device. The
   * protocol makes a new key whenever members or their devices change, so whoever left cannot read on.
   */
  async shareSenderKey(room: string, noticeAt = Date.now()): Promise<void> {
    const members = await this.members(room);
    for (const m of members) if (m.nickname !== undefined) this.names.set(m.userId, m.nickname);
    const ids = members.map((m) => m.userId);
    await this.showNewMembers(room, ids, noticeAt);
    const session = await this.session();
    const { envelopes, changes } = await session.prepareGroup(room, ids, {
      senderId: this.deps.me.id,
      senderName: this.deps.me.nickname,
      timestamp: Date.now(),
      ttl: DEFAULT_TTL,
      meshRoute: [this.deps.hop],
      priority: "normal",
    });
    await this.showChanges(room, changes, noticeAt);
    for (const envelope of envelopes) await this.deps.enqueue({ id: envelope.id, room, envelope, createdAt: envelope.timestamp });
  }

  /** People who joined a group since this device last looked: said in the chat (they read what follows). */
  private async showNewMembers(room: string, memberIds: string[], at: number) {
    const kv = this.deps.history;
    const known = await kv.kvGet<string[]>(`members:${room}`);
    const added = known ? memberIds.filter((id) => !known.includes(id) && id !== this.deps.me.id) : [];
    if (known?.join(" ") !== memberIds.join(" ")) await kv.kvSet(`members:${room}`, memberIds);
    for (const id of added)
      await this.deps.history.notice(room, `${this.names.get(id) ?? "Someone"} now receives the messages of this group.`, at);
  }

  /** Says in the chat that a contact's devices changed (a new device, or a device with a new key). */
  async showChanges(room: string, changes: Pick<TrustChange, "userId" | "kind">[], at: number) {
    for (const c of new Set(changes.map((c) => `${c.userId}|${c.kind}`))) {
      const [userId, kind] = c.split("|");
      const self = userId === this.deps.me.id;
      const name = self ? null : (this.names.get(userId ?? "") ?? this.nameIn(room, userId ?? "") ?? null);
      const who = self ? "Your account" : (name ?? "This contact");
      const what =
        kind === "new-device"
          ? `${who} has a new device that now receives this chat. If you did not expect it, compare safety numbers in the chat's info.`
          : `${who}'s security key changed. If you did not expect it, compare safety numbers in the chat's info.`;
      await this.deps.history.notice(room, what, at, { event: "device-change", kind, self, name });
    }
  }

  private nameIn(room: string, userId: string): string | undefined {
    return this.deps.history.list(room).findLast((m) => m.senderId === userId && m.senderName)?.senderName;
  }

  /**
   * Opens an envelope's content (text and any meta sealed with it). Private rooms accept only what the
   * protocol authenticates: plain text there, a forged sender, a rewritten header or a replay is refused.
   * Null: this device cannot open it (yet).
   */
  async open(envelope: Envelope): Promise<Opened | { refused: string } | null> {
    if (!isPrivateRoom(envelope.room)) return "text" in envelope.content ? { text: envelope.content.text, meta: envelope.meta } : null;
    const opened = await (await this.session()).open(envelope);
    if (opened.changes?.length) await this.showChanges(envelope.room, opened.changes, envelope.timestamp - 1);
    if (opened.ok) return unpackContent(opened.text);
    if (opened.reason === "no-key" || opened.reason === "not-for-this-device") return null;
    return { refused: opened.reason };
  }

  /** A `key` envelope addressed to this device: keep the sender key and open messages that waited for it. */
  async acceptSenderKey(envelope: Envelope) {
    const accepted = await (await this.session()).acceptSenderKey(envelope);
    if (!accepted.ok) return;
    await this.showChanges(envelope.room, accepted.changes, envelope.timestamp);
    for (const m of this.deps.history.list(envelope.room)) {
      if (!m.pending) continue;
      const opened = await this.open(m.pending);
      if (opened && "text" in opened)
        await this.deps.history.update({ ...m, text: opened.text, meta: opened.meta, isEncrypted: true, pending: undefined });
    }
  }
}
