// The local mesh: the tabs of this browser talking over BroadcastChannel (messages checked by
// core/local-mesh.ts). Each tab announces itself and the rooms its relay socket has open; a tab without a
// socket to a room sends through the transport of that room here, which hands the frame to a tab that has one.
import type { ClientFrame, ServerFrame } from "../../../core/frames";
import { LOCAL_MESH_CHANNEL, type LocalMeshMessage, LocalMeshMessageSchema } from "../../../core/local-mesh";
import type { Transport, TransportStatus } from "./transports";

/** A tab not heard from for this long is gone. */
export const PEER_EXPIRY_MS = 10_000;

export interface LocalPeer {
  tab: string;
  hop: string;
  relays: Set<string>;
  online: boolean;
  lastSeen: number;
}

/** What the local mesh needs of a BroadcastChannel (a stand-in in unit tests). */
export interface LocalChannel {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

export interface LocalMeshEvents {
  /** A tab said hello: `isNew` the first time, `newRelays` the rooms it reaches now and did not before. */
  peerHello(isNew: boolean, newRelays: string[]): void;
  /** A tab left (said bye). */
  peerGone(): void;
  /** Another tab asks this one to send a frame to a room by this tab's socket. */
  relayRequest(room: string, frame: ClientFrame): void;
  /** A frame a room sent to another tab, passed on. */
  serverFrame(room: string, frame: ServerFrame, via: string): void;
  /** Another tab changed stored messages. */
  changed(room: string, ids: string[]): void;
}

/** Opens the browser's channel, or none when the 'Mesh networking' setting is off or there is no channel. */
export function openLocalChannel(enabled: boolean): LocalChannel | null {
  return enabled && typeof BroadcastChannel === "function" ? new BroadcastChannel(LOCAL_MESH_CHANNEL) : null;
}

export class LocalMesh {
  readonly peers = new Map<string, LocalPeer>();

  constructor(
    readonly tabId: string,
    private readonly hop: string,
    private readonly channel: LocalChannel | null,
    private readonly events: LocalMeshEvents,
    /** Rooms whose relay socket this tab has open (announced to the others). */
    private readonly openRelays: () => string[],
    private readonly now: () => number = Date.now,
  ) {
    if (channel) channel.onmessage = (e) => this.onMessage(e.data);
  }

  /** Whether this tab takes part in the local mesh at all. */
  get active(): boolean {
    return this.channel !== null;
  }

  post(message: LocalMeshMessage) {
    try {
      this.channel?.postMessage(message);
    } catch (e) {
      console.warn("mesh: local post failed", e);
    }
  }

  announce() {
    // Node (unit tests) has a navigator without onLine.
    const online = typeof navigator?.onLine === "boolean" ? navigator.onLine : true;
    this.post({ kind: "hello", tab: this.tabId, hop: this.hop, relays: this.openRelays(), online });
  }

  /** Forgets tabs not heard from lately; true when one went. */
  expire(): boolean {
    let dropped = false;
    for (const [tab, peer] of this.peers) {
      if (this.now() - peer.lastSeen > PEER_EXPIRY_MS) {
        this.peers.delete(tab);
        dropped = true;
      }
    }
    return dropped;
  }

  /** A tab with an open socket to the room, if any. */
  peerRelaying(room: string): LocalPeer | null {
    for (const peer of this.peers.values()) if (peer.relays.has(room)) return peer;
    return null;
  }

  /** The room as reached through another tab: open while some tab has a socket to it. */
  transport(room: string): Transport & { readonly via: string | null } {
    const mesh = this;
    return {
      name: "local-mesh",
      get via() {
        return mesh.peerRelaying(room)?.tab ?? null;
      },
      get status(): TransportStatus {
        return mesh.peerRelaying(room) ? "open" : "closed";
      },
      send(frame: ClientFrame): boolean {
        const via = mesh.peerRelaying(room);
        if (!via) return false;
        mesh.post({ kind: "relay", from: mesh.tabId, to: via.tab, room, frame });
        return true;
      },
      close() {},
    };
  }

  /** Passes a room's frame on to the other tabs. */
  forward(room: string, frame: ServerFrame) {
    this.post({ kind: "server", via: this.tabId, room, frame });
  }

  /** Says goodbye and closes the channel. */
  close() {
    this.post({ kind: "bye", tab: this.tabId });
    this.channel?.close();
  }

  private onMessage(raw: unknown) {
    const parsed = LocalMeshMessageSchema.safeParse(raw);
    if (!parsed.success) return;
    const msg = parsed.data as LocalMeshMessage;
    switch (msg.kind) {
      case "hello": {
        const isNew = !this.peers.has(msg.tab);
        const before = this.peers.get(msg.tab)?.relays;
        this.peers.set(msg.tab, { tab: msg.tab, hop: msg.hop, relays: new Set(msg.relays), online: msg.online, lastSeen: this.now() });
        if (isNew) this.announce();
        this.events.peerHello(
          isNew,
          msg.relays.filter((r) => !before?.has(r)),
        );
        break;
      }
      case "bye":
        this.peers.delete(msg.tab);
        this.events.peerGone();
        break;
      case "relay":
        if (msg.to === this.tabId) this.events.relayRequest(msg.room, msg.frame);
        break;
      case "server":
        this.events.serverFrame(msg.room, msg.frame, msg.via);
        break;
      case "changed":
        this.events.changed(msg.room, msg.ids);
        break;
    }
  }
}
