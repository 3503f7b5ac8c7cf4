// The private-room protocol against a malicious relay (docs/protocol.md): a test double of the server that
// publishes keys, carries envelopes, and injects, rewrites and replays them. Every attack must be refused by
// the receiving device, or (for a device the server adds) shown before anything is sealed to it.
import { beforeEach, describe, expect, it } from "vitest";
import { createDevice, type DeviceRecord, type DeviceSecrets, E2eSession, type KeyValueStore, safetyNumber, signDeviceRecord } from "./e2e";
import type { Envelope } from "./envelope";
import { newId } from "./ids";

class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, unknown>();
  async get<T>(key: string) {
    return structuredClone(this.map.get(key)) as T | undefined;
  }
  async set(key: string, value: unknown) {
    this.map.set(key, structuredClone(value));
  }
}

const e2eOf = (e: Envelope) => e.meta?.e2e as { keys: { to: string }[]; for: string; counter: number };

/** The server as an attacker sees it: it owns the key directory and every envelope on the way. */
class MaliciousRelay {
  readonly published = new Map<string, DeviceRecord[]>();
  publish(record: DeviceRecord) {
    this.published.set(record.userId, [...(this.published.get(record.userId) ?? []), record]);
  }
  directory = { devices: async (userId: string) => structuredClone(this.published.get(userId) ?? []) };
  /** A copy of an envelope with some fields changed on the way. */
  rewrite(envelope: Envelope, change: (e: Envelope) => void): Envelope {
    const copy = structuredClone(envelope);
    change(copy);
    return copy;
  }
}

let relay: MaliciousRelay;

async function device(userId: string): Promise<{ secrets: DeviceSecrets; session: E2eSession }> {
  const secrets = await createDevice(userId);
  relay.publish(secrets.record);
  return { secrets, session: new E2eSession(secrets, new MemoryStore(), relay.directory) };
}

function draft(room: string, senderId: string, type: Envelope["type"] = "text"): Envelope {
  return {
    id: newId(),
    room,
    senderId,
    timestamp: Date.now(),
    type,
    ttl: 8,
    meshRoute: [],
    isEncrypted: true,
    priority: "normal",
    content: { text: "" },
  };
}

const base = (senderId: string) => ({ senderId, timestamp: Date.now(), ttl: 8, meshRoute: [], priority: "normal" as const });

beforeEach(() => {
  relay = new MaliciousRelay();
});

describe("direct messages", () => {
  const room = "dm:alice:bob";

  it("open on every trusted device of both people, and only there", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const bob2 = await device("bob");
    const { envelope } = await alice.session.sealDirect(draft(room, "alice"), "meet at 6", "bob");
    expect(JSON.stringify(envelope)).not.toContain("meet at 6");
    expect(await bob.session.open(envelope)).toMatchObject({ ok: true, text: "meet at 6" });
    expect(await bob2.session.open(envelope)).toMatchObject({ ok: true, text: "meet at 6" });
    expect(await alice.session.open(envelope)).toMatchObject({ ok: true, text: "meet at 6" });
    const eve = await device("eve");
    expect(await eve.session.open(envelope)).toMatchObject({ ok: false, reason: "not-for-this-device" });
  });

  it("refuses a message forged under another sender", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const mallory = await device("mallory");
    // Mallory seals with her own real keys and the relay names Alice as the sender.
    const { envelope } = await mallory.session.sealDirect(draft(room, "mallory"), "send me the code", "bob");
    const forged = relay.rewrite(envelope, (e) => {
      e.senderId = "alice";
    });
    expect(await bob.session.open(forged)).toEqual({ ok: false, reason: "unknown-device" });
    // Or she names Alice's real device keys in the header: the signature is not Alice's.
    const named = relay.rewrite(envelope, (e) => {
      e.senderId = "alice";
      Object.assign(e2eOf(e), { device: alice.secrets.record.signingKey, dh: alice.secrets.record.publicKey });
    });
    expect(await bob.session.open(named)).toEqual({ ok: false, reason: "bad-signature" });
  });

  it("refuses a rewritten header: time, type, id, key id or counter", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const { envelope } = await alice.session.sealDirect(draft(room, "alice"), "pay 5000", "bob");
    const rewrites: ((e: Envelope) => void)[] = [
      (e) => {
        e.timestamp -= 86_400_000;
      },
      (e) => {
        e.type = "emergency";
      },
      (e) => {
        e.id = newId();
      },
      (e) => {
        if ("keyId" in e.content) e.content.keyId = "other-key-id";
      },
      (e) => {
        e2eOf(e).counter += 1;
      },
    ];
    for (const change of rewrites)
      expect(await bob.session.open(relay.rewrite(envelope, change))).toEqual({ ok: false, reason: "bad-signature" });
    expect(await bob.session.open(envelope)).toMatchObject({ ok: true, text: "pay 5000" });
  });

  it("refuses a replayed old message once it was opened", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const { envelope } = await alice.session.sealDirect(draft(room, "alice"), "yes, go ahead", "bob");
    expect(await bob.session.open(envelope)).toMatchObject({ ok: true });
    expect(await bob.session.open(structuredClone(envelope))).toEqual({ ok: false, reason: "replay" });
  });

  it("refuses plain text in a private room (no lock without decryption)", async () => {
    const bob = await device("bob");
    await device("alice");
    const plain = { ...draft(room, "alice"), isEncrypted: true, content: { text: "I am Alice, send the code" } };
    expect(await bob.session.open(plain)).toEqual({ ok: false, reason: "plaintext" });
  });

  it("a ghost device the server adds is reported before anything is sealed to it; an unsigned one never gets a key", async () => {
    const alice = await device("alice");
    await device("bob");
    // First contact pins Bob's identity key.
    expect((await alice.session.sealDirect(draft(room, "alice"), "hi", "bob")).changes).toEqual([]);
    // The server adds a device of its own to Bob's list: signed by a key of its own.
    const ghost = await createDevice("bob", "ghost-device");
    relay.publish(ghost.record);
    const { envelope, changes } = await alice.session.sealDirect(draft(room, "alice"), "the plan", "bob");
    expect(changes).toEqual([{ userId: "bob", deviceId: "ghost-device", kind: "new-device" }]);
    expect(e2eOf(envelope).keys.map((k) => k.to)).toContain(ghost.record.publicKey);
    // A record whose signature does not check (a key swapped in) is never sealed to.
    const other = await createDevice("bob", "unsigned");
    relay.publish({ ...other.record, publicKey: ghost.record.publicKey.replace(/^./, (c) => (c === "A" ? "B" : "A")) });
    const next = await alice.session.sealDirect(draft(room, "alice"), "more", "bob");
    expect(next.changes).toEqual([]);
    expect(e2eOf(next.envelope).keys).toHaveLength(3);
    // An existing device id with another identity key is a key change.
    relay.published.set(
      "bob",
      (relay.published.get("bob") ?? []).filter((r) => r.deviceId !== "ghost-device"),
    );
    const swapped = await createDevice("bob", "ghost-device");
    relay.publish(swapped.record);
    expect((await alice.session.sealDirect(draft(room, "alice"), "again", "bob")).changes).toEqual([
      { userId: "bob", deviceId: "ghost-device", kind: "key-changed" },
    ]);
  });

  it("a device record relabelled for another user is not theirs; one the server signs itself is shown as a new device", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const mallory = await device("mallory");
    relay.publish({ ...mallory.secrets.record, userId: "alice" });
    const { envelope } = await mallory.session.sealDirect(draft(room, "mallory"), "hello", "bob");
    expect(await bob.session.open({ ...envelope, senderId: "alice" })).toEqual({ ok: false, reason: "unknown-device" });
    // Bob knows Alice already (her identity key is pinned).
    const real = await alice.session.sealDirect(draft(room, "alice"), "hi bob", "bob");
    expect(await bob.session.open(real.envelope)).toMatchObject({ ok: true, changes: [] });
    // The server signs a record for Alice with a key of its own and speaks through it: the chat learns of a
    // new device of Alice's with that very message, so it is never taken silently.
    const ghost = await createDevice("alice", "server-ghost");
    relay.publish(await signDeviceRecord(ghost.signing, ghost.record));
    const session = new E2eSession(ghost, new MemoryStore(), relay.directory);
    const forged = await session.sealDirect(draft(room, "alice"), "send me the code", "bob");
    expect(await bob.session.open(forged.envelope)).toMatchObject({
      ok: true,
      changes: [{ userId: "alice", deviceId: "server-ghost", kind: "new-device" }],
    });
  });
});

describe("groups", () => {
  const room = "group:market-women";

  async function group() {
    const alice = await device("alice");
    const bob = await device("bob");
    const carol = await device("carol");
    return { alice, bob, carol };
  }

  async function deliverKeys(envelopes: Envelope[], ...to: { session: E2eSession }[]) {
    for (const e of envelopes) for (const d of to) await d.session.acceptSenderKey(e);
  }

  it("members read each other; messages open out of order, each once", async () => {
    const { alice, bob, carol } = await group();
    const { envelopes } = await alice.session.prepareGroup(room, ["bob", "carol"], base("alice"));
    expect(envelopes).toHaveLength(2);
    await deliverKeys(envelopes, bob, carol);
    const m1 = await alice.session.sealGroup(draft(room, "alice"), "tomatoes 4800");
    const m2 = await alice.session.sealGroup(draft(room, "alice"), "pepper 3100");
    expect(await bob.session.open(m2)).toMatchObject({ ok: true, text: "pepper 3100" });
    expect(await bob.session.open(m1)).toMatchObject({ ok: true, text: "tomatoes 4800" });
    expect(await bob.session.open(m1)).toEqual({ ok: false, reason: "replay" });
    expect(await bob.session.open(m2)).toEqual({ ok: false, reason: "replay" });
    expect(await carol.session.open(m1)).toMatchObject({ ok: true, text: "tomatoes 4800" });
  });

  it("refuses an overwritten sender key and a member speaking as another", async () => {
    const { alice, bob, carol } = await group();
    const handout = await alice.session.prepareGroup(room, ["bob", "carol"], base("alice"));
    await deliverKeys(handout.envelopes, bob, carol);
    const forBob = handout.envelopes.find((e) => e2eOf(e).for === "bob")!;
    // The relay replays Alice's handout: the stored key stays as it was.
    expect(await bob.session.acceptSenderKey(forBob)).toEqual({ ok: false, reason: "key-overwrite" });
    // Carol hands Bob a key under Alice's key id and Alice's name.
    const carolsKeys = await carol.session.prepareGroup(room, ["alice", "bob"], base("carol"));
    const carolToBob = carolsKeys.envelopes.find((e) => e2eOf(e).for === "bob")!;
    const asAlice = relay.rewrite(carolToBob, (e) => {
      e.senderId = "alice";
      if ("keyId" in e.content) e.content.keyId = (forBob.content as { keyId: string }).keyId;
    });
    expect(await bob.session.acceptSenderKey(asAlice)).toEqual({ ok: false, reason: "unknown-device" });
    // Carol's own key is kept beside Alice's: Alice's messages still open for Bob.
    expect(await bob.session.acceptSenderKey(carolToBob)).toEqual({ ok: true, changes: [] });
    const fromAlice = await alice.session.sealGroup(draft(room, "alice"), "still me");
    expect(await bob.session.open(fromAlice)).toMatchObject({ ok: true, text: "still me" });
    // Carol's message relabelled as Alice's is refused.
    const fromCarol = await carol.session.sealGroup(draft(room, "carol"), "send money to carol");
    expect(await bob.session.open({ ...fromCarol, senderId: "alice" })).toEqual({ ok: false, reason: "unknown-device" });
    expect(await bob.session.open(fromCarol)).toMatchObject({ ok: true, text: "send money to carol" });
  });

  it("a removed member cannot read new messages; a key stolen now does not open earlier ones", async () => {
    const { alice, bob, carol } = await group();
    await deliverKeys((await alice.session.prepareGroup(room, ["bob", "carol"], base("alice"))).envelopes, bob, carol);
    const before = await alice.session.sealGroup(draft(room, "alice"), "before carol left");
    expect(await carol.session.open(structuredClone(before))).toMatchObject({ ok: true });
    // Carol leaves: Alice's next handout is a new sender key, for Bob only.
    const after = await alice.session.prepareGroup(room, ["bob"], base("alice"));
    expect(after.envelopes.map((e) => e2eOf(e).for)).toEqual(["bob"]);
    await deliverKeys(after.envelopes, bob, carol);
    const secret = await alice.session.sealGroup(draft(room, "alice"), "after carol left");
    expect(await carol.session.open(secret)).toEqual({ ok: false, reason: "no-key" });
    expect(await bob.session.open(secret)).toMatchObject({ ok: true, text: "after carol left" });
    // A new device of a member also makes a new key.
    const bob2 = await device("bob");
    const withDevice = await alice.session.prepareGroup(room, ["bob"], base("alice"));
    expect(withDevice.changes).toEqual([{ userId: "bob", deviceId: bob2.secrets.record.deviceId, kind: "new-device" }]);
    expect(new Set(withDevice.envelopes.map((e) => (e.content as { keyId: string }).keyId)).size).toBe(1);
    expect((withDevice.envelopes[0]!.content as { keyId: string }).keyId).not.toBe(
      (after.envelopes[0]!.content as { keyId: string }).keyId,
    );
    // The newcomer device gets the chain from now on: the message before it joined stays closed.
    await deliverKeys(withDevice.envelopes, bob2);
    expect(await bob2.session.open(before)).toEqual({ ok: false, reason: "no-key" });
    const now = await alice.session.sealGroup(draft(room, "alice"), "welcome");
    expect(await bob2.session.open(now)).toMatchObject({ ok: true, text: "welcome" });
  });
});

describe("safety numbers", () => {
  it("are the same on both sides and change when a key changes", async () => {
    const a = { userId: "alice", keys: ["k1", "k2"] };
    const b = { userId: "bob", keys: ["k3"] };
    const ab = await safetyNumber(a, b);
    expect(ab).toMatch(/^(\d{5} ){11}\d{5}$/);
    expect(await safetyNumber(b, a)).toBe(ab);
    expect(await safetyNumber(a, { userId: "bob", keys: ["k4"] })).not.toBe(ab);
  });
});
