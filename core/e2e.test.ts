// The private-room protocol against a malicious relay (docs/protocol.md): the shared test double of the server
// (core/testing/malicious-server.ts) publishes keys, carries envelopes, and injects, rewrites and replays them.
// Every attack must be refused by the receiving device, or (for a device the server adds) shown before anything
// is sealed to it.
import { beforeEach, describe, expect, it } from "vitest";
import { openSdp, sdpFingerprints, sealSdp } from "./call-binding";
import { derivePairwiseKey, encryptContent } from "./crypto";
import { createAccountKey, type DeviceList, nextDeviceList, signDeviceList } from "./device-list";
import {
  canonicalHeader,
  createDevice,
  type DeviceRecord,
  type DeviceSecrets,
  E2eSession,
  type KeyValueStore,
  safetyNumber,
  SIGNED_PREKEY_GRACE_MS,
  SIGNED_PREKEY_MAX_AGE_MS,
} from "./e2e";
import type { Envelope } from "./envelope";
import { contentBinding, entryMacKey, macEntry } from "./e2e-direct";
import { type RatchetState, ratchetEncrypt } from "./double-ratchet";
import { fromBase64Url, newId, toBase64Url } from "./ids";
import { DEVICE_MAX_SKIPPED } from "./skipped-keys";
import { hmacsDuring, MaliciousServer, MemoryStore } from "./testing/malicious-server";

const e2eOf = (e: Envelope) => e.meta?.e2e as { keys: { to: string }[]; for: string; counter: number };

let relay: MaliciousServer;

function device(userId: string) {
  return relay.device(userId);
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

/** Seals a direct message that needs no consent (no key changed since it was last shown). */
async function sealTo(session: E2eSession, envelope: Envelope, text: string, peerId: string): Promise<Envelope> {
  const sealed = await session.sealDirect(envelope, text, peerId);
  if (!sealed.envelope) throw new Error(`Waiting for consent: ${JSON.stringify(sealed.changes)}`);
  return sealed.envelope;
}

const base = (senderId: string) => ({ senderId, timestamp: Date.now(), ttl: 8, meshRoute: [], priority: "normal" as const });

beforeEach(() => {
  relay = new MaliciousServer();
});

describe("direct messages", () => {
  const room = "dm:alice:bob";

  it("open on every trusted device of both people, and only there", async () => {
    const alice = await device("alice");
    const alice2 = await device("alice");
    const bob = await device("bob");
    const bob2 = await device("bob");
    const envelope = await sealTo(alice.session, draft(room, "alice"), "meet at 6", "bob");
    expect(JSON.stringify(envelope)).not.toContain("meet at 6");
    expect(await bob.session.open(envelope)).toMatchObject({ ok: true, text: "meet at 6" });
    expect(await bob2.session.open(envelope)).toMatchObject({ ok: true, text: "meet at 6" });
    expect(await alice2.session.open(envelope)).toMatchObject({ ok: true, text: "meet at 6" });
    // The sending device keeps its own words; nothing on the wire is sealed back to it.
    expect(await alice.session.open(envelope)).toMatchObject({ ok: false, reason: "not-for-this-device" });
    const eve = await device("eve");
    expect(await eve.session.open(envelope)).toMatchObject({ ok: false, reason: "not-for-this-device" });
  });

  it("refuses a message forged under another sender", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const mallory = await device("mallory");
    // Mallory seals with her own real keys and the relay names Alice as the sender.
    const envelope = await sealTo(mallory.session, draft(room, "mallory"), "send me the code", "bob");
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
    const envelope = await sealTo(alice.session, draft(room, "alice"), "pay 5000", "bob");
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
    const envelope = await sealTo(alice.session, draft(room, "alice"), "yes, go ahead", "bob");
    expect(await bob.session.open(envelope)).toMatchObject({ ok: true });
    expect(await bob.session.open(structuredClone(envelope))).toEqual({ ok: false, reason: "replay" });
  });

  it("refuses plain text in a private room (no lock without decryption)", async () => {
    const bob = await device("bob");
    await device("alice");
    const plain = { ...draft(room, "alice"), isEncrypted: true, content: { text: "I am Alice, send the code" } };
    expect(await bob.session.open(plain)).toEqual({ ok: false, reason: "plaintext" });
  });

  it("a ghost device on first contact is never sealed to: the server cannot sign a person's device list", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const ghost = await createDevice("bob", "ghost-device");
    const real = relay.lists.get("bob") as DeviceList;
    // The server slips its device into Bob's list before Alice ever looked: the account key's signature breaks.
    relay.lists.set("bob", { ...real, devices: [...real.devices, ghost.record] });
    await expect(alice.session.sealDirect(draft(room, "alice"), "hi", "bob")).rejects.toThrow(/Waiting for the other person/);
    expect((await alice.session.trustedDevices("bob")).problems).toContainEqual({ userId: "bob", kind: "unsigned-list" });
    // Or it hands out a whole list of its own, under an account key of its own: the safety number differs.
    const fake = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: ghost.record }, "bob"));
    relay.lists.set("bob", fake);
    const fooled = await alice.session.accountKey("bob");
    expect(fooled).toBe(fake.accountKey);
    const seenByAlice = await safetyNumber(
      { userId: "alice", keys: [(await alice.session.accountKey("alice"))!] },
      { userId: "bob", keys: [fooled!] },
    );
    relay.lists.set("bob", real);
    const seenByBob = await safetyNumber(
      { userId: "alice", keys: [(await bob.session.accountKey("alice"))!] },
      { userId: "bob", keys: [(await bob.session.accountKey("bob"))!] },
    );
    expect(seenByAlice).not.toBe(seenByBob);
  });

  it("a ghost device later, or an account key swapped in, is shown and nothing is sealed before it is accepted", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    expect((await alice.session.sealDirect(draft(room, "alice"), "hi", "bob")).changes).toEqual([]);
    const ghost = await createDevice("bob", "ghost-device");
    // A device added to the signed list without the account key: refused, the list seen last still counts.
    const real = relay.lists.get("bob") as DeviceList;
    relay.lists.set("bob", { ...real, version: real.version + 1, devices: [...real.devices, ghost.record] });
    const tampered = await alice.session.sealDirect(draft(room, "alice"), "the plan", "bob");
    expect(tampered.problems).toContainEqual({ userId: "bob", kind: "unsigned-list" });
    expect(e2eOf(tampered.envelope!).keys.map((k) => k.to)).toEqual([bob.secrets.record.publicKey]);
    // A new account key for Bob (the server's, with its device): reported, and nothing sealed.
    const fake = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: ghost.record }, "bob"));
    relay.lists.set("bob", fake);
    const held = await alice.session.sealDirect(draft(room, "alice"), "the code is 4411", "bob");
    expect(held.envelope).toBeUndefined();
    expect(held.changes).toContainEqual({ userId: "bob", deviceId: "", kind: "account-changed", key: fake.accountKey });
    expect(held.changes).toContainEqual({ userId: "bob", deviceId: "ghost-device", kind: "new-device", key: ghost.record.signingKey });
    // Asked again without anything shown: still nothing sealed.
    expect((await alice.session.sealDirect(draft(room, "alice"), "the code is 4411", "bob")).envelope).toBeUndefined();
    // Once shown and accepted (the person chose to), the new key is used: the choice was the person's.
    await alice.session.acknowledge(held.changes);
    const ghostUpload = await new E2eSession(ghost, new MemoryStore(), relay.directory).prekeysToPublish({
      signedPrekeyId: null,
      oneTimePrekeys: 0,
    });
    relay.publishPrekeys(ghost.record, ghostUpload!);
    const after = await sealTo(alice.session, draft(room, "alice"), "ok then", "bob");
    expect(e2eOf(after).keys.map((k) => k.to)).toEqual([ghost.record.publicKey]);
  });

  it("a contact's new real device is shown before the first message sealed to it, then reads on; a removal is said too", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    expect(await bob.session.open(await sealTo(alice.session, draft(room, "alice"), "one", "bob"))).toMatchObject({ ok: true });
    const bob2 = await device("bob");
    const waiting = await alice.session.sealDirect(draft(room, "alice"), "two", "bob");
    expect(waiting.envelope).toBeUndefined();
    expect(waiting.changes).toEqual([
      { userId: "bob", deviceId: bob2.secrets.record.deviceId, kind: "new-device", key: bob2.secrets.record.signingKey },
    ]);
    await alice.session.acknowledge(waiting.changes);
    const two = await sealTo(alice.session, draft(room, "alice"), "two", "bob");
    expect(await bob2.session.open(two)).toMatchObject({ ok: true, text: "two" });
    // The safety number is made of the two account keys: a new device of Bob's leaves it as it was.
    expect(await alice.session.accountKey("bob")).toBe(await bob2.session.accountKey("bob"));
    // Bob signs bob2 out: Alice is told once, and it gets nothing more.
    await relay.withdraw("bob", bob2.secrets.record.deviceId);
    const three = await alice.session.sealDirect(draft(room, "alice"), "three", "bob");
    expect(three.changes).toEqual([{ userId: "bob", deviceId: bob2.secrets.record.deviceId, kind: "device-removed" }]);
    expect(e2eOf(three.envelope!).keys.map((k) => k.to)).toEqual([bob.secrets.record.publicKey]);
    expect((await alice.session.sealDirect(draft(room, "alice"), "four", "bob")).changes).toEqual([]);
  });

  it("refuses a rolled-back device list and a withdrawn device listed again", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const bob2 = await device("bob");
    await sealTo(alice.session, draft(room, "alice"), "hi", "bob");
    const withBob2 = relay.lists.get("bob");
    await relay.withdraw("bob", bob2.secrets.record.deviceId);
    await alice.session.sealDirect(draft(room, "alice"), "bob2 gone", "bob");
    // The server hands out the list from before the withdrawal: older than the one seen, so refused.
    relay.lists.set("bob", withBob2);
    const rolled = await alice.session.sealDirect(draft(room, "alice"), "still only bob", "bob");
    expect(rolled.problems).toContainEqual({ userId: "bob", kind: "rolled-back" });
    expect(e2eOf(rolled.envelope!).keys.map((k) => k.to)).toEqual([bob.secrets.record.publicKey]);
    // Or it withholds the list: the one seen last still counts.
    relay.lists.delete("bob");
    expect((await alice.session.sealDirect(draft(room, "alice"), "x", "bob")).problems).toContainEqual({
      userId: "bob",
      kind: "rolled-back",
    });
    // A list that puts the withdrawn device back (even one signed by the account key) is refused for it.
    await relay.publish(bob2.secrets.record);
    const relisted = await alice.session.sealDirect(draft(room, "alice"), "y", "bob");
    expect(relisted.problems).toContainEqual({ userId: "bob", kind: "relisted-revoked", deviceId: bob2.secrets.record.deviceId });
    expect(e2eOf(relisted.envelope!).keys.map((k) => k.to)).toEqual([bob.secrets.record.publicKey]);
    // The withdrawn device itself no longer sends; made to (served the old list), Alice refuses what it says.
    await expect(bob2.session.sealDirect(draft(room, "bob"), "it is me", "alice")).rejects.toThrow(/not linked/);
    const fooled = new E2eSession(bob2.secrets, new MemoryStore(), {
      ...relay.directory,
      deviceList: async (userId) => structuredClone(userId === "bob" ? withBob2 : relay.lists.get(userId)),
    });
    const fromBob2 = await sealTo(fooled, draft(room, "bob"), "it is me", "alice");
    expect(await alice.session.open(fromBob2)).toEqual({ ok: false, reason: "unknown-device" });
  });

  it("a device record relabelled for another user is not theirs; a device not in the signed list is not heard", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const mallory = await device("mallory");
    const envelope = await sealTo(mallory.session, draft(room, "mallory"), "hello", "bob");
    expect(await bob.session.open({ ...envelope, senderId: "alice" })).toEqual({ ok: false, reason: "unknown-device" });
    const real = await sealTo(alice.session, draft(room, "alice"), "hi bob", "bob");
    expect(await bob.session.open(real)).toMatchObject({ ok: true, changes: [] });
    // The server makes a device for Alice and speaks through it: not in her signed list, so not heard.
    const ghost = await createDevice("alice", "server-ghost");
    await expect(new E2eSession(ghost, new MemoryStore(), relay.directory).sealDirect(draft(room, "alice"), "x", "bob")).rejects.toThrow(
      /not linked/,
    );
    // Its own session is shown a list of its own for Alice; Bob's is not.
    const own = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: ghost.record }, "alice"));
    const session = new E2eSession(ghost, new MemoryStore(), {
      ...relay.directory,
      deviceList: async (userId) => structuredClone(userId === "alice" ? own : relay.lists.get(userId)),
    });
    const forged = await sealTo(session, draft(room, "alice"), "send me the code", "bob");
    expect(await bob.session.open(forged)).toEqual({ ok: false, reason: "unknown-device" });
  });
});

/** A version 2 direct message as clients sealed them before the ratchet (static pairwise wraps), for history. */
async function sealStaticV2(from: DeviceSecrets, envelope: Envelope, text: string, to: DeviceRecord): Promise<Envelope> {
  const meta = { device: from.record.signingKey, dh: from.record.publicKey, counter: 0 };
  const keyId = newId(12);
  const header = canonicalHeader({ ...envelope, ...meta, keyId });
  const messageKey = crypto.getRandomValues(new Uint8Array(32));
  const ikm = await crypto.subtle.importKey("raw", messageKey, "HKDF", false, ["deriveKey"]);
  const info = new TextEncoder().encode(`msg|${header}`);
  const salt = new TextEncoder().encode("linkup-e2e-v2");
  const key = await crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info }, ikm, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
  ]);
  const content = await encryptContent(key, text, header);
  const pairwise = await derivePairwiseKey(from.dh, to.publicKey, `v2|${envelope.room}`);
  const wrap = await encryptContent(pairwise, toBase64Url(messageKey), `${header}|to|${to.publicKey}`);
  const signed = new TextEncoder().encode(JSON.stringify([header, content.iv, content.ciphertext, ""]));
  const sig = toBase64Url(new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, from.signing.privateKey, signed)));
  const keys = [{ to: to.publicKey, ciphertext: wrap.ciphertext, iv: wrap.iv }];
  return { ...envelope, content: { ciphertext: content.ciphertext, iv: content.iv, keyId }, meta: { e2e: { v: 2, ...meta, sig, keys } } };
}

/** What a thief copies from a device: its whole store (ratchet states, prekeys), minus the replay list. */
function steal(store: MemoryStore): MemoryStore {
  const copy = new MemoryStore();
  for (const [k, v] of store.map) if (!k.startsWith("e2e:seen:")) copy.map.set(k, structuredClone(v));
  return copy;
}

describe("direct messages with the Double Ratchet", () => {
  const room = "dm:alice:bob";
  const send = async (from: { session: E2eSession }, sender: string, text: string, to: string) =>
    sealTo(from.session, draft(room, sender), text, to);

  it("carries a conversation both ways on every device, in any order, after a lost first message", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const bob2 = await device("bob");
    const first = await send(alice, "alice", "are you home?", "bob");
    const second = await send(alice, "alice", "I am at the gate", "bob");
    expect(e2eOf(first).keys.every((k) => "x3dh" in k && "r" in k)).toBe(true);
    // The relay holds the first message back: the second carries the X3DH header too and starts the session.
    expect(await bob.session.open(second)).toMatchObject({ ok: true, text: "I am at the gate" });
    expect(await bob.session.open(first)).toMatchObject({ ok: true, text: "are you home?" });
    expect(await bob2.session.open(first)).toMatchObject({ ok: true, text: "are you home?" });
    expect(await bob2.session.open(second)).toMatchObject({ ok: true, text: "I am at the gate" });

    const turns: [typeof alice, string, string][] = [
      [bob, "bob", "coming"],
      [alice, "alice", "ok"],
      [bob2, "bob", "from my laptop"],
      [alice, "alice", "seen"],
      [bob, "bob", "door open"],
    ];
    for (const [from, sender, text] of turns) {
      const envelope = await send(from, sender, text, sender === "bob" ? "alice" : "bob");
      // Once the peer has answered, a session no longer carries the X3DH header.
      for (const reader of [alice, bob, bob2].filter((d) => d !== from))
        expect(await reader.session.open(envelope)).toMatchObject({ ok: true, text });
    }
    const last = await send(alice, "alice", "bye", "bob");
    expect(e2eOf(last).keys.some((k) => "x3dh" in k)).toBe(false);
  });

  it("refuses a replay and a reordered copy, and uses each one-time prekey for one first message only", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const messages = [];
    for (const text of ["one", "two", "three"]) messages.push(await send(alice, "alice", text, "bob"));
    for (const m of [messages[2]!, messages[0]!, messages[1]!]) expect(await bob.session.open(m)).toMatchObject({ ok: true });
    for (const m of messages) expect(await bob.session.open(structuredClone(m))).toEqual({ ok: false, reason: "replay" });
    // Even with the replay list gone, the ratchet has no key for them any more, and the first message's
    // one-time prekey is deleted, so the X3DH header cannot start a second session.
    const forgetful = new E2eSession(bob.secrets, steal(bob.store), relay.directory);
    for (const m of messages) expect(await forgetful.open(m)).toEqual({ ok: false, reason: "undecryptable" });
  });

  it("a stolen device state opens no earlier message, and no later one after the next round trip", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const earlier = [await send(alice, "alice", "the PIN is 4821", "bob"), await send(alice, "alice", "delete this", "bob")];
    for (const m of earlier) expect(await bob.session.open(m)).toMatchObject({ ok: true });
    expect(await alice.session.open(await send(bob, "bob", "done", "alice"))).toMatchObject({ ok: true });

    // The thief copies Bob's keys and state (and the relay kept every ciphertext).
    const thief = new E2eSession(bob.secrets, steal(bob.store), relay.directory);
    for (const m of earlier) expect(await thief.open(m)).toEqual({ ok: false, reason: "undecryptable" });

    // Until Bob's next reply the thief follows the chain it stole; after the round trip it is locked out.
    const next = await send(alice, "alice", "still there?", "bob");
    expect(await thief.open(next)).toMatchObject({ ok: true });
    expect(await bob.session.open(next)).toMatchObject({ ok: true });
    expect(await alice.session.open(await send(bob, "bob", "yes", "alice"))).toMatchObject({ ok: true });
    const healed = await send(alice, "alice", "new plan", "bob");
    expect(await thief.open(healed)).toEqual({ ok: false, reason: "undecryptable" });
    expect(await bob.session.open(healed)).toMatchObject({ ok: true, text: "new plan" });
  });

  it("a key kept for a late message is deleted once it opened it", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const one = await send(alice, "alice", "first", "bob");
    const two = await send(alice, "alice", "second", "bob");
    // Bob opens the second first, so the first's key waits in his store until the first arrives.
    expect(await bob.session.open(two)).toMatchObject({ ok: true });
    expect(await new E2eSession(bob.secrets, steal(bob.store), relay.directory).open(one)).toMatchObject({ ok: true, text: "first" });
    expect(await bob.session.open(one)).toMatchObject({ ok: true });
    const thief = new E2eSession(bob.secrets, steal(bob.store), relay.directory);
    for (const m of [one, two]) expect(await thief.open(m)).toEqual({ ok: false, reason: "undecryptable" });
  });

  it("both people starting at the same moment still end up talking", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const fromAlice = await send(alice, "alice", "hello", "bob");
    const fromBob = await send(bob, "bob", "hi", "alice");
    expect(await alice.session.open(fromBob)).toMatchObject({ ok: true, text: "hi" });
    expect(await bob.session.open(fromAlice)).toMatchObject({ ok: true, text: "hello" });
    for (let i = 0; i < 3; i++) {
      expect(await bob.session.open(await send(alice, "alice", `a${i}`, "bob"))).toMatchObject({ ok: true, text: `a${i}` });
      expect(await alice.session.open(await send(bob, "bob", `b${i}`, "alice"))).toMatchObject({ ok: true, text: `b${i}` });
    }
  });

  it("refuses a prekey the server signed itself, and waits for a contact with no prekeys", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const server = await createDevice("bob", bob.secrets.record.deviceId);
    const held = relay.prekeys.get(`bob|${bob.secrets.record.deviceId}`)!;
    const upload = await new E2eSession(server, new MemoryStore(), relay.directory).prekeysToPublish({
      signedPrekeyId: null,
      oneTimePrekeys: 0,
    });
    relay.prekeys.set(`bob|${bob.secrets.record.deviceId}`, { ...held, signed: upload?.signedPrekey });
    await expect(send(alice, "alice", "hi", "bob")).rejects.toThrow("Waiting for the other person to open LinkUp");
  });

  it("still opens version 2 messages (static keys) kept from before, and a relay cannot relabel a version", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const old = await sealStaticV2(alice.secrets, draft(room, "alice"), "from last week", bob.secrets.record);
    expect(await bob.session.open(old)).toMatchObject({ ok: true, text: "from last week" });
    const relabelled = relay.rewrite(await send(alice, "alice", "now", "bob"), (e) => {
      (e2eOf(e) as unknown as { v: number }).v = 2;
    });
    expect(await bob.session.open(relabelled)).toEqual({ ok: false, reason: "bad-signature" });
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

  it("a device key stolen later does not open the sender keys handed out before, nor the messages under them", async () => {
    const { alice, bob, carol } = await group();
    const { envelopes } = await alice.session.prepareGroup(room, ["bob", "carol"], base("alice"));
    await deliverKeys(envelopes, bob, carol);
    const said = await alice.session.sealGroup(draft(room, "alice"), "meet at the depot");
    expect(await bob.session.open(said)).toMatchObject({ ok: true });
    // The relay kept the handout; the thief takes Bob's device keys and state but not the chain he holds.
    const thiefStore = steal(bob.store);
    for (const k of [...thiefStore.map.keys()]) if (k.startsWith("e2e:sk:")) thiefStore.map.delete(k);
    const thief = new E2eSession(bob.secrets, thiefStore, relay.directory);
    const forBob = envelopes.find((e) => e2eOf(e).for === "bob")!;
    expect(await thief.acceptSenderKey(forBob)).toEqual({ ok: false, reason: "undecryptable" });
    expect(await thief.open(said)).toEqual({ ok: false, reason: "no-key" });
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
    expect(await bob.session.acceptSenderKey(carolToBob)).toEqual({ ok: true, changes: [], problems: [] });
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
    // A new device of a member: nothing is handed to it until it was shown; then a new key.
    const bob2 = await device("bob");
    const shown = await alice.session.prepareGroup(room, ["bob"], base("alice"));
    expect(shown).toMatchObject({ envelopes: [], waiting: true });
    expect(shown.changes).toEqual([
      { userId: "bob", deviceId: bob2.secrets.record.deviceId, kind: "new-device", key: bob2.secrets.record.signingKey },
    ]);
    await alice.session.acknowledge(shown.changes);
    const withDevice = await alice.session.prepareGroup(room, ["bob"], base("alice"));
    expect(withDevice.changes).toEqual([]);
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

describe("calls bound to the chat", () => {
  const room = "dm:alice:bob";
  const sdp = (fp: string) =>
    `v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=fingerprint:sha-256 ${fp}\r\na=setup:actpass\r\n`;
  const alicesFp = Array.from({ length: 32 }, (_, i) => (i + 16).toString(16).toUpperCase()).join(":");
  const serversFp = Array.from({ length: 32 }, () => "EE").join(":");

  it("the other side's SDP opens only when the other person's listed device sealed it for this call", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const me = { id: "alice", nickname: "Alice" };
    const wire = await sealSdp(alice.session, { room, me, peerId: "bob", callId: "call-1", kind: "offer", sdp: sdp(alicesFp) });
    expect(wire).not.toContain(alicesFp);
    const call = { room, peerId: "alice", callId: "call-1", kind: "offer" as const };
    const opened = await openSdp(bob.session, { ...call, wire });
    expect(opened).toEqual({ ok: true, sdp: sdp(alicesFp) });
    expect(sdpFingerprints(opened.ok ? opened.sdp : "")).toEqual([`sha-256 ${alicesFp}`]);
    // The relay swaps in an SDP with its own fingerprint: plain, it is refused.
    expect(await openSdp(bob.session, { ...call, callId: "call-2", wire: sdp(serversFp) })).toEqual({ ok: false, reason: "not-sealed" });
    // Sealed by a device of its own under Alice's name: not in her signed list.
    const ghost = await createDevice("alice", "server-ghost");
    const own = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: ghost.record }, "alice"));
    const ghostSession = new E2eSession(ghost, new MemoryStore(), {
      ...relay.directory,
      deviceList: async (userId) => structuredClone(userId === "alice" ? own : relay.lists.get(userId)),
    });
    const forged = await sealSdp(ghostSession, { room, me, peerId: "bob", callId: "call-2", kind: "offer", sdp: sdp(serversFp) });
    expect(await openSdp(bob.session, { ...call, callId: "call-2", wire: forged })).toEqual({ ok: false, reason: "unknown-device" });
    // Alice's real offer moved to another call, or relabelled as an answer, or replayed: refused.
    expect(await openSdp(bob.session, { ...call, callId: "call-3", wire })).toEqual({ ok: false, reason: "wrong-call" });
    expect(await openSdp(bob.session, { ...call, kind: "answer", wire })).toEqual({ ok: false, reason: "wrong-call" });
    expect(await openSdp(bob.session, { ...call, wire })).toEqual({ ok: false, reason: "replay" });
    // The fingerprint inside rewritten on the way: the signature fails.
    const tampered = JSON.parse(wire) as Envelope;
    if ("ciphertext" in tampered.content)
      tampered.content.ciphertext = tampered.content.ciphertext.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    expect((await openSdp(bob.session, { ...call, wire: JSON.stringify(tampered) })).ok).toBe(false);
  });

  it("no call is set up with a contact whose keys changed until the chat has shown it", async () => {
    const alice = await device("alice");
    await device("bob");
    await sealTo(alice.session, draft(room, "alice"), "hi", "bob");
    await device("bob");
    const me = { id: "alice", nickname: "Alice" };
    await expect(sealSdp(alice.session, { room, me, peerId: "bob", callId: "c", kind: "offer", sdp: sdp(alicesFp) })).rejects.toThrow(
      /security keys changed/,
    );
  });
});

describe("two tabs of one browser", () => {
  const room = "dm:alice:bob";
  /** Web Locks as a browser has them: one holder per name at a time, across every tab. */
  class SharedLocks {
    private readonly held = new Map<string, Promise<unknown>>();
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const run = (this.held.get(name) ?? Promise.resolve()).then(callback, callback);
      this.held.set(
        name,
        run.catch(() => {}),
      );
      return run;
    }
  }

  it("never step one ratchet from the same state: both tabs' messages open", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    expect(await bob.session.open(await sealTo(alice.session, draft(room, "alice"), "first", "bob"))).toMatchObject({ ok: true });
    const locks = new SharedLocks();
    // Both tabs read the counter and ratchet state before either writes (each read waits a moment for the
    // other tab's), unless the lock keeps them apart.
    const waiting = new Map<string, () => void>();
    const shared: KeyValueStore = {
      get: async <T>(key: string) => {
        const value = await alice.store.get<T>(key);
        if (!key.startsWith("e2e:counter:") && !key.startsWith("e2e:dr:")) return value;
        const other = waiting.get(key);
        if (other) {
          waiting.delete(key);
          other();
        } else await Promise.race([new Promise<void>((r) => waiting.set(key, r)), new Promise((r) => setTimeout(r, 50))]);
        return value;
      },
      set: (key, value) => alice.store.set(key, value),
    };
    const tab1 = new E2eSession(alice.secrets, shared, relay.directory, locks);
    const tab2 = new E2eSession(alice.secrets, shared, relay.directory, locks);
    const [a, b] = await Promise.all([
      sealTo(tab1, draft(room, "alice"), "from tab one", "bob"),
      sealTo(tab2, draft(room, "alice"), "from tab two", "bob"),
    ]);
    expect(e2eOf(a).counter).not.toBe(e2eOf(b).counter);
    expect(await bob.session.open(a)).toMatchObject({ ok: true, text: "from tab one" });
    expect(await bob.session.open(b)).toMatchObject({ ok: true, text: "from tab two" });
  });
});

describe("key entries and X3DH headers authenticated before any chain step (versions 4 and 5)", () => {
  const room = "dm:alice:bob";
  type Entry = {
    to: string;
    r: { header: { dh: string; n: number; pn: number }; ciphertext: string };
    x3dh?: { ek: string; spk: number; opk?: number };
  };
  const entries = (e: Envelope) => e2eOf(e).keys as unknown as Entry[];

  /** Alice's phone as it sealed before version 5 (same keys, same store): signed key entries. */
  class VersionFour extends E2eSession {
    sealV4(envelope: Envelope, text: string, peerId: string) {
      return this.sealDirectAs(envelope, text, peerId, 4);
    }
  }

  it("a rewritten key entry or X3DH header is refused before any chain step, and the real message opens after", async () => {
    const alice = await device("alice");
    const alice2 = await device("alice");
    const bob = await device("bob");
    const v4 = new VersionFour(alice.secrets, alice.store, relay.directory);
    const first = (await v4.sealV4(draft(room, "alice"), "hello", "bob")).envelope!;
    expect(e2eOf(first)).toMatchObject({ v: 4 });
    const other = await device("carol");
    const rewrites: ((keys: Entry[]) => void)[] = [
      (k) => (k[0]!.r.header.n = 5_000_000), // the jump that cost ~2,000 chain steps per copy under version 3
      (k) => (k[0]!.r.header.pn = 999),
      (k) => (k[0]!.r.header.dh = other.secrets.record.publicKey),
      (k) => (k[0]!.r.ciphertext = k[1]!.r.ciphertext),
      (k) => (k[0]!.x3dh!.ek = other.secrets.record.publicKey),
      (k) => (k[0]!.x3dh!.spk += 1),
      (k) => delete k[0]!.x3dh!.opk,
      (k) => delete k[0]!.x3dh,
      (k) => k.splice(1, 1), // Alice's other device's entry dropped
      (k) => (k[1]!.to = bob.secrets.record.publicKey),
    ];
    for (const change of rewrites) {
      const forged = relay.rewrite(first, (e) => change(entries(e)));
      let opened: unknown;
      expect(await hmacsDuring(async () => (opened = await bob.session.open(forged)))).toBe(0);
      expect(opened).toEqual({ ok: false, reason: "bad-signature" });
    }
    expect(await bob.session.open(first)).toMatchObject({
      ok: true,
      text: "hello",
    });
    expect(await alice2.session.open(first)).toMatchObject({
      ok: true,
      text: "hello",
    });
    // Later messages (no X3DH header any more): a jump claimed for the next one is refused the same way.
    expect(await alice.session.open(await sealTo(bob.session, draft(room, "bob"), "hi", "alice"))).toMatchObject({ ok: true });
    const next = (await v4.sealV4(draft(room, "alice"), "two", "bob")).envelope!;
    const jumped = relay.rewrite(next, (e) => (entries(e)[0]!.r.header.n = 1999));
    let opened: unknown;
    expect(await hmacsDuring(async () => (opened = await bob.session.open(jumped)))).toBe(0);
    expect(opened).toEqual({ ok: false, reason: "bad-signature" });
    expect(await bob.session.open(next)).toMatchObject({
      ok: true,
      text: "two",
    });
  });

  /** Alice's phone as it sealed before version 4 (same keys, same store). */
  class VersionThree extends E2eSession {
    sealV3(envelope: Envelope, text: string, peerId: string) {
      return this.sealDirectAs(envelope, text, peerId, 3);
    }
  }

  it("version 3 messages kept from before still open; once a device sent version 4, its version 3 is refused", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const old = new VersionThree(alice.secrets, alice.store, relay.directory);
    const a = (await old.sealV3(draft(room, "alice"), "sent before the update", "bob")).envelope!;
    const b = (await old.sealV3(draft(room, "alice"), "also before, delivered late", "bob")).envelope!;
    expect(e2eOf(a)).toMatchObject({ v: 3 });
    const c = await sealTo(alice.session, draft(room, "alice"), "after the update", "bob");
    expect(e2eOf(c)).toMatchObject({ v: 5 });
    expect(await bob.session.open(a)).toMatchObject({
      ok: true,
      text: "sent before the update",
    });
    expect(await bob.session.open(c)).toMatchObject({
      ok: true,
      text: "after the update",
    });
    expect(await bob.session.open(b)).toMatchObject({
      ok: true,
      text: "also before, delivered late",
    });
    // A relay cannot make a new message version 3 (the version is in the signed header), and a version 3
    // message counted after the first version 4 one (its entries unsigned) is not believed.
    const relabelled = relay.rewrite(await sealTo(alice.session, draft(room, "alice"), "now", "bob"), (e) => {
      (e2eOf(e) as unknown as { v: number }).v = 3;
    });
    expect(await bob.session.open(relabelled)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
    const d = (await old.sealV3(draft(room, "alice"), "unsigned entries", "bob")).envelope!;
    expect(await bob.session.open(d)).toEqual({
      ok: false,
      reason: "downgraded",
    });
  });

  it("version 5 (deniable): a rewritten entry, X3DH header, header or content is refused by the entry's MAC before any chain step", async () => {
    const alice = await device("alice");
    const alice2 = await device("alice");
    const bob = await device("bob");
    const first = await sealTo(alice.session, draft(room, "alice"), "hello", "bob");
    expect(e2eOf(first)).toMatchObject({ v: 5 });
    const other = await device("carol");
    const bobs = (e: Envelope) => entries(e).find((k) => k.to === bob.secrets.record.publicKey)!;
    const rewrites: ((e: Envelope) => void)[] = [
      (e) => (bobs(e).r.header.n = 5_000_000),
      (e) => (bobs(e).r.header.pn = 999),
      (e) => (bobs(e).r.header.dh = other.secrets.record.publicKey),
      (e) => (bobs(e).r.ciphertext = entries(e).find((k) => k !== bobs(e))!.r.ciphertext),
      (e) => (bobs(e).x3dh!.ek = other.secrets.record.publicKey),
      (e) => (bobs(e).x3dh!.spk += 1),
      (e) => delete bobs(e).x3dh!.opk,
      (e) => delete bobs(e).x3dh,
      (e) => (e.timestamp -= 60_000),
      (e) => (e2eOf(e).counter += 1),
      (e) =>
        Object.assign(e.content, {
          ciphertext: (e.content as { ciphertext: string }).ciphertext.replace(/^./, (c) => (c === "A" ? "B" : "A")),
        }),
    ];
    for (const change of rewrites) {
      let opened: unknown;
      expect(await hmacsDuring(async () => (opened = await bob.session.open(relay.rewrite(first, change))))).toBe(0);
      expect(opened).toEqual({ ok: false, reason: "bad-signature" });
    }
    // A relabelled version needs a signature that version 5 never had.
    for (const v of [3, 4])
      expect(await bob.session.open(relay.rewrite(first, (e) => ((e2eOf(e) as unknown as { v: number }).v = v)))).toEqual({
        ok: false,
        reason: "bad-signature",
      });
    expect(await bob.session.open(first)).toMatchObject({ ok: true, text: "hello" });
    // Another message's content under this message's entries (what a recipient holding the shared content key
    // could try on the sender's other devices): Alice's other device refuses it, then opens the real one.
    const second = await sealTo(alice.session, draft(room, "alice"), "second", "bob");
    const swapped = relay.rewrite(first, (e) =>
      Object.assign(e.content, { ciphertext: (second.content as { ciphertext: string }).ciphertext }),
    );
    expect(await alice2.session.open(swapped)).toEqual({ ok: false, reason: "bad-signature" });
    expect(await alice2.session.open(first)).toMatchObject({ ok: true, text: "hello" });
  });

  it("version 5 is deniable: no signature, and the recipient can make every authenticator of the message himself", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const envelope = await sealTo(alice.session, draft(room, "alice"), "meet at the junction", "bob");
    const meta = e2eOf(envelope) as unknown as { sig?: string; keys: (Entry & { mac: string })[] };
    expect(meta.sig).toBeUndefined();
    expect(await bob.session.open(envelope)).toMatchObject({ ok: true, text: "meet at the junction" });
    // The entry's MAC key comes from Bob's own identity key and Alice's public one: Bob could have made it.
    const mine = meta.keys.find((k) => k.to === bob.secrets.record.publicKey)!;
    const header = canonicalHeader(
      {
        room,
        id: envelope.id,
        senderId: "alice",
        device: alice.secrets.record.signingKey,
        dh: alice.secrets.record.publicKey,
        timestamp: envelope.timestamp,
        type: envelope.type,
        keyId: (envelope.content as { keyId: string }).keyId,
        counter: e2eOf(envelope).counter,
      },
      5,
    );
    const content = envelope.content as { iv: string; ciphertext: string };
    const key = await entryMacKey(bob.secrets.dh, bob.secrets.record.publicKey, alice.secrets.record.publicKey);
    const { mac: _mac, ...entry } = mine;
    expect(await macEntry(key, header, entry, await contentBinding(header, content.iv, content.ciphertext))).toBe(mine.mac);
  });

  it("pads plaintexts to 160-byte buckets: lengths within a bucket give equal ciphertexts", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const length = async (text: string) => {
      const e = await sealTo(alice.session, draft(room, "alice"), text, "bob");
      expect(await bob.session.open(e)).toMatchObject({ ok: true, text });
      return fromBase64Url((e.content as { ciphertext: string }).ciphertext).byteLength;
    };
    const short = await length("ok");
    expect(await length("x".repeat(159))).toBe(short);
    expect(await length("é".repeat(40))).toBe(short);
    expect(await length("x".repeat(160))).toBe(short + 160);
    expect(await length("x".repeat(319))).toBe(short + 160);
    expect(short).toBe(160 + 16); // one bucket and the AES-GCM tag
  });
});

describe("a device-wide cap on kept skipped keys", () => {
  // About 10,000 chain steps in all: given time on a busy machine.
  it("holds across many sessions: past DEVICE_MAX_SKIPPED the oldest kept keys go first", { timeout: 60_000 }, async () => {
    const bob = await device("bob");
    const contacts = ["c1", "c2", "c3", "c4", "c5"];
    const held: Envelope[] = [];
    for (const id of contacts) {
      const contact = await device(id);
      const room = `dm:bob:${id}`;
      expect(await bob.session.open(await sealTo(contact.session, draft(room, id), "hi", "bob"))).toMatchObject({ ok: true });
      // The relay holds message 1 back; the contact's client skips 998 more (a contact the server made may do
      // anything with its own chain), then sends message 1000, which Bob opens, keeping 999 keys for the gap.
      held.push(await sealTo(contact.session, draft(room, id), "late", "bob"));
      const key = `e2e:dr:bob|${bob.secrets.record.deviceId}|${bob.secrets.record.signingKey}`;
      const sessions = (await contact.store.get<{ state: RatchetState }[]>(key))!;
      for (let i = 0; i < 998; i++) sessions[0]!.state = (await ratchetEncrypt(sessions[0]!.state, "skipped", "")).state;
      await contact.store.set(key, sessions);
      expect(await bob.session.open(await sealTo(contact.session, draft(room, id), "far ahead", "bob"))).toMatchObject({ ok: true });
    }
    const kept = async () => {
      let n = 0;
      for (const [k, v] of bob.store.map)
        if (k.startsWith("e2e:dr:")) for (const s of v as { state: RatchetState }[]) n += s.state.skipped.size;
      return n;
    };
    // 5 × 999 were kept on the way; the device holds DEVICE_MAX_SKIPPED, the first contact's oldest gone.
    expect(await kept()).toBe(DEVICE_MAX_SKIPPED);
    expect(await bob.session.open(held[0]!)).toEqual({
      ok: false,
      reason: "undecryptable",
    });
    for (const late of held.slice(1))
      expect(await bob.session.open(late)).toMatchObject({
        ok: true,
        text: "late",
      });
    expect(await kept()).toBe(DEVICE_MAX_SKIPPED - 4);
  });
});

describe("signed prekeys that age", () => {
  const room = "dm:alice:bob";
  const day = 24 * 3600_000;
  const status = (d: { secrets: DeviceSecrets }) => {
    const held = relay.prekeys.get(`${d.secrets.record.userId}|${d.secrets.record.deviceId}`);
    return { signedPrekeyId: held?.signed?.keyId ?? null, oneTimePrekeys: held?.oneTime.length ?? 0 };
  };

  it("are replaced after a week; a first message to the old one opens within the grace period, and not after it", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    const t0 = Date.now();
    const first = status(bob).signedPrekeyId;
    // Within the week nothing is published (one-time prekeys are still plenty).
    expect(await bob.session.prekeysToPublish(status(bob), t0 + 6 * day)).toBeNull();
    // First messages sealed to the week-old signed prekey, held back by the relay (no one-time prekey left, so
    // the signed prekey is what opens them).
    relay.prekeys.get(`bob|${bob.secrets.record.deviceId}`)!.oneTime = [];
    const late = await sealTo(alice.session, draft(room, "alice"), "sealed before the rotation", "bob");
    const dave = await device("dave");
    const lateDave = await sealTo(dave.session, draft("dm:bob:dave", "dave"), "also before it", "bob");
    const rotated = await bob.session.prekeysToPublish(status(bob), t0 + SIGNED_PREKEY_MAX_AGE_MS + day);
    expect(rotated?.signedPrekey?.keyId).toBeGreaterThan(first!);
    relay.publishPrekeys(bob.secrets.record, rotated!);
    // The old private half is kept for the grace period: a late first message still opens.
    expect(await bob.session.open(late)).toMatchObject({ ok: true, text: "sealed before the rotation" });
    const duringGrace = new E2eSession(bob.secrets, steal(bob.store), relay.directory);
    expect(await duringGrace.open(structuredClone(lateDave))).toMatchObject({ ok: true, text: "also before it" });
    // After the grace period it is deleted: the first message kept from before no longer opens, on the device
    // or for anyone who steals it from then on.
    await bob.session.prekeysToPublish(status(bob), t0 + SIGNED_PREKEY_MAX_AGE_MS + day + SIGNED_PREKEY_GRACE_MS);
    expect(await bob.store.get(`e2e:spk:${first}`)).toBeUndefined();
    expect(await bob.store.get(`e2e:spk:${rotated!.signedPrekey!.keyId}`)).toBeDefined();
    expect(await bob.session.open(lateDave)).toEqual({ ok: false, reason: "undecryptable" });
    // New contacts start on the new signed prekey and are read.
    const carol = await device("carol");
    const hello = await sealTo(carol.session, draft("dm:bob:carol", "carol"), "hi after the rotation", "bob");
    expect(await bob.session.open(hello)).toMatchObject({ ok: true, text: "hi after the rotation" });
  });
});

describe("withheld one-time prekeys", () => {
  it("still give a secret first message, and the sender's device remembers it to say in the chat's info", async () => {
    const alice = await device("alice");
    const bob = await device("bob");
    await device("carol");
    expect(await sealTo(alice.session, draft("dm:alice:carol", "alice"), "hello carol", "carol")).toBeTruthy();
    expect(await alice.session.missingOneTimePrekeys("carol")).toBeNull();
    // The server hands out Bob's bundle without its one-time prekey.
    relay.prekeys.get(`bob|${bob.secrets.record.deviceId}`)!.oneTime = [];
    const first = await sealTo(alice.session, draft("dm:alice:bob", "alice"), "hello bob", "bob");
    expect(await alice.session.missingOneTimePrekeys("bob")).toEqual(expect.any(Number));
    expect(await bob.session.open(first)).toMatchObject({ ok: true, text: "hello bob" });
    expect(await alice.session.missingOneTimePrekeys("carol")).toBeNull();
  });
});
