// Store and forward for the phone-to-phone mesh (docs/decisions/066-phones-paired-by-code.md): a phone keeps the
// envelopes it carried for others, hands each to every phone it pairs with later and to the relay once it reaches
// it. Kept bounded (a phone is small and an envelope may be up to 64 KiB) and for a limited time (news goes
// stale; a phone that carried a stranger's words for days should not). The room dedupes by envelope id, so a
// copy that arrives both from its sender and from here is stored once.
import type { Envelope } from "../../../core/envelope";

/** Envelopes kept at most (an SOS is dropped last). */
export const FORWARD_MAX = 300;
/** Bytes kept at most (JSON of the envelopes). */
export const FORWARD_MAX_BYTES = 512 * 1024;
/** How long an envelope is carried. */
export const FORWARD_KEEP_MS = 24 * 60 * 60 * 1000;
/** An SOS is carried longer: someone may still be waiting for help. */
export const FORWARD_KEEP_SOS_MS = 72 * 60 * 60 * 1000;

interface Held {
  envelope: Envelope;
  heldAt: number;
  bytes: number;
  handedTo: Set<string>;
  relayed: boolean;
}

export interface ForwardStoreOptions {
  max?: number;
  maxBytes?: number;
  keepMs?: number;
  keepSosMs?: number;
  now?: () => number;
}

const isSos = (e: Envelope) => e.type === "emergency" || e.priority === "high";

export class ForwardStore {
  private readonly held = new Map<string, Held>();
  private bytesHeld = 0;
  private readonly max: number;
  private readonly maxBytes: number;
  private readonly keepMs: number;
  private readonly keepSosMs: number;
  private readonly now: () => number;

  constructor(opts: ForwardStoreOptions = {}) {
    this.max = opts.max ?? FORWARD_MAX;
    this.maxBytes = opts.maxBytes ?? FORWARD_MAX_BYTES;
    this.keepMs = opts.keepMs ?? FORWARD_KEEP_MS;
    this.keepSosMs = opts.keepSosMs ?? FORWARD_KEEP_SOS_MS;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    this.expire();
    return this.held.size;
  }
  get bytes(): number {
    this.expire();
    return this.bytesHeld;
  }
  has(id: string): boolean {
    this.expire();
    return this.held.has(id);
  }

  /**
   * Keeps an envelope to hand on (`from`: the phone it came from, which has it). False when it is already kept,
   * has expired (a disappearing message) or alone is larger than the whole store.
   */
  keep(envelope: Envelope, from?: string): boolean {
    this.expire();
    if (this.held.has(envelope.id)) {
      if (from) this.held.get(envelope.id)?.handedTo.add(from);
      return false;
    }
    if (envelope.expiresAt !== undefined && envelope.expiresAt <= this.now()) return false;
    const bytes = new TextEncoder().encode(JSON.stringify(envelope)).byteLength;
    if (bytes > this.maxBytes) return false;
    this.held.set(envelope.id, { envelope, heldAt: this.now(), bytes, handedTo: new Set(from ? [from] : []), relayed: false });
    this.bytesHeld += bytes;
    while (this.held.size > this.max || this.bytesHeld > this.maxBytes) this.evictOne();
    return this.held.has(envelope.id);
  }

  /** What a phone has not had from here yet (oldest first, SOS first); each is given to a phone once. */
  takeFor(peer: string): Envelope[] {
    this.expire();
    const out: Held[] = [];
    for (const h of this.held.values()) if (!h.handedTo.has(peer)) out.push(h);
    out.sort((a, b) => Number(isSos(b.envelope)) - Number(isSos(a.envelope)) || a.heldAt - b.heldAt);
    for (const h of out) h.handedTo.add(peer);
    return out.map((h) => h.envelope);
  }

  /** A phone is known to hold the envelope (it sent us a copy): it is not handed to it again. */
  heldBy(id: string, peer: string) {
    this.held.get(id)?.handedTo.add(peer);
  }

  /** What has not been handed to the relay yet (SOS first). */
  forRelay(): Envelope[] {
    this.expire();
    return [...this.held.values()]
      .filter((h) => !h.relayed)
      .sort((a, b) => Number(isSos(b.envelope)) - Number(isSos(a.envelope)) || a.heldAt - b.heldAt)
      .map((h) => h.envelope);
  }

  /** The relay took the envelope: it is still handed to phones met later, never to the relay again. */
  relayed(id: string) {
    const h = this.held.get(id);
    if (h) h.relayed = true;
  }

  private drop(id: string) {
    const h = this.held.get(id);
    if (!h) return;
    this.held.delete(id);
    this.bytesHeld -= h.bytes;
  }

  /** The oldest envelope that is not an SOS goes first; only when all are SOS does the oldest SOS go. */
  private evictOne() {
    let victim: Held | undefined;
    for (const h of this.held.values()) {
      if (!victim) victim = h;
      else if (isSos(victim.envelope) && !isSos(h.envelope)) victim = h;
      else if (isSos(victim.envelope) === isSos(h.envelope) && h.heldAt < victim.heldAt) victim = h;
    }
    if (victim) this.drop(victim.envelope.id);
  }

  private expire() {
    const now = this.now();
    for (const [id, h] of this.held) {
      const keep = isSos(h.envelope) ? this.keepSosMs : this.keepMs;
      if (now - h.heldAt >= keep || (h.envelope.expiresAt !== undefined && h.envelope.expiresAt <= now)) this.drop(id);
    }
  }
}
