// Sealing and sender keys of the mesh node: private rooms' content is encrypted when it leaves and opened when
// it arrives, with the protocol of core/e2e.ts (docs/protocol.md). A contact's new or changed key is said in
// the chat before anything is sealed to it, and for a contact marked verified nothing is sealed to it until the
// person accepts it (docs/decisions/063-one-identity-per-person.md); new group members are said first too.
import type { E2eSession, TrustChange, TrustProblem } from "../../../core/e2e";
import type { Envelope } from "../../../core/envelope";
import type { OutboxItem } from "./db";
import type { History } from "./history";
import * as keys from "./keys";
import { DEFAULT_TTL } from "../../../core/envelope";
import { dmPeer, isPrivateRoomId as isPrivateRoom } from "../../../core/room-ids";
import { packContent, unpackContent } from "./logic";

export type SealingSession = Pick<E2eSession, "sealDirect" | "sealGroup" | "prepareGroup" | "open" | "acceptSenderKey" | "acknowledge">;

export interface SealingDeps {
  me: { id: string; nickname: string };
  hop: string;
  history: History;
  /** Puts a sender-key envelope in the outbox and tries to send it. */
  enqueue(item: OutboxItem): Promise<void>;
  session?: () => Promise<SealingSession>;
  publishDeviceKey?: (userId: string) => Promise<void>;
  members?: (room: string) => Promise<{ userId: string; nickname?: string }[]>;
  /** True when the person marked this contact's safety number as verified (their key changes wait for consent). */
  verified?: (userId: string) => Promise<boolean>;
}

/** A change that must be shown (and, for a verified contact, accepted) before anything is sealed to the key. */
const needsConsent = (c: TrustChange) => c.kind !== "device-removed";

export type Opened = { text: string; meta?: Record<string, unknown> };

/** A failure the screen says by its catalog key, in the page's language. */
export class KeyedError extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** A group's members as the server lists them (who receives my sender key). */
async function fetchMembers(room: string): Promise<{ userId: string; nickname?: string }[]> {
  const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/members`, { credentials: "include" });
  if (!res.ok) throw new KeyedError("msg.membersUnchecked");
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
    this.verified = deps.verified ?? (async (userId) => (await keys.verifiedSafetyNumber(userId)) !== null);
  }

  private readonly verified: (userId: string) => Promise<boolean>;

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
      let sealed = await session.sealDirect(envelope, text, peer);
      if (!sealed.envelope) {
        // Nothing was sealed: the change is shown first, accepted (or waited on), and only then sealed to.
        await this.consent(envelope.room, sealed.changes, sealed.problems, envelope.timestamp - 1);
        sealed = await session.sealDirect(envelope, text, peer);
      }
      await this.showChanges(envelope.room, sealed.changes, envelope.timestamp - 1, sealed.problems);
      if (!sealed.envelope) throw new Error("A contact's keys changed again while this message was being sealed, so it waits.");
      return sealed.envelope;
    }
    await this.shareSenderKey(envelope.room, envelope.timestamp - 1);
    return session.sealGroup(envelope, text);
  }

  /**
   * Shows each change in the chat, then accepts it, unless it is a new account key of a contact the person
   * verified: then the message waits in the outbox, saying why, until the person compares and marks the new
   * number verified in the chat's info. (A verified contact's new device is signed by the account key the
   * person verified, so showing it is enough: docs/decisions/063-one-identity-per-person.md.)
   */
  private async consent(room: string, changes: TrustChange[], problems: TrustProblem[], at: number): Promise<void> {
    await this.showChanges(room, changes, at, problems);
    const pending = changes.filter(needsConsent);
    for (const userId of new Set(pending.filter((c) => c.kind === "account-changed").map((c) => c.userId))) {
      if (userId === this.deps.me.id || !(await this.verified(userId))) continue;
      const name = this.names.get(userId) ?? this.nameIn(room, userId) ?? "A contact you verified";
      throw new Error(
        `${name}'s security key changed since you verified it, so this message waits. Compare safety numbers in the chat's info, then mark them verified to send.`,
      );
    }
    await (await this.session()).acknowledge(pending);
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
    const base = {
      senderId: this.deps.me.id,
      senderName: this.deps.me.nickname,
      timestamp: Date.now(),
      ttl: DEFAULT_TTL,
      meshRoute: [this.deps.hop],
      priority: "normal" as const,
    };
    let handout = await session.prepareGroup(room, ids, base);
    if (handout.waiting) {
      // No sender key goes to a new or changed device before the chat has said so.
      await this.consent(room, handout.changes, handout.problems, noticeAt);
      handout = await session.prepareGroup(room, ids, base);
      if (handout.waiting) throw new Error("A member's keys changed again while this message was being sealed, so it waits.");
    }
    const { envelopes, changes } = handout;
    await this.showChanges(room, changes, noticeAt, handout.problems);
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

  /**
   * Says in the chat that a contact's keys changed (a new device, a device or account with a new key, a device
   * withdrawn), each change once per chat, and what the server offered that was refused.
   */
  async showChanges(room: string, changes: TrustChange[], at: number, problems: TrustProblem[] = []) {
    const said = (await this.deps.history.kvGet<string[]>(`key-notices:${room}`)) ?? [];
    const fresh = changes.filter((c) => !said.includes(`${c.userId}|${c.kind}|${c.deviceId}|${c.key ?? ""}`));
    for (const c of new Set(fresh.map((c) => `${c.userId}|${c.kind}`))) {
      const [userId, kind] = c.split("|");
      const self = userId === this.deps.me.id;
      const name = self ? null : (this.names.get(userId ?? "") ?? this.nameIn(room, userId ?? "") ?? null);
      const who = self ? "Your account" : (name ?? "This contact");
      const check = "If you did not expect it, compare safety numbers in the chat's info.";
      // The chat renders "device-change" lines in the person's language (features/chat/disappearing.tsx): a new
      // account key reads as the contact's security key changing, which it is. A removal is said as written.
      if (kind === "device-removed") {
        await this.deps.history.notice(room, `${who} signed a device out; it no longer receives this chat.`, at, {
          event: "device-removed",
        });
        continue;
      }
      const what =
        kind === "new-device" ? `${who} has a new device that now receives this chat. ${check}` : `${who}'s security key changed. ${check}`;
      await this.deps.history.notice(room, what, at, { event: "device-change", kind, self, name });
    }
    if (fresh.length)
      await this.deps.history.kvSet(
        `key-notices:${room}`,
        [...said, ...fresh.map((c) => `${c.userId}|${c.kind}|${c.deviceId}|${c.key ?? ""}`)].slice(-200),
      );
    for (const p of new Set(problems.map((p) => `${p.userId}|${p.kind}`))) {
      if (this.problemsSaid.has(`${room}|${p}`)) continue;
      this.problemsSaid.add(`${room}|${p}`);
      const [userId, kind] = p.split("|");
      const who =
        userId === this.deps.me.id ? "your" : `${this.names.get(userId ?? "") ?? this.nameIn(room, userId ?? "") ?? "this contact"}'s`;
      const what =
        kind === "rolled-back"
          ? `The server offered an older list of ${who} devices; it was refused.`
          : kind === "relisted-revoked"
            ? `The server listed again a device of ${who} that was signed out; it gets nothing.`
            : `The server offered a list of ${who} devices that ${who === "your" ? "your account" : "their account"} did not sign; it was refused.`;
      await this.deps.history.notice(room, what, at, { event: "key-refused", kind });
    }
  }

  /** Refusals already said in this page's life (the server may repeat them on every look). */
  private readonly problemsSaid = new Set<string>();

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
    if (opened.changes?.length || opened.problems?.length)
      await this.showChanges(envelope.room, opened.changes ?? [], envelope.timestamp - 1, opened.problems);
    if (opened.ok) return unpackContent(opened.text);
    if (opened.reason === "no-key" || opened.reason === "not-for-this-device") return null;
    return { refused: opened.reason };
  }

  /** A `key` envelope addressed to this device: keep the sender key and open messages that waited for it. */
  async acceptSenderKey(envelope: Envelope) {
    const accepted = await (await this.session()).acceptSenderKey(envelope);
    if (!accepted.ok) return;
    await this.showChanges(envelope.room, accepted.changes, envelope.timestamp, accepted.problems);
    for (const m of this.deps.history.list(envelope.room)) {
      if (!m.pending) continue;
      const opened = await this.open(m.pending);
      if (opened && "text" in opened)
        await this.deps.history.update({ ...m, text: opened.text, meta: opened.meta, isEncrypted: true, pending: undefined });
    }
  }
}
