// The phone mesh as the chat's node sees it (docs/decisions/066-phones-paired-by-code.md): pairing, the data
// channels (peer-transport.ts) and what travels on them. Loaded on first use (the pairing panel), so the chat's
// bundle does not carry it. Every envelope this phone starts is signed by its identity key (meta.mesh), and an
// envelope heard on the mesh is shown only when its sender's key, learned by pairing, checks it: a relaying phone
// cannot rewrite a message or speak for another. A private message is sealed for the one phone it is for (X25519
// with that phone's device key, AES-256-GCM bound to room and id); the phones between carry bytes they cannot open.
import { decryptContent, derivePairwiseKey, encryptContent } from "../../../core/crypto";
import { DEFAULT_TTL, type Envelope } from "../../../core/envelope";
import { fromBase64Url, newId, toBase64Url } from "../../../core/ids";
import { type MeshPerson, meshSignedBytes } from "../../../core/peer-mesh";
import { dmRoomId, roomKind } from "../../../core/room-ids";
import { deviceSecrets } from "./keys";
import { envelopeAad } from "./logic";
import { myMeshPerson, Pairing } from "./pairing";
import { PeerMesh } from "./peer-transport";
import { vibrate } from "../lib/vibrate";

const DM_CONTEXT = "linkup-mesh-dm";

export interface PrivateMeshMessage {
  id: string;
  /** The other person's device. */
  with: MeshPerson;
  text: string;
  mine: boolean;
  at: number;
  route: string[];
}

export interface PhoneMeshHooks {
  me: { id: string; nickname: string };
  hop: string;
  /** Whether the browser says it has a network (told to paired phones: they hand this phone what is for the relay). */
  online(): boolean;
  /** A checked public envelope or SOS from another phone, for the chat. */
  receive(envelope: Envelope): void;
  /** A private message for this phone, opened and checked: for the direct chat with its sender. */
  receivePrivate(envelope: Envelope, text: string): void;
  /** Hands envelopes carried for others to the relay; resolves with the ids it took. */
  toRelay(envelopes: Envelope[]): Promise<string[]>;
  changed(): void;
}

interface MeshSignature {
  device: string;
  sig: string;
}

function meshSignature(e: Envelope): MeshSignature | null {
  const m = e.meta?.mesh as Partial<MeshSignature> | undefined;
  return typeof m?.device === "string" && typeof m.sig === "string" ? { device: m.device, sig: m.sig } : null;
}

export class PhoneMesh {
  readonly privateMessages: PrivateMeshMessage[] = [];
  readonly pairing: Pairing;
  private handing = false;

  private constructor(
    private readonly hooks: PhoneMeshHooks,
    readonly me: MeshPerson,
    readonly mesh: PeerMesh,
  ) {
    this.pairing = new Pairing(hooks.me, mesh);
  }

  static async create(hooks: PhoneMeshHooks): Promise<PhoneMesh> {
    const me = await myMeshPerson(hooks.me);
    let made: PhoneMesh | null = null;
    const mesh = new PeerMesh(
      me,
      hooks.hop,
      {
        envelope: (envelope) => void made?.heard(envelope),
        changed: () => hooks.changed(),
        linked: () => void made?.handToRelay(),
      },
      hooks.online,
    );
    made = new PhoneMesh(hooks, me, mesh);
    return made;
  }

  /** Phones known on the mesh other than this one (paired, or two and more hops away). */
  people(): MeshPerson[] {
    return [...this.mesh.people.values()].filter((p) => p.userId !== this.me.userId);
  }

  private async sign(envelope: Envelope): Promise<Envelope> {
    const { signing } = await deviceSecrets(this.hooks.me.id);
    const sig = await crypto.subtle.sign({ name: "Ed25519" }, signing.privateKey, meshSignedBytes(envelope));
    return { ...envelope, meta: { ...envelope.meta, mesh: { device: this.me.deviceId, sig: toBase64Url(new Uint8Array(sig)) } } };
  }

  /** This phone's message of a public area room, or its SOS: signed and sent to every paired phone. */
  async sendOwn(envelope: Envelope): Promise<void> {
    if (roomKind(envelope.room) !== "nearby") return;
    this.mesh.originate(await this.sign(envelope));
  }

  /**
   * A private message for one phone of the mesh, sealed so that the phones between cannot read it. `as` gives it
   * the id and time of the same message in the direct chat's outbox, so the room keeps one of the two.
   */
  async sendPrivate(to: MeshPerson, text: string, as?: { id: string; timestamp: number }): Promise<void> {
    const { dh } = await deviceSecrets(this.hooks.me.id);
    const base: Envelope = {
      id: as?.id ?? newId(),
      room: dmRoomId(this.me.userId, to.userId),
      senderId: this.me.userId,
      senderName: this.me.nickname,
      timestamp: as?.timestamp ?? Date.now(),
      type: "text",
      ttl: DEFAULT_TTL,
      meshRoute: [this.hooks.hop],
      isEncrypted: true,
      priority: "normal",
      content: { text: "" },
      meta: { to: to.deviceId },
    };
    const key = await derivePairwiseKey(dh, to.publicKey, DM_CONTEXT);
    const sealed: Envelope = { ...base, content: await encryptContent(key, text, envelopeAad(base), "mesh") };
    this.privateMessages.push({ id: base.id, with: to, text, mine: true, at: base.timestamp, route: base.meshRoute });
    this.mesh.originate(await this.sign(sealed));
    this.hooks.changed();
  }

  /** Checks an envelope's signature against the key its sender paired with (directly or through a paired phone). */
  private async sender(envelope: Envelope): Promise<MeshPerson | null> {
    const mark = meshSignature(envelope);
    const person = mark ? this.mesh.people.get(mark.device) : undefined;
    if (!mark || !person || person.userId !== envelope.senderId) return null;
    try {
      const key = await crypto.subtle.importKey("raw", fromBase64Url(person.signingKey), { name: "Ed25519" }, false, ["verify"]);
      return (await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(mark.sig), meshSignedBytes(envelope))) ? person : null;
    } catch {
      return null;
    }
  }

  private async heard(envelope: Envelope) {
    const from = await this.sender(envelope);
    if (!from) {
      console.warn("mesh: an envelope from an unknown or forged sender was carried but not shown");
      return;
    }
    if (roomKind(envelope.room) === "dm") {
      if (envelope.meta?.to !== this.me.deviceId || !("ciphertext" in envelope.content)) return;
      try {
        const { dh } = await deviceSecrets(this.hooks.me.id);
        const key = await derivePairwiseKey(dh, from.publicKey, DM_CONTEXT);
        const text = await decryptContent(key, envelope.content, envelopeAad(envelope));
        this.privateMessages.push({ id: envelope.id, with: from, text, mine: false, at: envelope.timestamp, route: envelope.meshRoute });
        this.hooks.receivePrivate(envelope, text);
        this.hooks.changed();
      } catch {
        console.warn("mesh: a private message for this phone did not open");
      }
      return;
    }
    if (envelope.type === "emergency") {
      vibrate([400, 150, 400, 150, 400]);
    }
    this.hooks.receive(envelope);
    void this.handToRelay();
  }

  /** With the relay reachable, hands it what this phone carried for others (the room keeps each id once). */
  async handToRelay(): Promise<void> {
    if (this.handing || !this.hooks.online()) return;
    const waiting = this.mesh.store.forRelay().filter((e) => roomKind(e.room) === "nearby" && e.senderId !== this.me.userId);
    if (waiting.length === 0) return;
    this.handing = true;
    try {
      for (const id of await this.hooks.toRelay(waiting)) this.mesh.store.relayed(id);
    } catch {
      // No connection after all: tried again when one comes.
    } finally {
      this.handing = false;
    }
  }

  close() {
    this.mesh.close();
  }
}
