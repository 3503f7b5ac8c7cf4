// The local mesh between phones: envelopes over every open WebRTC data channel of phones paired by code
// (pairing.ts, docs/decisions/066-phones-paired-by-code.md). Each envelope is sent on by the managed-flooding rule
// the simulator measured (logic.ts, docs/decisions/035-managed-flooding.md): a phone that hears one waits, listening,
// and relays only if a phone it is paired with may still lack it; TTL and the hop list bound it; every phone
// dedupes by envelope id. Envelopes carried for others are kept (forward-store.ts) and handed to phones paired later.
import type { Envelope } from "../../../core/envelope";
import { type MeshPerson, PEER_CHANNEL, type PeerMessage, parsePeerMessage } from "../../../core/peer-mesh";
import { ForwardStore } from "./forward-store";
import { firstHearing, forwardEnvelope, hearCopy, listenAgain, type RelayHearing, relayWait, SeenIds, shouldRelay } from "./logic";

const HELLO_EVERY_MS = 5000;

export interface PeerLink {
  person: MeshPerson;
  channel: RTCDataChannel;
  pc: RTCPeerConnection;
  neighbours: string[];
  online: boolean;
  open: boolean;
}

export interface PeerMeshEvents {
  /** An envelope heard on the mesh for the first time (`from`: the device id of the phone it came from). */
  envelope(envelope: Envelope, from: string): void;
  /** Links or what is known of the mesh changed. */
  changed(): void;
  /** A phone was paired and its channel opened: hand it what is waiting. */
  linked?(person: MeshPerson): void;
}

export class PeerMesh {
  readonly links = new Map<string, PeerLink>();
  /** Phones known on the mesh (paired, or named in a paired phone's hello), by device id. */
  readonly people = new Map<string, MeshPerson>();
  readonly store = new ForwardStore();
  readonly stats = { heard: 0, relayed: 0, handedOn: 0 };
  private readonly seen = new SeenIds();
  private readonly waiting = new Map<string, RelayHearing<string>>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    readonly me: MeshPerson,
    private readonly hop: string,
    private readonly events: PeerMeshEvents,
    private readonly online: () => boolean,
  ) {
    this.timer = setInterval(() => this.hello(), HELLO_EVERY_MS);
  }

  /** Paired phones whose channel is open now. */
  openLinks(): PeerLink[] {
    return [...this.links.values()].filter((l) => l.open);
  }

  /** Takes a paired phone's connection and channel (already authenticated by its code). */
  add(pc: RTCPeerConnection, channel: RTCDataChannel, person: MeshPerson) {
    this.links.get(person.deviceId)?.pc.close();
    const link: PeerLink = { person, channel, pc, neighbours: [], online: false, open: channel.readyState === "open" };
    this.links.set(person.deviceId, link);
    this.people.set(person.deviceId, person);
    const opened = () => {
      link.open = true;
      this.hello();
      // What this phone carried for others goes to the newcomer (it dedupes what it already has).
      for (const envelope of this.store.takeFor(person.deviceId)) {
        this.stats.handedOn++;
        this.post(link, { k: "env", envelope });
      }
      this.events.linked?.(person);
      this.events.changed();
    };
    if (link.open) opened();
    else channel.onopen = opened;
    channel.onclose = () => this.gone(link);
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") this.gone(link);
    };
    channel.onmessage = (e) => {
      const message = parsePeerMessage(e.data);
      if (message) this.onMessage(link, message);
    };
  }

  private gone(link: PeerLink) {
    if (!link.open && this.links.get(link.person.deviceId) !== link) return;
    link.open = false;
    this.hello();
    this.events.changed();
  }

  /** Tells every paired phone who this phone is paired with and which phones it knows. */
  hello() {
    const neighbours = this.openLinks().map((l) => l.person.deviceId);
    const people = [this.me, ...this.people.values()].slice(0, 128);
    for (const link of this.openLinks()) this.post(link, { k: "hello", neighbours, people, online: this.online() });
  }

  /** Whether some phone of the mesh reaches the relay (it hands over what this phone sends). */
  someoneOnline(): boolean {
    return this.openLinks().some((l) => l.online);
  }

  /** This phone's own envelope: to every paired phone at once (the source never waits), and kept for later ones. */
  originate(envelope: Envelope) {
    this.seen.add(envelope.id);
    this.store.keep(envelope);
    for (const link of this.openLinks()) {
      this.store.heldBy(envelope.id, link.person.deviceId);
      this.post(link, { k: "env", envelope });
    }
  }

  private onMessage(link: PeerLink, message: PeerMessage) {
    if (message.k === "hello") {
      link.neighbours = message.neighbours;
      link.online = message.online;
      for (const p of message.people) if (p.deviceId !== this.me.deviceId && !this.people.has(p.deviceId)) this.people.set(p.deviceId, p);
      this.events.changed();
      return;
    }
    this.onEnvelope(link, message.envelope);
  }

  private onEnvelope(link: PeerLink, envelope: Envelope) {
    const from = link.person.deviceId;
    const waiting = this.waiting.get(envelope.id);
    if (waiting) hearCopy(waiting, envelope, from, link.neighbours);
    this.store.heldBy(envelope.id, from);
    if (!this.seen.add(envelope.id)) return;
    this.stats.heard++;
    this.store.keep(envelope, from);
    this.events.envelope(envelope, from);
    const hearing = firstHearing(this.me.deviceId, envelope, from, link.neighbours);
    // An SOS goes on at once: every paired phone should have it now, not after a round of listening.
    if (envelope.type === "emergency") return this.relay(envelope.id, hearing);
    this.waiting.set(envelope.id, hearing);
    setTimeout(() => this.decide(envelope.id), relayWait(hearing, this.neighbourIds()));
  }

  private neighbourIds(): string[] {
    return this.openLinks().map((l) => l.person.deviceId);
  }

  private decide(id: string) {
    const hearing = this.waiting.get(id);
    if (!hearing) return;
    const again = listenAgain(hearing, this.neighbourIds());
    if (again > 0) {
      setTimeout(() => this.decide(id), again);
      return;
    }
    this.waiting.delete(id);
    this.relay(id, hearing);
  }

  private relay(_id: string, hearing: RelayHearing<string>) {
    const neighbours = this.neighbourIds();
    if (!shouldRelay(hearing, neighbours)) return;
    const forwarded = forwardEnvelope(hearing.envelope, this.hop);
    if (!forwarded) return;
    this.stats.relayed++;
    for (const link of this.openLinks()) {
      if (hearing.covered.has(link.person.deviceId)) continue;
      this.store.heldBy(forwarded.id, link.person.deviceId);
      this.post(link, { k: "env", envelope: forwarded });
    }
  }

  private post(link: PeerLink, message: PeerMessage) {
    if (link.channel.readyState !== "open") return;
    try {
      link.channel.send(JSON.stringify(message));
    } catch (e) {
      console.warn("mesh: data channel send failed", e);
    }
  }

  close() {
    clearInterval(this.timer);
    for (const link of this.links.values()) link.pc.close();
    this.links.clear();
  }
}

export { PEER_CHANNEL };
