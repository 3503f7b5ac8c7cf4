// The client mesh node: one per tab, a coordinator of its parts. History and the outbox (history.ts,
// outbox.ts) live in IndexedDB; the room is reached by its relay WebSocket (transports.ts) or, when that is
// down, through another tab of this browser over the local mesh (local-transport.ts), which relays the frames
// and passes the room's answers back; private rooms are sealed and opened by sealing.ts; receipts.ts keeps
// the receipts. Envelopes are deduplicated by id, carry a TTL and collect one hop per node in meshRoute.
import { missedCallText } from "../../../core/calls";
import type { DisappearTimer } from "../../../core/disappearing-timers";
import { timerLine } from "./expiry";
import { PrivateControls, sealedControls, signedControls, signedReceipts } from "./private-controls";
import { DEFAULT_TTL, type Envelope } from "../../../core/envelope";
import { dmRoomId, isPrivateRoomId as isPrivateRoom, roomKind } from "../../../core/room-ids";
import type { ClientFrame, PresenceMember, ServerFrame } from "../../../core/frames";
import type { MeshPerson } from "../../../core/peer-mesh";
import { applyPresence, nextPresencePage, type PresenceView } from "../../../core/presence";
import { apiRequest, HttpError } from "../../../core/http";
import { newId } from "../../../core/ids";
import { type MessageStatus, type OutboxItem, type StoredMessage, selectDbUser } from "./db";
import { History } from "./history";
import * as keys from "./keys";
import { LocalMesh, type LocalPeer, openLocalChannel } from "./local-transport";
import { advanceCursor, forwardEnvelope, readCursor, relayToTabs, sosKey, storedCursor, upgradeStatus } from "./logic";
import { Outbox } from "./outbox";
import type { PhoneMesh } from "./phone-mesh";
import { Receipts } from "./receipts";
import { KeyedError, Sealing } from "./sealing";
import { RelayTransport, type TransportStatus } from "./transports";
import { refusalOf as refusalIn } from "../i18n/refusal";

export type { LocalPeer } from "./local-transport";

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
  /** The shard whose seqs `cursor` counts (0 but in a busy area's shards; web/app/mesh/logic.ts RoomCursor). */
  cursorShard: number;
  /** The shard this tab's relay socket is on, from its hello. */
  shard: number;
  /** Who is here and how many (core/presence.ts); null until the room's first presence page. */
  presence: PresenceView | null;
  typing: { userId: string; nickname: string }[];
  encrypted: boolean;
  loaded: boolean;
  /**
   * False until the room's first connection attempt has ended (open or closed): until then the screen says
   * "Connecting…", not "Offline", which would be untrue on a first arrival while online (issue 32).
   */
  settled: boolean;
}

export interface SendOptions {
  type?: "text" | "emergency";
  priority?: "normal" | "high";
  meta?: Record<string, unknown>;
}

const PEER_HEARTBEAT_MS = 3000;
const KEY_SHARE_EVERY_MS = 10_000;
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
  private readonly history: History;
  private readonly outbox = new Outbox();
  private readonly sealing: Sealing;
  /** Receipts, typing and timer changes of direct chats, believed only sealed or signed (private-controls.ts). */
  private readonly controls: PrivateControls;
  private readonly receipts: Receipts;
  private readonly local: LocalMesh;
  private readonly listeners = new Set<() => void>();
  private readonly chains = new Map<string, Promise<void>>();
  /**
   * Rooms catching up: from the first resume until a resume-done without `more`. Meanwhile only resume-done
   * moves the cursor (an emergency sent first, or a live envelope, must not skip what is still to come).
   */
  private readonly resuming = new Set<string>();
  private readonly lastKeyShare = new Map<string, number>();
  private readonly presenceSeen = new Map<string, Set<string>>();
  private readonly typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private heartbeat: ReturnType<typeof setInterval>;
  private readonly callListeners = new Set<(room: string, frame: CallServerFrame) => void>();
  /** Live figures for /mesh-network. */
  readonly stats = { relayedForTabs: 0, relayedByTabs: 0, forwardedToTabs: 0, received: 0, sent: 0 };
  /** Who handed envelopes to whom (from meshRoute): "a→b" → count. */
  readonly routes = new Map<string, number>();
  version = 0;
  /** Phones paired by code (web/app/mesh/phone-mesh.ts), made on first use; null until then. */
  phones: PhoneMesh | null = null;
  private phonesMade: Promise<PhoneMesh> | null = null;
  /** SOSes whose relay alert this tab has had, by sender and request id (docs/decisions/066-phones-paired-by-code.md). */
  private readonly relaySos = new Set<string>();

  constructor(readonly me: Me) {
    selectDbUser(me.id);
    this.hop = `${me.nickname.slice(0, 40)} · ${this.tabId}`;
    this.history = new History({
      changed: () => this.changed(),
      tell: (room, ids) => this.local.post({ kind: "changed", room, ids }),
    });
    this.sealing = new Sealing({
      me,
      hop: this.hop,
      history: this.history,
      enqueue: async (item) => {
        await this.outbox.put(item);
        await this.flushOne(item);
      },
    });
    this.controls = new PrivateControls({ me, hop: this.hop, kv: this.history, session: keys.session });
    this.receipts = new Receipts(this.history, (room, frame) => this.sendReceipt(room, frame));
    this.local = new LocalMesh(
      this.tabId,
      this.hop,
      openLocalChannel(me.localMesh !== false),
      {
        peerHello: (isNew, newRelays) => this.onPeerHello(isNew, newRelays),
        peerGone: () => {
          for (const room of this.rooms.keys()) this.refreshVia(room);
          this.changed();
        },
        relayRequest: (room, frame) => this.relayForTab(room, frame),
        serverFrame: (room, frame, via) => {
          if (this.relays.get(room)?.status === "open") return;
          if (this.rooms.has(room)) this.onServerFrame(room, frame, via);
        },
        changed: (room, ids) => void this.history.reload(room, ids),
      },
      () => [...this.relays.entries()].filter(([, r]) => r.status === "open").map(([room]) => room),
    );
    this.heartbeat = setInterval(() => this.tick(), PEER_HEARTBEAT_MS);
    window.addEventListener("online", this.onConnectivity);
    window.addEventListener("offline", this.onConnectivity);
    window.addEventListener("pagehide", () => this.local.post({ kind: "bye", tab: this.tabId }));
    this.local.announce();
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

  /** A direct chat got a message while it was not open here (the room's 'chat-waiting'); answers the unsubscribe. */
  onChatWaiting(listener: (room: string, fromName: string) => void): () => void {
    this.chatListeners.add(listener);
    return () => this.chatListeners.delete(listener);
  }
  private readonly chatListeners = new Set<(room: string, fromName: string) => void>();

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
    return this.history.list(room);
  }
  /** Messages from others in a room not yet read on this device. */
  unread(room: string): number {
    return this.history.unread(room);
  }
  /** Unread messages in every room this tab holds (the Chat tab's badge). */
  unreadTotal(): number {
    return this.history.unreadTotal();
  }
  /** The room on screen, named by the chat so the status strip can speak of it. */
  focused: string | null = null;
  focus(room: string | null) {
    if (this.focused === room) return;
    this.focused = room;
    this.changed();
  }
  /** What is true right now, for the status strip: the relay, who is here, what waits in the outbox. */
  summary(): { relay: "open" | "via-tab" | "connecting" | "closed" | "none"; people: number | null; pending: number } {
    const state = this.focused ? this.rooms.get(this.focused) : undefined;
    const states = state ? [state] : [...this.rooms.values()];
    const relay = states.some((r) => r.relay === "open")
      ? "open"
      : states.some((r) => r.viaTab)
        ? "via-tab"
        : states.length === 0
          ? "none"
          : states.some((r) => !r.settled)
            ? "connecting"
            : "closed";
    return { relay, people: state?.presence?.nodes ?? null, pending: this.history.pending() };
  }
  /** Tabs of this browser heard from recently (the local mesh). */
  get peers(): ReadonlyMap<string, LocalPeer> {
    return this.local.peers;
  }
  localPeers(): LocalPeer[] {
    return [...this.local.peers.values()];
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
      cursorShard: 0,
      shard: 0,
      presence: null,
      typing: [],
      encrypted: isPrivateRoom(room),
      loaded: false,
      settled: false,
    };
    this.rooms.set(room, state);
    const [, stored] = await Promise.all([this.history.load(room), this.history.kvGet<unknown>(`cursor:${room}`)]);
    const cursor = readCursor(stored);
    state.cursor = cursor.seq;
    state.cursorShard = cursor.shard;
    state.loaded = true;
    this.changed();
    const relay = new RelayTransport(room, {
      onFrame: (frame) => this.onServerFrame(room, frame, null),
      onStatus: (status) => this.onRelayStatus(room, status),
      onBadFrame: (message) => console.warn("mesh: unreadable frame", message),
    });
    this.relays.set(room, relay);
    this.local.announce();
  }

  private onRelayStatus(room: string, status: TransportStatus) {
    const state = this.rooms.get(room);
    if (!state) return;
    state.relay = status;
    if (status !== "connecting") state.settled = true;
    if (status === "open") {
      this.resume(room);
      void this.phones?.handToRelay();
    } else {
      state.resumed = false;
      this.resuming.delete(room);
    }
    this.local.announce();
    this.refreshVia(room);
    this.changed();
  }

  private onConnectivity = () => {
    this.local.announce();
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
    this.history.seen.add(envelope.id);
    const item: OutboxItem = { id: envelope.id, room, envelope, createdAt: envelope.timestamp };
    // The outbox first, committed: once the screen shows "Sending" the message survives the tab closing.
    await this.outbox.put(item);
    await this.history.add(message);
    this.stats.sent++;
    // Phones paired by code get it at once, with or without a relay, and before the relay is tried: on a dead
    // network a request can hang for long (docs/decisions/066-phones-paired-by-code.md).
    if (this.phones) void this.phones.sendOwn(envelope).catch((e) => console.warn("mesh: phones", e));
    await this.flushOne(item);
    return message;
  }

  /**
   * A private message to a phone of the mesh: written in the direct chat with that person (stored, and in the
   * outbox like any message typed there with no network, so it reaches the room sealed by the room's own protocol
   * once this phone is online) and sent at once over the mesh, sealed for that phone's device, with the same id
   * (docs/decisions/066-phones-paired-by-code.md).
   */
  async sendPrivateOnMesh(to: MeshPerson, text: string): Promise<void> {
    const phones = await this.phoneMesh();
    const message = await this.send(dmRoomId(this.me.id, to.userId), text);
    await phones.sendPrivate(to, text, { id: message.id, timestamp: message.timestamp });
  }

  /** A private message heard over the mesh, already opened and its signature checked: kept in the direct chat with its sender. */
  private async receivePrivate(envelope: Envelope, text: string): Promise<void> {
    const room = envelope.room;
    if (this.history.isForgotten(envelope.id) || (await this.history.stored(envelope.id))) return;
    this.history.seen.add(envelope.id);
    await this.history.update({
      id: envelope.id,
      room,
      senderId: envelope.senderId,
      senderName: envelope.senderName,
      timestamp: envelope.timestamp,
      type: "text",
      text,
      mine: false,
      meshRoute: envelope.meshRoute,
      // Opened with the sender's device key and its signature checked on this device.
      isEncrypted: true,
      priority: envelope.priority,
    });
    this.stats.received++;
  }

  /** The phone mesh (pairing by code, data channels), loaded and made on first use. */
  phoneMesh(): Promise<PhoneMesh> {
    this.phonesMade ??= import("./phone-mesh").then(({ PhoneMesh }) =>
      PhoneMesh.create({
        me: this.me,
        hop: this.hop,
        online: () => [...this.relays.values()].some((r) => r.status === "open"),
        receive: (envelope) => {
          if (this.rooms.has(envelope.room)) this.inOrder(envelope.room, () => this.receive(envelope.room, envelope, 0));
        },
        receivePrivate: (envelope, text) => void this.receivePrivate(envelope, text),
        toRelay: (envelopes) => handToRelay(envelopes),
        changed: () => this.changed(),
      }).then((phones) => {
        this.phones = phones;
        this.changed();
        return phones;
      }),
    );
    return this.phonesMade;
  }

  /** A message only this device sees (the assistant's questions and answers). */
  addLocal(room: string, text: string, opts: { isAI?: boolean; mine?: boolean; meta?: Record<string, unknown> } = {}) {
    return this.history.addLocal(room, this.me, text, opts);
  }

  /** Sends every outbox item of a room (or of all rooms) that a transport can carry now. */
  async flush(room?: string): Promise<void> {
    for (const item of await this.outbox.items(room)) await this.flushOne(item);
  }

  private async flushOne(item: OutboxItem): Promise<void> {
    if (this.outbox.tooSoon(item.id)) return;
    if (item.envelope.type === "emergency") return this.flushSos(item);
    const state = this.rooms.get(item.room);
    const relay = this.relays.get(item.room);
    const direct = relay?.status === "open" && state?.resumed;
    const viaTab = this.local.transport(item.room);
    if (!direct && viaTab.status !== "open") return;
    let wire: Envelope;
    try {
      wire = await this.outbox.wire(item, (envelope) => this.sealing.seal(envelope));
    } catch (error) {
      const said = error instanceof KeyedError ? { key: error.key } : error instanceof Error ? error.message : String(error);
      await this.history.setError(item.room, item.id, said);
      return;
    }
    const frame: ClientFrame = { type: "send", envelope: wire };
    if (direct) {
      if (relay?.send(frame)) this.outbox.tried(item.id);
    } else if (viaTab.send(frame)) {
      this.stats.relayedByTabs++;
      this.outbox.tried(item.id);
    }
  }

  /**
   * An SOS written without a connection leaves through the server's SOS pipeline once there is one: rooms
   * take emergency envelopes only from it (docs/decisions/013-who-says-what-in-a-room.md). The envelope id is
   * the request id, so a retry never raises a second alert.
   */
  private async flushSos(item: OutboxItem): Promise<void> {
    this.outbox.tried(item.id);
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
      await this.outbox.remove(item.id);
      await this.history.setError(item.room, item.id, refusalIn(error.json) ?? error.message);
      return;
    }
    await this.outbox.remove(item.id);
    // The room brings the alert back as the server's envelope; this local draft gives way to it.
    await this.forget(item.room, [item.id]);
  }

  /**
   * A receipt leaves as a control frame, or in a direct chat as a sealed envelope through the outbox (kept by the
   * room for every device of the sender; docs/protocol.md §7b): true once it is queued there.
   */
  private async sendReceipt(room: string, frame: ClientFrame): Promise<boolean> {
    // A group's receipt leaves as a frame signed per envelope by this device (the room relays it to the sender only).
    if (frame.type === "receipt" && signedReceipts(room)) {
      const proof = await this.controls.receiptProof(room, frame.status, frame.ids).catch((e) => console.warn("mesh: receipt", e));
      return proof ? this.sendControl(room, { ...frame, proof }) : false;
    }
    if (frame.type !== "receipt" || !sealedControls(room)) return this.sendControl(room, frame);
    const envelope = this.controls.receiptEnvelope(room, frame.status, frame.ids);
    const item: OutboxItem = { id: envelope.id, room, envelope, createdAt: envelope.timestamp };
    this.history.seen.add(envelope.id);
    void this.outbox
      .put(item)
      .then(() => this.flushOne(item))
      .catch((e) => console.warn("mesh: receipt", e));
    return true;
  }

  /** Sends a control frame by the room socket, or through a tab that has one; false when neither is up. */
  private sendControl(room: string, frame: ClientFrame): boolean {
    const relay = this.relays.get(room);
    if (relay?.status === "open" && this.rooms.get(room)?.resumed) return relay.send(frame);
    return this.local.transport(room).send(frame);
  }

  // ------------------------------------------------------------------ receiving

  /** Asks the room for what this device missed after its cursor (again, while answers say there is more). */
  private resume(room: string) {
    const state = this.rooms.get(room);
    const frame = state && { type: "resume" as const, cursor: state.cursor, ...(state.cursorShard ? { shard: state.cursorShard } : {}) };
    if (!state || !frame || !this.relays.get(room)?.send(frame)) return;
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
        if (state && viaTab === null) state.shard = frame.shard ?? 0;
        break;
      case "ack":
        this.inOrder(room, () => this.onAck(room, frame.id, frame.seq, frame.expiresAt));
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
            this.setCursor(room, frame.cursor, frame.shard ?? 0, true);
          }
          // One answer carries a bounded number of bytes: the rest comes by resuming from the new cursor.
          if (viaTab === null && frame.more) this.resume(room);
          // A direct chat's receipts come sealed, as envelopes; the room's plain record of them is not believed.
          // A group's count only where the reader's device signed them.
          if (signedReceipts(room))
            for (const r of await this.controls.receiptsBelieved(room, frame.receipts))
              await this.receipts.received(room, [r.id], r.status);
          else if (!sealedControls(room)) for (const r of frame.receipts) await this.receipts.received(room, [r.id], r.status);
          await this.flush(room);
          this.receipts.queueOwed(room);
        });
        break;
      case "receipt":
        if (signedReceipts(room)) {
          const { proof, by, status } = frame;
          const each = frame.ids.map((id, i) => ({
            id,
            by,
            status,
            proof: proof?.sigs[i] ? { device: proof.device, at: proof.at, sig: proof.sigs[i] } : undefined,
          }));
          this.inOrder(room, async () => {
            const believed = await this.controls.receiptsBelieved(room, each);
            if (believed.length)
              await this.receipts.received(
                room,
                believed.map((r) => r.id),
                status,
              );
          });
        } else if (!sealedControls(room)) this.inOrder(room, () => this.receipts.received(room, frame.ids, frame.status));
        break;
      case "presence":
      case "presence-delta": {
        if (!state) break;
        state.presence = applyPresence(state.presence, frame);
        // The rest of the list, a page at a time, up to what a client keeps (asked by this tab's own socket).
        const after = nextPresencePage(frame, state.presence);
        if (after && viaTab === null) this.relays.get(room)?.send({ type: "ping", presence: true, after });
        const arrived = frame.type === "presence" ? frame.members : frame.joined;
        // Someone (or a new device) arrived in a group: hand them my sender key, so my messages open for them.
        // A person not seen here before (just accepted an invitation) gets it at once; others at most every 10 s.
        if (
          roomKind(room) === "group" &&
          arrived.length > 0 &&
          (this.newInPresence(room, arrived) || Date.now() - (this.lastKeyShare.get(room) ?? 0) > KEY_SHARE_EVERY_MS)
        ) {
          this.lastKeyShare.set(room, Date.now());
          this.inOrder(room, () => this.sealing.shareSenderKey(room).catch((e) => console.warn("mesh: sender key", e)));
        }
        break;
      }
      case "typing":
        if (!state || frame.userId === this.me.id) break;
        if (!signedControls(room)) this.onTyping(state, frame.userId, frame.nickname, frame.active);
        else
          void this.controls
            .typingBelieved(room, frame)
            .then((believed) => {
              if (!believed) return;
              this.onTyping(state, frame.userId, frame.nickname, frame.active);
              this.changed();
            })
            .catch(() => {});
        break;
      case "error":
        if (
          frame.id &&
          (frame.code === "forbidden" || frame.code === "plaintext_refused" || frame.code === "too_large" || frame.code === "malformed")
        ) {
          void this.history.setError(room, frame.id, frame.message);
          void this.outbox.refused(frame.id);
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
      case "chat-waiting":
        // A direct chat this tab has no socket in got a message (a first one from someone new): open it, so the
        // message arrives and counts as unread, and tell the screens (a toast, the room list).
        if (viaTab === null) {
          void this.open(frame.room);
          for (const l of this.chatListeners) l(frame.room, frame.fromName);
        }
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

  /** `shard`: whose seqs `seq` counts (a live envelope's: the relay socket's); `restart`: a resume-done's cursor. */
  private setCursor(room: string, seq: number, shard?: number, restart = false) {
    const state = this.rooms.get(room);
    if (!state) return;
    const next = advanceCursor({ seq: state.cursor, shard: state.cursorShard }, seq, shard ?? state.shard, restart);
    if (!next) return;
    state.cursor = next.seq;
    state.cursorShard = next.shard;
    void this.history.kvSet(`cursor:${room}`, storedCursor(next));
  }

  private async onAck(room: string, id: string, seq: number, expiresAt?: number) {
    await this.outbox.acknowledged(id);
    const m = await this.history.find(room, id);
    if (m?.type === "key" || !m) return;
    const expiry = expiresAt ? { expiresAt: await this.controls.expiryOf(room, m.timestamp, expiresAt, m.meta) } : {};
    await this.history.update({ ...m, seq, error: undefined, status: upgradeStatus(m.status, "sent"), ...expiry });
  }

  private async onEnvelope(room: string, envelope: Envelope, seq: number) {
    await this.receive(room, envelope, seq);
    // After the envelope is stored: a reload never resumes past something it did not keep.
    if (!this.resuming.has(room)) this.setCursor(room, seq);
  }

  private async receive(room: string, envelope: Envelope, seq: number) {
    if (this.history.isForgotten(envelope.id)) return;
    if (envelope.room !== room || envelope.type === "presence") return;
    if (envelope.type === "receipt") {
      // Only a direct chat's sealed receipts come as envelopes; the other person's device sealed them.
      if (sealedControls(room) && this.history.seen.add(envelope.id)) {
        const receipt = this.controls.receiptOf(envelope, await this.sealing.open(envelope));
        if (receipt) await this.receipts.received(room, receipt.ids, receipt.status);
      }
      return;
    }
    if (await this.oneSos(room, envelope)) return;
    this.recordRoute(envelope.meshRoute);
    if (!this.history.seen.add(envelope.id)) {
      // Already here: my own message coming back means the room has it.
      const known = this.history.get(room, envelope.id);
      if (known?.mine && known.status === "sending") await this.onAck(room, envelope.id, seq);
      return;
    }
    const stored = await this.history.stored(envelope.id);
    if (stored) {
      this.history.remember(stored);
      if (stored.mine && stored.status === "sending") await this.onAck(room, envelope.id, seq);
      return;
    }
    if (envelope.type === "key") {
      await this.sealing.acceptSenderKey(envelope);
      return;
    }
    if (!SHOWN_TYPES.has(envelope.type)) return;
    const mine = envelope.senderId === this.me.id;
    // The room's missed-call entry has no content to open: its line comes from who called whom.
    const callLine = missedCallText(envelope, this.me.id);
    // A private room's timer changes come sealed from a member's device: the server's plain line is not believed there.
    const serverLine = signedControls(room) ? null : timerLine(envelope);
    const line: { text: string; meta?: Record<string, unknown> } | null = callLine !== null ? { text: callLine } : serverLine;
    const result = line ?? (await this.sealing.open(envelope));
    if (result && "refused" in result) {
      // Forged, rewritten, replayed or plain text in a private room: never shown, never acknowledged.
      console.warn("mesh: refused a private envelope", result.refused);
      return;
    }
    const opened = result;
    if (opened && signedControls(room) && (await this.controls.timerOpened(room, envelope, opened.meta)) === false) {
      console.warn("mesh: refused a timer change announced in someone else's name");
      return;
    }
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
      isEncrypted: isPrivateRoom(room) && opened !== null && line === null,
      priority: envelope.priority,
      isAI: envelope.type === "ai" || undefined,
      meta: opened?.meta,
      expiresAt: await this.controls.expiryOf(room, envelope.timestamp, envelope.expiresAt, opened?.meta),
      // Group messages may wait for their sender key; a direct message this device cannot open never will.
      pending: opened === null && roomKind(envelope.room) === "group" ? envelope : undefined,
    };
    this.stats.received++;
    await this.history.update(message);
    if (!mine && envelope.senderId !== "system") this.receipts.queue(room, envelope.id, "delivered");
  }

  /**
   * An SOS heard from the phone mesh and the relay's alert for it are one SOS on screen: the relay's takes the
   * place of the mesh copy, and a mesh copy heard after the relay's is not shown (docs/decisions/066-phones-paired-by-code.md).
   * True when `envelope` is such a late copy.
   */
  private async oneSos(room: string, envelope: Envelope): Promise<boolean> {
    const sos = sosKey(envelope);
    if (!sos) return false;
    if (!sos.fromRelay) return this.relaySos.has(sos.key);
    this.relaySos.add(sos.key);
    const asked = envelope.meta?.clientRequestId as string;
    const earlier = asked !== envelope.id ? await this.history.find(room, asked) : undefined;
    // My own draft gives way to the relay's alert once the outbox is done with it (the SOS is sent from there).
    if (earlier && !earlier.mine && earlier.senderId === envelope.senderId && earlier.type === "emergency")
      await this.forget(room, [asked]);
    return false;
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

  /** Asks the room for a fresh presence list (a ping with presence: its first page; the rest follows). */
  refreshPresence(room: string | null) {
    if (room) this.sendControl(room, { type: "ping", at: Date.now(), presence: true });
  }

  /** Tells the room I am typing (relayed live, never stored); in a private room signed by this device. */
  typing(room: string, active: boolean) {
    if (!signedControls(room)) {
      this.sendControl(room, { type: "typing", active });
      return;
    }
    void this.controls
      .typingProof(room, active)
      .then((proof) => this.sendControl(room, { type: "typing", active, proof }))
      .catch((e) => console.warn("mesh: typing", e));
  }

  /**
   * "Let in" pressed by a group's owner or admin (docs/decisions/081-no-silent-join.md): signs the person into the
   * group's epoch, then hands them this device's sender key (after the chat says they joined).
   */
  async letIn(room: string, userId: string): Promise<void> {
    await this.sealing.letIn(room, userId);
    this.inOrder(room, () => this.sealing.shareSenderKey(room));
  }

  /**
   * Announces a private room's new timer to its members, sealed from this device (the room's own line is not
   * believed there): the line the members see, and the timer their devices hold the room's expiries to.
   */
  async announceTimer(room: string, timer: DisappearTimer): Promise<void> {
    if (!signedControls(room)) return;
    const message = await this.send(room, "", {
      meta: { event: "disappearing", by: this.me.id, byName: this.me.nickname.slice(0, 60), timer },
    });
    await this.controls.recordTimer(room, message.timestamp, timer);
  }
  private recordRoute(route: string[]) {
    for (let i = 1; i < route.length; i++) {
      const edge = `${route[i - 1]}→${route[i]}`;
      this.routes.set(edge, (this.routes.get(edge) ?? 0) + 1);
    }
  }

  /** The screen shows this room: everything others sent in it counts as read. */
  markRead(room: string) {
    this.receipts.markRead(room);
  }

  // ------------------------------------------------------------------ local mesh (other tabs)

  private tick() {
    this.local.announce();
    const dropped = this.local.expire();
    if (dropped) for (const room of this.rooms.keys()) this.refreshVia(room);
    // Anything still waiting gets another chance (transports may have come back without telling us).
    void this.flush();
    if (dropped) this.changed();
  }

  private refreshVia(room: string) {
    const state = this.rooms.get(room);
    if (!state) return;
    state.viaTab = state.relay === "open" ? null : this.local.transport(room).via;
  }

  private onPeerHello(isNew: boolean, newRelays: string[]) {
    for (const room of this.rooms.keys()) this.refreshVia(room);
    // A tab that can reach a room we cannot: hand it what we have been holding.
    const gained = newRelays.filter((r) => this.relays.get(r)?.status !== "open");
    for (const room of gained) void this.flush(room).then(() => this.receipts.queueOwed(room));
    if (isNew || gained.length) this.changed();
  }

  /** Another tab's frame for a room this tab has a socket to. */
  private relayForTab(room: string, frame: ClientFrame) {
    const relay = this.relays.get(room);
    if (relay?.status !== "open") return;
    if (frame.type === "send") {
      const forwarded = forwardEnvelope(frame.envelope, this.hop);
      if (!forwarded) return;
      this.recordRoute(forwarded.meshRoute);
      this.stats.relayedForTabs++;
      relay.send({ type: "send", envelope: forwarded });
    } else relay.send(frame);
    this.changed();
  }

  private forwardToTabs(room: string, frame: ServerFrame) {
    if (!this.local.active || this.local.peers.size === 0) return;
    if (frame.type === "resume-batch" || frame.type === "resume-done" || frame.type === "hello" || frame.type === "pong") return;
    if (frame.type === "envelope") {
      const forwarded = relayToTabs(this.tabId, room, frame.envelope, this.hop, this.local.peers.values());
      if (!forwarded) return;
      this.stats.forwardedToTabs++;
      this.local.forward(room, { ...frame, envelope: forwarded });
      return;
    }
    this.local.forward(room, frame);
  }

  /** Deletes messages from this device only (the room and other people keep theirs). */
  forget(room: string, ids: string[]) {
    return this.history.forget(room, ids);
  }

  /** Status of my message as the outbox sees it (for tests and the status line). */
  status(room: string, id: string): MessageStatus | undefined {
    return this.history.status(room, id);
  }

  destroy() {
    clearInterval(this.heartbeat);
    this.phones?.close();
    for (const r of this.relays.values()) r.close();
    this.local.close();
    window.removeEventListener("online", this.onConnectivity);
    window.removeEventListener("offline", this.onConnectivity);
  }
}

/**
 * Envelopes other phones sent on the mesh, handed to the relay by this phone once it has a connection; the room
 * keeps each id once, however many phones hand it in (docs/decisions/066-phones-paired-by-code.md).
 */
async function handToRelay(envelopes: Envelope[]): Promise<string[]> {
  const answer = await apiRequest<{ taken: string[] }>("POST", "/api/mesh/relay", { envelopes });
  return answer.taken;
}
