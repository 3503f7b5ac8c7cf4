// Decisions of the client mesh node, as pure functions (tested in logic.test.ts without a browser).
import type { Envelope } from "../../../core/envelope";
import type { MessageStatus } from "./db";

/** The shortest wait before a reconnect: a healthy network is back this fast, a failing one is not hammered. */
export const BACKOFF_FLOOR_MS = 100;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
/** The room closed an open socket (a deploy restarts every room): its sockets come back spread over this. */
export const SERVER_CLOSE_SPREAD_MS = 5_000;

/**
 * Reconnect delay with "full jitter": anywhere between the floor and min(cap, 0.5 s · 2^attempt), so sockets that
 * failed together (a deploy, a network blip) do not come back together
 * (docs/decisions/052-presence-deltas-and-jittered-reconnects.md). `ceiling` overrides the doubling: the first
 * retry after the room closed a socket spreads over SERVER_CLOSE_SPREAD_MS.
 */
export function backoffDelay(
  attempt: number,
  random = Math.random,
  ceiling = Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_CAP_MS),
): number {
  return Math.round(BACKOFF_FLOOR_MS + random() * (ceiling - BACKOFF_FLOOR_MS));
}

const ORDER: Record<MessageStatus, number> = { sending: 0, sent: 1, delivered: 2, read: 3 };

/** Statuses only move forward: a late 'delivered' never undoes 'read'. */
export function upgradeStatus(current: MessageStatus | undefined, next: MessageStatus): MessageStatus {
  if (!current) return next;
  return ORDER[next] > ORDER[current] ? next : current;
}

/**
 * The most hops the protocol lets an envelope take: MAX_TTL of core/envelope.ts, repeated because bench/mesh runs
 * this file in plain Node, which cannot load that module (logic.test.ts checks that both agree).
 */
export const MAX_TTL = 16;

/**
 * The envelope as a relaying node forwards it: its hop appended to meshRoute and one hop less to live.
 * Null when the envelope has no hops left, already passed this node (a loop), or the route is full.
 */
export function forwardEnvelope(envelope: Envelope, hop: string): Envelope | null {
  if (envelope.ttl <= 0) return null;
  if (envelope.meshRoute.includes(hop)) return null;
  if (envelope.meshRoute.length >= MAX_TTL) return null;
  return { ...envelope, ttl: envelope.ttl - 1, meshRoute: [...envelope.meshRoute, hop] };
}

/**
 * Managed flooding, neighbour-aware (measured in bench/mesh; docs/decisions/035-managed-flooding.md). A node
 * that hears an envelope for the first time does not relay at once: it waits, listening. Each copy it hears
 * tells it that the sender and the sender's neighbours (announced in its hello) already have the envelope; when
 * the wait is over a node left with one or two uncovered neighbours listens one round more (listenAgain), and
 * then it relays only if one of its own neighbours is still not covered. Relaying the first copy at once (plain
 * flooding) sends as many relays as there are phones; this sends a quarter to a half as many.
 */
export const RELAY_WAIT_MS = 300;

type Hops = Pick<Envelope, "ttl" | "meshRoute">;

/** What a waiting node has heard of one envelope. */
export interface RelayHearing<Node, E extends Hops = Envelope> {
  /** The copy with the most hops left (one that came a shorter way can go further). */
  envelope: E;
  /** Nodes known to hold the envelope: this node, each sender heard and the neighbours it announced. */
  covered: Set<Node>;
  /** Whether the node already listened a second round (listenAgain grants one). */
  listenedAgain?: boolean;
}

/** A node hears an envelope for the first time, from `sender` whose neighbours are `senderNeighbours`. */
export function firstHearing<Node, E extends Hops>(
  me: Node,
  copy: E,
  sender: Node,
  senderNeighbours: Iterable<Node>,
): RelayHearing<Node, E> {
  return hearCopy({ envelope: copy, covered: new Set([me]) }, copy, sender, senderNeighbours);
}

/** A waiting node hears another copy. */
export function hearCopy<Node, E extends Hops>(
  hearing: RelayHearing<Node, E>,
  copy: E,
  sender: Node,
  senderNeighbours: Iterable<Node>,
): RelayHearing<Node, E> {
  if (copy.ttl > hearing.envelope.ttl) hearing.envelope = copy;
  hearing.covered.add(sender);
  for (const n of senderNeighbours) hearing.covered.add(n);
  return hearing;
}

/**
 * How long to wait before deciding: the larger the share of this node's neighbours still uncovered, the
 * sooner, so phones at the edge of the spread go first and it takes few hops (Meshtastic lets the farthest
 * node, by signal strength, go first; neighbour lists stand in for signal strength here).
 */
export function relayWait<Node>(hearing: RelayHearing<Node, Hops>, neighbours: readonly Node[], random = Math.random): number {
  const uncovered = neighbours.filter((n) => !hearing.covered.has(n)).length;
  const share = neighbours.length ? uncovered / neighbours.length : 0;
  return Math.round(RELAY_WAIT_MS * (0.8 * (1 - share) + 0.2 * random()));
}

/** At most this many neighbours still uncovered when the wait is over: listen one round more before deciding. */
export const FEW_UNCOVERED = 2;

/**
 * When the wait is over: how many more milliseconds to listen before deciding, or 0 to decide now (shouldRelay).
 * A node with one or two neighbours still uncovered is usually at the side of the spread, and another phone that
 * is still waiting usually covers them. One more round of listening, 0.5–1 RELAY_WAIT_MS long and granted once,
 * lets that copy arrive; a node whose neighbours nobody else reaches (a bridge, the next phone on a road) still
 * relays after it, only later. Nodes with more uncovered neighbours decide at once (bench/mesh: a quarter fewer
 * relays in a town, the same delivery).
 */
export function listenAgain<Node>(hearing: RelayHearing<Node, Hops>, neighbours: readonly Node[], random = Math.random): number {
  if (hearing.listenedAgain) return 0;
  const uncovered = neighbours.filter((n) => !hearing.covered.has(n)).length;
  if (uncovered === 0 || uncovered > FEW_UNCOVERED) return 0;
  hearing.listenedAgain = true;
  return Math.round(RELAY_WAIT_MS * (0.5 + 0.5 * random()));
}

/** Whether the node relays once it is done listening (then forwardEnvelope still applies ttl and loops). */
export function shouldRelay<Node>(hearing: RelayHearing<Node, Hops>, neighbours: Iterable<Node>): boolean {
  for (const n of neighbours) if (!hearing.covered.has(n)) return true;
  return false;
}

/**
 * The local mesh's relay decision (docs/decisions/035-managed-flooding.md): a tab that got an envelope from the
 * room's socket passes it to the other tabs only if one of them has no socket of its own to that room. The room
 * is the sender; the tabs it reaches directly are covered. Null: nobody needs it, or forwardEnvelope refuses.
 */
export function relayToTabs(
  me: string,
  room: string,
  envelope: Envelope,
  hop: string,
  peers: Iterable<{ tab: string; relays: ReadonlySet<string> }>,
): Envelope | null {
  const tabs: string[] = [];
  const direct: string[] = [];
  for (const peer of peers) {
    tabs.push(peer.tab);
    if (peer.relays.has(room)) direct.push(peer.tab);
  }
  if (!shouldRelay(firstHearing(me, envelope, `room:${room}`, direct), tabs)) return null;
  return forwardEnvelope(envelope, hop);
}

/** A bounded set of envelope ids already handled, so each envelope is shown and stored once. */
export class SeenIds {
  private readonly ids = new Set<string>();
  // A plain field rather than a parameter property: bench/mesh runs this file in Node, which only strips types.
  private readonly max: number;
  constructor(max = 5000) {
    this.max = max;
  }
  /** True the first time an id is offered, false after. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.max) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
}

/** Splits ids into receipt frames of at most `size` ids (the protocol's MAX_RECEIPT_IDS). */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The additional data that binds a ciphertext to its room and envelope id. */
export function envelopeAad(envelope: Pick<Envelope, "room" | "id">): string {
  return `${envelope.room}|${envelope.id}`;
}

/** Marks a sealed payload that carries meta beside the text (a control character no one types). */
const PACKED = "\u0001";

/** The plaintext a private envelope encrypts: the text alone, or text and meta together. */
export function packContent(text: string, meta: Record<string, unknown> | undefined): string {
  return meta ? `${PACKED}${JSON.stringify({ text, meta })}` : text.replaceAll(PACKED, "");
}

export function unpackContent(plain: string): { text: string; meta?: Record<string, unknown> } {
  if (!plain.startsWith(PACKED)) return { text: plain };
  try {
    const parsed = JSON.parse(plain.slice(1)) as { text?: unknown; meta?: unknown };
    const meta = parsed.meta && typeof parsed.meta === "object" ? (parsed.meta as Record<string, unknown>) : undefined;
    return { text: typeof parsed.text === "string" ? parsed.text : "", meta };
  } catch {
    return { text: plain.slice(1) };
  }
}

/**
 * A room cursor and the shard whose seqs it counts (docs/decisions/043-room-speed-and-shards.md): a busy area's
 * shards number envelopes apart, so a cursor means something only with its shard. Stored as one record (a bare
 * number for shard 0, as every cursor was before shards), so the two never disagree after a crash.
 */
export interface RoomCursor {
  seq: number;
  shard: number;
}

export function readCursor(stored: unknown): RoomCursor {
  if (typeof stored === "number") return { seq: stored, shard: 0 };
  const c = stored as Partial<RoomCursor> | undefined;
  return typeof c?.seq === "number" ? { seq: c.seq, shard: typeof c.shard === "number" ? c.shard : 0 } : { seq: 0, shard: 0 };
}

export function storedCursor(c: RoomCursor): number | RoomCursor {
  return c.shard === 0 ? c.seq : c;
}

/**
 * The cursor after seeing `seq` of `shard`: within one shard it only moves forward; a resume-done from another
 * shard (`restart`) replaces it, since the room then answered everything up to `seq` in that shard's numbers.
 * Answers null when it does not change.
 */
export function advanceCursor(current: RoomCursor, seq: number, shard: number, restart: boolean): RoomCursor | null {
  if (shard === current.shard) return seq > current.seq ? { seq, shard } : null;
  return restart ? { seq, shard } : null;
}

/**
 * One SOS, two envelopes: the sender's phone-mesh envelope (its own id) and the relay's alert for it, made by the
 * SOS module with that id as `meta.clientRequestId` (docs/decisions/066-phones-paired-by-code.md). Answers the key
 * both share (sender and request id), or null for any other envelope. A request id is chosen by its sender, so the
 * key pairs it with the sender: another person cannot hide someone's SOS by naming its id.
 */
export function sosKey(envelope: Pick<Envelope, "type" | "senderId" | "id" | "meta">): { key: string; fromRelay: boolean } | null {
  if (envelope.type !== "emergency") return null;
  const asked = envelope.meta?.clientRequestId;
  if (typeof asked === "string" && asked) return { key: `${envelope.senderId}|${asked}`, fromRelay: true };
  if (envelope.meta?.mesh) return { key: `${envelope.senderId}|${envelope.id}`, fromRelay: false };
  return null;
}
