// The client mesh node: one per tab. It keeps history and the outbox in IndexedDB, talks to each room over
// the relay WebSocket, and to the other tabs of this browser over the local mesh (BroadcastChannel): a tab
// whose socket is down hands its frames to a tab whose socket is up, which relays them and passes the room's
// answers back. Envelopes are deduplicated by id, carry a TTL and collect one hop per node in meshRoute.
import type { Envelope } from "../../../core/envelope";
import type { ClientFrame, PresenceMember, ReceiptStatus, ServerFrame } from "../../../core/frames";
import { apiRequest, HttpError } from "../../../core/http";
import { newId } from "../../../core/ids";
import { LOCAL_MESH_CHANNEL, type LocalMeshMessage, LocalMeshMessageSchema } from "../../../core/local-mesh";
import {
  byTime,
  deleteMessage,
  deleteOutbox,
  getMessage,
  kvGet,
  kvSet,
  type MessageStatus,
  type OutboxItem,
  outboxFor,
  putMessage,
  pruneRoom,
  putOutbox,
  isUnread,
  type StoredMessage,
  selectDbUser,
} from "./db";
import { missedCallText } from "../../../core/calls";
import { setCurrentMeshNode } from "./current";
import * as keys from "./keys";
import {
  chunk,
  DEFAULT_TTL,
  dmPeer,
  forwardEnvelope,
  isPrivateRoom,
  packContent,
  relayToTabs,
  SeenIds,
  unpackContent,
  upgradeStatus,
} from "./logic";
import { RelayTransport, type TransportStatus } from "./transports";

export interface Me {
  id: string;
  nickname: string;
  /** The 'Mesh networking' setting: false keeps this tab off the local mesh (relay only). */
  localMesh?: boolean;
}

export interface RoomState {
  room: string;
  relay: TransportStatus;
  /** Open relay of another tab on this device that carries this room for us. */
  viaTab: string | null;
  resumed: boolean;
  cursor: number;
  presence: { nodes: number; members: PresenceMember[] } | null;
  typing: { userId: string; nickname: string }[];
  encrypted: boolean;
  loaded: boolean;
}

export interface LocalPeer {
  tab: string;
  hop: string;
  relays: Set<string>;
  online: boolean;
  lastSeen: number;
}

export interface SendOptions {
  type?: "text" | "emergency";
  priority?: "normal" | "high";
  meta?: Record<string, unknown>;
}

/** The protocol's most ids per receipt frame (MAX_RECEIPT_IDS in core/frames.ts, not imported: zod). */
const MAX_RECEIPT_IDS = 200;
/** Messages kept per room on this device (the room itself keeps at least 1,000 or 7 days). */
const HISTORY_KEPT = 2000;
const PEER_HEARTBEAT_MS = 3000;
const KEY_SHARE_EVERY_MS = 10_000;
const PEER_EXPIRY_MS = 10_000;
const RESEND_AFTER_MS = 4000;
const TYPING_SHOWN_MS = 6000;
const SHOWN_TYPES = new Set<Envelope["type"]>(["text", "emergency", "ai", "system"]);
/** Server frames of call signalling: handed to the calls feature, never to other tabs (a call is pinned to a socket). */
const CALL_FRAMES = new Set<string>(["ring", "ringing", "accept", "call-offer", "call-answer", "ice", "call-ended"]);
export type CallServerFrame = Extract<
  ServerFrame,
  { type: "ring" | "ringing" | "accept" | "call-offer" | "call-answer" | "ice" | "call-ended" | "error" }
>;
export type CallClientFrame = Extract<
  ClientFrame,
  { type: "ring" | "accept" | "decline" | "hangup" | "call-offer" | "call-answer" | "ice" }
>;

export class MeshNode {
  readonly tabId = `tab-${newId(4)}`;
  readonly hop: string;
  private readonly rooms = new Map<string, RoomState>();
  private readonly relays = new Map<string, RelayTransport>();
  private readonly messages = new Map<string, Map<string, StoredMessage>>();
  private readonly seen = new SeenIds();
  readonly peers = new Map<string, LocalPeer>();
  private readonly channel: BroadcastChannel | null;
  private readonly listeners = new Set<() => void>();
  private readonly lastSent = new Map<string, number>();
  /**
   * Private envelopes as sealed for their first try: a resend carries the same bytes, since sealing again
   * would move the ratchet each time (docs/protocol.md §4) and a long wait could exceed what receivers skip.
   */
  private readonly sealed = new Map<string, Envelope>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly forgotten = new Set<string>();
  /**
   * Rooms catching up: from the first resume until a resume-done without `more`. Meanwhile only resume-done
   * moves the cursor (an emergency sent first, or a live envelope, must not skip what is still to come).
   */
  private readonly resuming = new Set<string>();
  private readonly lastKeyShare = new Map<string, number>();
  private readonly presenceSeen = new Map<string, Set<string>>();
  /** Nicknames of group members (for security notices). */
  private readonly names = new Map<string, string>();
  private readonly pendingReceipts = new Map<string, { delivered: Set<string>; read: Set<string> }>();
  private receiptTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private heartbeat: ReturnType<typeof setInterval>;
  private readonly callListeners = new Set<(room: string, frame: CallServerFrame) => void>();
  /** Live figures for /mesh-network. */
  readonly stats = { relayedForTabs: 0, relayedByTabs: 0, forwardedToTabs: 0, received: 0, sent: 0 };
  /** Who handed envelopes to whom (from meshRoute): "a→b" → count. */
  readonly routes = new Map<string, number>();
  version = 0;

  constructor(readonly me: Me) {
    selectDbUser(me.id);
    this.hop = `${me.nickname.slice(0, 40)} · ${this.tabId}`;
    this.channel = me.localMesh !== false && typeof BroadcastChannel === "function" ? new BroadcastChannel(LOCAL_MESH_CHANNEL) : null;
    if (this.channel) this.channel.onmessage = (e) => this.onLocal(e.data);
    this.heartbeat = setInterval(() => this.tick(), PEER_HEARTBEAT_MS);
    window.addEventListener("online", this.onConnectivity);
    window.addEventListener("offline", this.onConnectivity);
    window.addEventListener("pagehide", () => this.post({ kind: "bye", tab: this.tabId }));
    this.announce();
    keys.publishDeviceKey(me.id).catch(() => {});
  }

  // ------------------------------------------------------------------ subscription (React reads snapshots)

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  private changed() {
    this.version++;
    for (const l of this.listeners) l();
  }

  /** Call signalling of every open room (web/app/features/calls); answers the unsubscribe. */
  onCall(listener: (room: string, frame: CallServerFrame) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }
  /** Sends a call frame by this tab's own room socket only; false when it is not open. */
  sendCall(room: string, frame: CallClientFrame): boolean {
    const relay = this.relays.get(room);
    return relay?.status === "open" ? relay.send(frame) : false;
  }

  roomState(room: string): RoomState | undefined {
    return this.rooms.get(room);
  }
  /** Messages of a room, oldest first. */
  list(room: string): StoredMessage[] {
    return [...(this.messages.get(room)?.values() ?? [])].sort(byTime);
  }
  /** Messages from others in a room not yet read on this device. */
  unread(room: string): number {
    let n = 0;
    for (const m of this.messages.get(room)?.values() ?? []) if (isUnread(m)) n++;
    return n;
  }
  /** Unread messages in every room this tab holds (the Chat tab's badge). */
  unreadTotal(): number {
    let n = 0;
    for (const room of this.messages.keys()) n += this.unread(room);
    return n;
  }
  /** The room on screen, named by the chat so the status strip can speak of it. */
  focused: string | null = null;
  focus(room: string | null) {
    if (this.focused === room) return;
    this.focused = room;
    this.changed();
  }
  /** What is true right now, for the status strip: the relay, who is here, what waits in the outbox. */
  summary(): { relay: "open" | "via-tab" | "closed"; people: number | null; pending: number } {
    const state = this.focused ? this.rooms.get(this.focused) : undefined;
    const states = state ? [state] : [...this.rooms.values()];
    const relay = states.some((r) => r.relay === "open") ? "open" : states.some((r) => r.viaTab) ? "via-tab" : "closed";
    let pending = 0;
    for (const map of this.messages.values()) for (const m of map.values()) if (m.mine && m.status === "sending" && !m.local) pending++;
    return { relay, people: state?.presence?.nodes ?? null, pending };
  }
  /** Tabs of this browser heard from recently (the local mesh). */
  localPeers(): LocalPeer[] {
    return [...this.peers.values()];
  }
  openRooms(): RoomState[] {
    return [...this.rooms.values()];
  }

  // ------------------------------------------------------------------ rooms

  /** Opens a room: history from IndexedDB at once, then the relay socket (resume from the saved cursor). */
  async open(room: string): Promise<void> {
    if (this.rooms.has(room)) return;
    const state: RoomState = {
      room,
      relay: "closed",
      viaTab: null,
      resumed: false,
      cursor: 0,
      presence: null,
      typing: [],
      encrypted: isPrivateRoom(room),
      loaded: false,
    };
    this.rooms.set(room, state);
    const [history, cursor, forgotten] = await Promise.all([
      pruneRoom(room, HISTORY_KEPT),
      kvGet<number>(`cursor:${room}`),
      kvGet<string[]>(`forgotten:${room}`),
    ]);
    for (const id of forgotten ?? []) this.forgotten.add(id);
    const map = this.messages.get(room) ?? new Map<string, StoredMessage>();
    for (const m of history) {
      map.set(m.id, m);
      this.seen.add(m.id);
    }
    this.messages.set(room, map);
    state.cursor = cursor ?? 0;
    state.loaded = true;
    this.changed();
    const relay = new RelayTransport(room, {
      onFrame: (frame) => this.onServerFrame(room, frame, null),
      onStatus: (status) => this.onRelayStatus(room, status),
      onBadFrame: (message) => console.warn("mesh: unreadable frame", message),
    });
    this.relays.set(room, relay);
    this.announce();
  }

  private onRelayStatus(room: string, status: TransportStatus) {
    const state = this.rooms.get(room);
    if (!state) return;
    state.relay = status;
    if (status === "open") this.resume(room);
    else {
      state.resumed = false;
      this.resuming.delete(room);
    }
    this.announce();
    this.refreshVia(room);
    this.changed();
  }

  private onConnectivity = () => {
    this.announce();
    this.changed();
  };

  // ------------------------------------------------------------------ sending

  /** Writes a message: stored and in the outbox at once (status sending), then sent by any transport. */
  async send(room: string, text: string, opts: SendOptions = {}): Promise<StoredMessage> {
    const envelope: Envelope = {
      id: newId(),
      room,
      senderId: this.me.id,
      senderName: this.me.nickname,
      timestamp: Date.now(),
      type: opts.type ?? "text",
      ttl: DEFAULT_TTL,
      meshRoute: [this.hop],
      isEncrypted: isPrivateRoom(room),
      priority: opts.priority ?? (opts.type === "emergency" ? "high" : "normal"),
      content: { text },
      meta: opts.meta,
    };
    const message: StoredMessage = {
      id: envelope.id,
      room,
      senderId: this.me.id,
      senderName: this.me.nickname,
      timestamp: envelope.timestamp,
      type: envelope.type,
      text,
      mine: true,
      status: "sending",
      meshRoute: envelope.meshRoute,
      isEncrypted: envelope.isEncrypted,
      priority: envelope.priority,
      meta: opts.meta,
    };
    this.seen.add(envelope.id);
    await putMessage(message);
    await putOutbox({ id: envelope.id, room, envelope, createdAt: envelope.timestamp });
    this.remember(message);
    this.stats.sent++;
    await this.flushOne({ id: envelope.id, room, envelope, createdAt: envelope.timestamp });
    return message;
  }

  /** A message only this device sees (the assistant's questions and answers). */
  async addLocal(room: string, text: string, opts: { isAI?: boolean; mine?: boolean; meta?: Record<string, unknown> } = {}) {
    const message: StoredMessage = {
      id: newId(),
      room,
      senderId: opts.isAI ? "ai" : this.me.id,
      senderName: opts.isAI ? "LIA Assistant" : this.me.nickname,
      timestamp: Date.now(),
      type: opts.isAI ? "ai" : "text",
      text,
      mine: opts.mine ?? !opts.isAI,
      meshRoute: [],
      isEncrypted: false,
      priority: "normal",
      isAI: opts.isAI,
      local: true,
      meta: opts.meta,
    };
    await putMessage(message);
    this.remember(message);
    return message;
  }

  /** Sends every outbox item of a room (or of all rooms) that a transport can carry now. */
  async flush(room?: string): Promise<void> {
    for (const item of await outboxFor(room)) await this.flushOne(item);
  }

  private async flushOne(item: OutboxItem): Promise<void> {
    const last = this.lastSent.get(item.id);
    if (last && Date.now() - last < RESEND_AFTER_MS) return;
    if (item.envelope.type === "emergency") return this.flushSos(item);
    const state = this.rooms.get(item.room);
    const relay = this.relays.get(item.room);
    const direct = relay?.status === "open" && state?.resumed;
    const via = direct ? null : this.peerRelaying(item.room);
    if (!direct && !via) return;
    let wire: Envelope;
    try {
      wire = this.sealed.get(item.id) ?? (await this.seal(item.envelope));
      if (isPrivateRoom(item.room)) this.sealed.set(item.id, wire);
    } catch (error) {
      await this.setError(item.room, item.id, error instanceof Error ? error.message : String(error));
      return;
    }
    const frame: ClientFrame = { type: "send", envelope: wire };
    if (direct && relay?.send(frame)) this.lastSent.set(item.id, Date.now());
    else if (via) {
      this.post({ kind: "relay", from: this.tabId, to: via.tab, room: item.room, frame });
      this.stats.relayedByTabs++;
      this.lastSent.set(item.id, Date.now());
    }
  }

  /**
   * An SOS written without a connection leaves through the server's SOS pipeline once there is one: rooms
   * take emergency envelopes only from it (docs/decisions/013-who-says-what-in-a-room.md). The envelope id is
   * the request id, so a retry never raises a second alert.
   */
  private async flushSos(item: OutboxItem): Promise<void> {
    this.lastSent.set(item.id, Date.now());
    const { content, meta } = item.envelope;
    try {
      await apiRequest("POST", "/api/emergency/broadcast", {
        message: "text" in content ? content.text : "",
        emergencyType: "other",
        location: meta?.location ?? undefined,
        clientRequestId: item.id,
      });
    } catch (error) {
      // Still no connection: it waits in the outbox. A refusal is shown on the message.
      if (!(error instanceof HttpError)) return;
      await deleteOutbox(item.id);
      await this.setError(item.room, item.id, error.message);
      return;
    }
    await deleteOutbox(item.id);
    // The room brings the alert back as the server's envelope; this local draft gives way to it.
    await this.forget(item.room, [item.id]);
  }

  /**
   * Encrypts the content of an envelope for a private room (plain rooms go as they are), with the protocol of
   * core/e2e.ts. Devices that appeared or changed since last time are shown in the chat before this message.
   */
  private async seal(envelope: Envelope): Promise<Envelope> {
    if (!isPrivateRoom(envelope.room) || !("text" in envelope.content)) return envelope;
    // Meta (a shared location...) is content too: it travels inside the ciphertext, never beside it.
    const text = packContent(envelope.content.text, envelope.meta);
    envelope = { ...envelope, meta: undefined };
    // Receivers accept only devices they can find published: this one should be before its first message
    // (offline, with only another tab's relay, it was published on an earlier visit).
    await keys.publishDeviceKey(this.me.id).catch(() => {});
    const session = await keys.session();
    const peer = dmPeer(envelope.room, this.me.id);
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
  private async shareSenderKey(room: string, noticeAt = Date.now()): Promise<void> {
    const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/members`, { credentials: "include" });
    if (!res.ok) throw new Error("Could not check the group's members, so this message waits");
    const body = (await res.json()) as { members?: { userId?: unknown; nickname?: unknown }[] };
    const members = (body.members ?? []).filter((m): m is { userId: string; nickname: unknown } => typeof m.userId === "string");
    for (const m of members) if (typeof m.nickname === "string") this.names.set(m.userId, m.nickname);
    await this.showNewMembers(
      room,
      members.map((m) => m.userId),
      noticeAt,
    );
    const session = await keys.session();
    const { envelopes, changes } = await session.prepareGroup(
      room,
      members.map((m) => m.userId),
      {
        senderId: this.me.id,
        senderName: this.me.nickname,
        timestamp: Date.now(),
        ttl: DEFAULT_TTL,
        meshRoute: [this.hop],
        priority: "normal",
      },
    );
    await this.showChanges(room, changes, noticeAt);
    for (const envelope of envelopes) {
      const item = { id: envelope.id, room, envelope, createdAt: envelope.timestamp };
      await putOutbox(item);
      await this.flushOne(item);
    }
  }

  /** People who joined a group since this device last looked: said in the chat (they read what follows). */
  private async showNewMembers(room: string, memberIds: string[], at: number) {
    const known = await kvGet<string[]>(`members:${room}`);
    const added = known ? memberIds.filter((id) => !known.includes(id) && id !== this.me.id) : [];
    if (known?.join(" ") !== memberIds.join(" ")) await kvSet(`members:${room}`, memberIds);
    for (const id of added) await this.notice(room, `${this.names.get(id) ?? "Someone"} now receives the messages of this group.`, at);
  }

  /** Says in the chat that a contact's devices changed (a new device, or a device with a new key). */
  private async showChanges(room: string, changes: { userId: string; kind: "new-device" | "key-changed" }[], at: number) {
    for (const c of new Set(changes.map((c) => `${c.userId}|${c.kind}`))) {
      const [userId, kind] = c.split("|");
      const who =
        userId === this.me.id ? "Your account" : (this.names.get(userId ?? "") ?? this.nameIn(room, userId ?? "") ?? "This contact");
      const what =
        kind === "new-device"
          ? `${who} has a new device that now receives this chat. If you did not expect it, compare safety numbers in the chat's info.`
          : `${who}'s security key changed. If you did not expect it, compare safety numbers in the chat's info.`;
      await this.notice(room, what, at);
    }
  }

  private nameIn(room: string, userId: string): string | undefined {
    return this.list(room).findLast((m) => m.senderId === userId && m.senderName)?.senderName;
  }

  /** A security notice in a chat, on this device only. */
  private async notice(room: string, text: string, at: number) {
    const message: StoredMessage = {
      id: newId(),
      room,
      senderId: "system",
      senderName: "Security",
      timestamp: at,
      type: "system",
      text,
      mine: false,
      meshRoute: [],
      isEncrypted: false,
      priority: "normal",
      local: true,
    };
    await putMessage(message);
    this.remember(message);
  }

  /**
   * Opens an envelope's content (text and any meta sealed with it). Private rooms accept only what the
   * protocol authenticates: plain text there, a forged sender, a rewritten header or a replay is refused.
   */
  private async open_(envelope: Envelope): Promise<{ text: string; meta?: Record<string, unknown> } | { refused: string } | null> {
    if (!isPrivateRoom(envelope.room)) return "text" in envelope.content ? { text: envelope.content.text, meta: envelope.meta } : null;
    const opened = await (await keys.session()).open(envelope);
    if (opened.changes?.length) await this.showChanges(envelope.room, opened.changes, envelope.timestamp - 1);
    if (opened.ok) return unpackContent(opened.text);
    if (opened.reason === "no-key" || opened.reason === "not-for-this-device") return null;
    return { refused: opened.reason };
  }

  /** A `key` envelope addressed to this device: keep the sender key and open messages that waited for it. */
  private async acceptSenderKey(envelope: Envelope) {
    const accepted = await (await keys.session()).acceptSenderKey(envelope);
    if (!accepted.ok) return;
    await this.showChanges(envelope.room, accepted.changes, envelope.timestamp);
    for (const m of this.list(envelope.room)) {
      if (!m.pending) continue;
      const opened = await this.open_(m.pending);
      if (opened && "text" in opened)
        await this.update({ ...m, text: opened.text, meta: opened.meta, isEncrypted: true, pending: undefined });
    }
  }

  // ------------------------------------------------------------------ receiving

  /** Asks the room for what this device missed after its cursor (again, while answers say there is more). */
  private resume(room: string) {
    const state = this.rooms.get(room);
    if (!state || !this.relays.get(room)?.send({ type: "resume", cursor: state.cursor })) return;
    this.resuming.add(room);
  }

  private onServerFrame(room: string, frame: ServerFrame, viaTab: string | null) {
    const state = this.rooms.get(room);
    if (CALL_FRAMES.has(frame.type) || frame.type === "error") {
      for (const l of this.callListeners) l(room, frame as CallServerFrame);
      if (frame.type !== "error") return;
    }
    if (viaTab === null) this.forwardToTabs(room, frame);
    switch (frame.type) {
      case "hello":
        if (state) state.encrypted = frame.encrypted;
        break;
      case "ack":
        this.inOrder(room, () => this.onAck(room, frame.id, frame.seq));
        break;
      case "envelope":
        this.inOrder(room, () => this.onEnvelope(room, frame.envelope, frame.seq));
        break;
      case "resume-batch":
        this.inOrder(room, async () => {
          for (const item of frame.items) await this.onEnvelope(room, item.envelope, item.seq);
        });
        break;
      case "resume-done":
        if (state && viaTab === null) state.resumed = true;
        this.inOrder(room, async () => {
          // Only now, with every missed envelope stored, does the cursor move past them.
          if (viaTab === null) {
            if (!frame.more) this.resuming.delete(room);
            this.setCursor(room, frame.cursor);
          }
          // One answer carries a bounded number of bytes: the rest comes by resuming from the new cursor.
          if (viaTab === null && frame.more) this.resume(room);
          for (const r of frame.receipts) await this.onReceipt(room, [r.id], r.status);
          await this.flush(room);
          this.queueOwedReceipts(room);
        });
        break;
      case "receipt":
        this.inOrder(room, () => this.onReceipt(room, frame.ids, frame.status));
        break;
      case "presence":
        if (state) state.presence = { nodes: frame.nodes, members: frame.members };
        // Someone (or a new device) arrived in a group: hand them my sender key, so my messages open for them.
        // A person not seen here before (just accepted an invitation) gets it at once; others at most every 10 s.
        if (
          room.startsWith("group:") &&
          (this.newInPresence(room, frame.members) || Date.now() - (this.lastKeyShare.get(room) ?? 0) > KEY_SHARE_EVERY_MS)
        ) {
          this.lastKeyShare.set(room, Date.now());
          this.inOrder(room, () => this.shareSenderKey(room).catch((e) => console.warn("mesh: sender key", e)));
        }
        break;
      case "typing":
        if (state && frame.userId !== this.me.id) this.onTyping(state, frame.userId, frame.nickname, frame.active);
        break;
      case "error":
        if (
          frame.id &&
          (frame.code === "forbidden" || frame.code === "plaintext_refused" || frame.code === "too_large" || frame.code === "malformed")
        ) {
          void this.setError(room, frame.id, frame.message);
          this.sealed.delete(frame.id);
          void deleteOutbox(frame.id);
        } else if (frame.code === "rate_limited" || frame.code === "internal") {
          // The room limits resumes too: one still unanswered is asked again after the wait.
          const resumeAgain = viaTab === null && this.resuming.has(room);
          setTimeout(() => {
            if (resumeAgain && this.resuming.has(room)) this.resume(room);
            void this.flush(room);
          }, frame.retryAfterMs ?? 2000);
        } else console.warn("mesh: room error", frame.code, frame.message);
        break;
      case "pong":
        break;
    }
    this.changed();
  }

  /** Whether the presence lists someone this tab has not seen in the room before (and remembers them). */
  private newInPresence(room: string, members: PresenceMember[]): boolean {
    const seen = this.presenceSeen.get(room) ?? new Set<string>();
    this.presenceSeen.set(room, seen);
    let fresh = false;
    for (const m of members) {
      if (seen.has(m.userId)) continue;
      seen.add(m.userId);
      fresh = true;
    }
    return fresh;
  }

  /** Frames of one room are handled one after another, in the order the room sent them. */
  private inOrder(room: string, task: () => Promise<void>) {
    const next = (this.chains.get(room) ?? Promise.resolve()).then(task).catch((e) => console.warn("mesh: frame", e));
    this.chains.set(room, next);
  }

  private setCursor(room: string, seq: number) {
    const state = this.rooms.get(room);
    if (!state || seq <= state.cursor) return;
    state.cursor = seq;
    void kvSet(`cursor:${room}`, seq);
  }

  private async onAck(room: string, id: string, seq: number) {
    this.lastSent.delete(id);
    this.sealed.delete(id);
    await deleteOutbox(id);
    const m = this.messages.get(room)?.get(id) ?? (await getMessage(id));
    if (m?.type === "key" || !m) return;
    await this.update({ ...m, seq, error: undefined, status: upgradeStatus(m.status, "sent") });
  }

  private async onReceipt(room: string, ids: string[], status: ReceiptStatus) {
    for (const id of ids) {
      const m = this.messages.get(room)?.get(id) ?? (await getMessage(id));
      if (!m?.mine) continue;
      const next = upgradeStatus(m.status, status);
      if (next !== m.status) await this.update({ ...m, status: next });
    }
  }

  private async onEnvelope(room: string, envelope: Envelope, seq: number) {
    await this.receive(room, envelope, seq);
    // After the envelope is stored: a reload never resumes past something it did not keep.
    if (!this.resuming.has(room)) this.setCursor(room, seq);
  }

  private async receive(room: string, envelope: Envelope, seq: number) {
    if (this.forgotten.has(envelope.id)) return;
    if (envelope.room !== room || envelope.type === "receipt" || envelope.type === "presence") return;
    this.recordRoute(envelope.meshRoute);
    if (!this.seen.add(envelope.id)) {
      // Already here: my own message coming back means the room has it.
      const known = this.messages.get(room)?.get(envelope.id);
      if (known?.mine && known.status === "sending") await this.onAck(room, envelope.id, seq);
      return;
    }
    const stored = await getMessage(envelope.id);
    if (stored) {
      this.remember(stored);
      if (stored.mine && stored.status === "sending") await this.onAck(room, envelope.id, seq);
      return;
    }
    if (envelope.type === "key") {
      await this.acceptSenderKey(envelope);
      return;
    }
    if (!SHOWN_TYPES.has(envelope.type)) return;
    const mine = envelope.senderId === this.me.id;
    // The room's missed-call entry has no content to open: its line comes from who called whom.
    const callLine = missedCallText(envelope, this.me.id);
    const result = callLine !== null ? { text: callLine } : await this.open_(envelope);
    if (result && "refused" in result) {
      // Forged, rewritten, replayed or plain text in a private room: never shown, never acknowledged.
      console.warn("mesh: refused a private envelope", result.refused);
      return;
    }
    const opened = result;
    const text = opened?.text ?? null;
    const message: StoredMessage = {
      id: envelope.id,
      room,
      senderId: envelope.senderId,
      senderName: envelope.senderName,
      timestamp: envelope.timestamp,
      type: envelope.type,
      text,
      mine,
      status: mine ? "sent" : undefined,
      seq,
      meshRoute: envelope.meshRoute,
      // The lock shows only for what this device decrypted and authenticated, never for a flag on the wire.
      isEncrypted: isPrivateRoom(room) && opened !== null && callLine === null,
      priority: envelope.priority,
      isAI: envelope.type === "ai" || undefined,
      meta: opened?.meta,
      // Group messages may wait for their sender key; a direct message this device cannot open never will.
      pending: opened === null && envelope.room.startsWith("group:") ? envelope : undefined,
    };
    this.stats.received++;
    await this.update(message);
    if (!mine && envelope.senderId !== "system") this.queueReceipt(room, envelope.id, "delivered");
  }

  private onTyping(state: RoomState, userId: string, nickname: string, active: boolean) {
    state.typing = state.typing.filter((t) => t.userId !== userId);
    clearTimeout(this.typingTimers.get(`${state.room}|${userId}`));
    if (active) {
      state.typing.push({ userId, nickname });
      this.typingTimers.set(
        `${state.room}|${userId}`,
        setTimeout(() => {
          state.typing = state.typing.filter((t) => t.userId !== userId);
          this.changed();
        }, TYPING_SHOWN_MS),
      );
    }
  }

  /** Asks the room for a fresh presence list (a ping with presence). */
  refreshPresence(room: string | null) {
    if (room) this.sendControl(room, { type: "ping", at: Date.now(), presence: true });
  }

  /** Tells the room I am typing (relayed live, never stored). */
  typing(room: string, active: boolean) {
    this.sendControl(room, { type: "typing", active });
  }

  private recordRoute(route: string[]) {
    for (let i = 1; i < route.length; i++) {
      const edge = `${route[i - 1]}→${route[i]}`;
      this.routes.set(edge, (this.routes.get(edge) ?? 0) + 1);
    }
  }

  // ------------------------------------------------------------------ receipts

  /** The screen shows this room: everything others sent in it counts as read. */
  markRead(room: string) {
    if (typeof document !== "undefined" && document.visibilityState !== "visible") return;
    for (const m of this.messages.get(room)?.values() ?? []) {
      if (!m.mine && !m.local && m.receipt !== "read" && m.senderId !== "system") this.queueReceipt(room, m.id, "read");
    }
  }

  /** Receipts this device owes (after a reconnect, or when the first attempt found no transport). */
  private queueOwedReceipts(room: string) {
    for (const m of this.messages.get(room)?.values() ?? []) {
      if (!m.mine && !m.local && !m.receipt && m.senderId !== "system") this.queueReceipt(room, m.id, "delivered");
    }
    this.kickReceipts();
  }

  private queueReceipt(room: string, id: string, status: ReceiptStatus) {
    let pending = this.pendingReceipts.get(room);
    if (!pending) {
      pending = { delivered: new Set(), read: new Set() };
      this.pendingReceipts.set(room, pending);
    }
    pending[status].add(id);
    this.kickReceipts();
  }

  /** Sends queued receipts soon (batched); those without a transport stay queued for the next chance. */
  private kickReceipts() {
    this.receiptTimer ??= setTimeout(() => {
      this.receiptTimer = null;
      void this.sendReceipts();
    }, 150);
  }

  private async sendReceipts() {
    for (const [room, pending] of this.pendingReceipts) {
      for (const status of ["delivered", "read"] as const) {
        const ids = [...pending[status]];
        for (const part of chunk(ids, MAX_RECEIPT_IDS)) {
          if (!this.sendControl(room, { type: "receipt", status, ids: part })) continue;
          for (const id of part) {
            pending[status].delete(id);
            const m = this.messages.get(room)?.get(id);
            if (m && (m.receipt !== "read" || status === "read")) await this.update({ ...m, receipt: status }, false);
          }
        }
      }
    }
  }

  /** Sends a control frame by the room socket, or through a tab that has one; false when neither is up. */
  private sendControl(room: string, frame: ClientFrame): boolean {
    const relay = this.relays.get(room);
    if (relay?.status === "open" && this.rooms.get(room)?.resumed) return relay.send(frame);
    const via = this.peerRelaying(room);
    if (!via) return false;
    this.post({ kind: "relay", from: this.tabId, to: via.tab, room, frame });
    return true;
  }

  // ------------------------------------------------------------------ local mesh (other tabs)

  private post(message: LocalMeshMessage) {
    try {
      this.channel?.postMessage(message);
    } catch (e) {
      console.warn("mesh: local post failed", e);
    }
  }

  private announce() {
    const relays = [...this.relays.entries()].filter(([, r]) => r.status === "open").map(([room]) => room);
    this.post({ kind: "hello", tab: this.tabId, hop: this.hop, relays, online: navigator.onLine });
  }

  private tick() {
    this.announce();
    const now = Date.now();
    let dropped = false;
    for (const [tab, peer] of this.peers) {
      if (now - peer.lastSeen > PEER_EXPIRY_MS) {
        this.peers.delete(tab);
        dropped = true;
      }
    }
    if (dropped) for (const room of this.rooms.keys()) this.refreshVia(room);
    // Anything still waiting gets another chance (transports may have come back without telling us).
    void this.flush();
    if (dropped) this.changed();
  }

  private peerRelaying(room: string): LocalPeer | null {
    for (const peer of this.peers.values()) if (peer.relays.has(room)) return peer;
    return null;
  }

  private refreshVia(room: string) {
    const state = this.rooms.get(room);
    if (!state) return;
    state.viaTab = state.relay === "open" ? null : (this.peerRelaying(room)?.tab ?? null);
  }

  private forwardToTabs(room: string, frame: ServerFrame) {
    if (!this.channel || this.peers.size === 0) return;
    if (frame.type === "resume-batch" || frame.type === "resume-done" || frame.type === "hello" || frame.type === "pong") return;
    if (frame.type === "envelope") {
      const forwarded = relayToTabs(this.tabId, room, frame.envelope, this.hop, this.peers.values());
      if (!forwarded) return;
      this.stats.forwardedToTabs++;
      this.post({ kind: "server", via: this.tabId, room, frame: { ...frame, envelope: forwarded } });
      return;
    }
    this.post({ kind: "server", via: this.tabId, room, frame });
  }

  private onLocal(raw: unknown) {
    const parsed = LocalMeshMessageSchema.safeParse(raw);
    if (!parsed.success) return;
    const msg = parsed.data as LocalMeshMessage;
    switch (msg.kind) {
      case "hello": {
        const isNew = !this.peers.has(msg.tab);
        const before = this.peers.get(msg.tab)?.relays;
        this.peers.set(msg.tab, { tab: msg.tab, hop: msg.hop, relays: new Set(msg.relays), online: msg.online, lastSeen: Date.now() });
        if (isNew) this.announce();
        for (const room of this.rooms.keys()) this.refreshVia(room);
        // A tab that can reach a room we cannot: hand it what we have been holding.
        const gained = msg.relays.filter((r) => !before?.has(r) && this.relays.get(r)?.status !== "open");
        for (const room of gained) void this.flush(room).then(() => this.queueOwedReceipts(room));
        if (isNew || gained.length) this.changed();
        break;
      }
      case "bye":
        this.peers.delete(msg.tab);
        for (const room of this.rooms.keys()) this.refreshVia(room);
        this.changed();
        break;
      case "relay": {
        if (msg.to !== this.tabId) return;
        const relay = this.relays.get(msg.room);
        if (relay?.status !== "open") return;
        if (msg.frame.type === "send") {
          const forwarded = forwardEnvelope(msg.frame.envelope, this.hop);
          if (!forwarded) return;
          this.recordRoute(forwarded.meshRoute);
          this.stats.relayedForTabs++;
          relay.send({ type: "send", envelope: forwarded });
        } else relay.send(msg.frame);
        this.changed();
        break;
      }
      case "server": {
        if (this.relays.get(msg.room)?.status === "open") return;
        if (this.rooms.has(msg.room)) this.onServerFrame(msg.room, msg.frame, msg.via);
        break;
      }
      case "changed":
        void this.reload(msg.room, msg.ids);
        break;
    }
  }

  /** Another tab changed stored messages: read them again (gone ones were deleted there). */
  private async reload(room: string, ids: string[]) {
    if (!this.messages.has(room)) return;
    for (const id of ids) {
      const m = await getMessage(id);
      if (m) {
        this.seen.add(id);
        this.remember(m);
      } else if (this.messages.get(room)?.delete(id)) this.changed();
    }
  }

  /** Deletes messages from this device only (the room and other people keep theirs). */
  async forget(room: string, ids: string[]) {
    // Remembered, so the room's resume does not bring them back.
    const gone = [...((await kvGet<string[]>(`forgotten:${room}`)) ?? []), ...ids].slice(-2000);
    await kvSet(`forgotten:${room}`, gone);
    for (const id of ids) {
      this.forgotten.add(id);
      await deleteMessage(id);
      this.messages.get(room)?.delete(id);
    }
    this.post({ kind: "changed", room, ids });
    this.changed();
  }

  // ------------------------------------------------------------------ storage helpers

  private remember(m: StoredMessage) {
    let map = this.messages.get(m.room);
    if (!map) {
      map = new Map();
      this.messages.set(m.room, map);
    }
    map.set(m.id, m);
    this.changed();
  }

  private async update(m: StoredMessage, tell = true) {
    await putMessage(m);
    this.remember(m);
    if (tell) this.post({ kind: "changed", room: m.room, ids: [m.id] });
  }

  private async setError(room: string, id: string, error: string) {
    const m = this.messages.get(room)?.get(id) ?? (await getMessage(id));
    if (m && m.error !== error) await this.update({ ...m, error });
  }

  /** Status of my message as the outbox sees it (for tests and the status line). */
  status(room: string, id: string): MessageStatus | undefined {
    return this.messages.get(room)?.get(id)?.status;
  }

  destroy() {
    clearInterval(this.heartbeat);
    for (const r of this.relays.values()) r.close();
    this.post({ kind: "bye", tab: this.tabId });
    this.channel?.close();
    window.removeEventListener("online", this.onConnectivity);
    window.removeEventListener("offline", this.onConnectivity);
  }
}

let node: MeshNode | null = null;

/** The tab's mesh node for the signed-in user (a new one if the user changed). */
export function meshNode(me: Me): MeshNode {
  if (node && node.me.id === me.id && node.me.localMesh === me.localMesh) return node;
  node?.destroy();
  node = new MeshNode(me);
  setCurrentMeshNode(node);
  return node;
}
