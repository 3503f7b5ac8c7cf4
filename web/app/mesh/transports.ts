// The transports of the mesh node behind one interface: the relay WebSocket to the room's Durable Object and
// the local mesh between tabs (BroadcastChannel). Web Bluetooth only scans (see bluetooth.ts): a browser
// cannot advertise or accept a Bluetooth connection, so it cannot carry chat to another phone.
import { CLOSE_NOT_MEMBER, CLOSE_REPLACED, type ClientFrame, encodeFrame, parseServerFrame, type ServerFrame } from "../../../core/frames";
import { backoffDelay, SERVER_CLOSE_SPREAD_MS } from "./logic";

export type TransportStatus = "connecting" | "open" | "closed";

export interface Transport {
  readonly name: string;
  readonly status: TransportStatus;
  /** False when the frame could not leave now (the caller keeps it in the outbox). */
  send(frame: ClientFrame): boolean;
  close(): void;
}

export interface RelayHandlers {
  onFrame(frame: ServerFrame): void;
  onStatus(status: TransportStatus): void;
  /** A frame the client could not read (logged, never fatal). */
  onBadFrame?(message: string): void;
}

const PING_MS = 25_000;
/** Backoff attempt to continue from after being replaced: the 30 s cap. */
const REPLACED_BACKOFF_ATTEMPT = 6;

/** One room's WebSocket at /ws/rooms/:id, reconnecting with capped exponential backoff and full jitter. */
export class RelayTransport implements Transport {
  readonly name = "relay";
  status: TransportStatus = "closed";
  private ws: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private readonly onOnline = () => this.reconnectNow();
  /** The browser says the network is gone: drop the socket now rather than wait for a dead one to time out. */
  private readonly onOffline = () => this.drop();

  constructor(
    readonly room: string,
    private readonly handlers: RelayHandlers,
    private readonly random: () => number = Math.random,
  ) {
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
    this.connect();
  }

  private setStatus(s: TransportStatus) {
    if (this.status === s) return;
    this.status = s;
    this.handlers.onStatus(s);
  }

  private connect() {
    if (this.stopped) return;
    this.setStatus("connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws: WebSocket;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws/rooms/${encodeURIComponent(this.room)}`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setStatus("open");
      this.pingTimer = setInterval(() => this.send({ type: "ping", at: Date.now() }), PING_MS);
    };
    ws.onmessage = (e) => {
      const parsed = parseServerFrame(typeof e.data === "string" ? e.data : "");
      if (parsed.ok) this.handlers.onFrame(parsed.frame);
      else this.handlers.onBadFrame?.(parsed.message);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // An open socket the room closed (most often a deploy, which restarts every room at once): every client
      // would come back at the same moment, so the first retry is spread over a few seconds.
      const spread = this.status === "open";
      // Replaced by a newer socket of the same person (more tabs than the room allows): wait long before
      // trying again, so tabs do not keep replacing each other; meanwhile the local mesh carries this tab.
      if (e.code === CLOSE_REPLACED) this.attempt = Math.max(this.attempt, REPLACED_BACKOFF_ATTEMPT);
      // No longer let in (left the group, blocked): trying again would only be refused. A reload starts over.
      if (e.code === CLOSE_NOT_MEMBER) this.stopped = true;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      this.setStatus("closed");
      this.scheduleRetry(spread && !this.stopped && this.attempt === 0 ? SERVER_CLOSE_SPREAD_MS : undefined);
    };
    // An error is always followed by close, which schedules the retry.
    ws.onerror = () => {};
  }

  /**
   * Gives the socket up at once: with the network gone its closing handshake may never finish, and until
   * then frames would be written into a dead connection instead of kept in the outbox.
   */
  private drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    try {
      ws.close(4000, "offline");
    } catch {}
    this.setStatus("closed");
    this.scheduleRetry();
  }

  private scheduleRetry(ceiling?: number) {
    if (this.stopped || this.retryTimer) return;
    const delay = backoffDelay(this.attempt++, this.random, ceiling);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  /** The browser says the network is back: try at once instead of waiting out the backoff. */
  reconnectNow() {
    if (this.stopped || this.status !== "closed") return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.attempt = 0;
    this.connect();
  }

  send(frame: ClientFrame): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(encodeFrame(frame));
    return true;
  }

  close() {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, "leaving");
    this.setStatus("closed");
  }
}
