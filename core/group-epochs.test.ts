// Group membership in signed epochs against a malicious server (docs/protocol.md §6a): the shared test double
// (core/testing/malicious-server.ts), which holds the keys directory, the group's statements and the relay, tries
// to add a member of its own, keep a removed member talking, roll the epoch back, fork it, pass off a change
// signed by someone without the right, withhold a removal from one member's device, and rewrite a key handout.
// Everything runs through the real client code (core/e2e.ts sessions, core/group-epochs.ts membership).
import { beforeEach, describe, expect, it } from "vitest";
import { type DeviceSecrets, E2eSession } from "./e2e";
import type { Envelope } from "./envelope";
import {
  applyChange,
  BEHIND,
  epochHash,
  type GroupEpoch,
  GroupMembership,
  LOOK_EVERY_MS,
  STALE_AFTER_MS,
  signChange,
  signEpoch,
} from "./group-epochs";
import { newId } from "./ids";
import { hmacsDuring, MaliciousServer, MemoryStore } from "./testing/malicious-server";

let server: MaliciousServer;
const room = "group:market-women";

interface Member {
  secrets: DeviceSecrets;
  session: E2eSession;
  group: GroupMembership;
  store: MemoryStore;
}

async function member(userId: string): Promise<Member> {
  const { secrets, session, store } = await server.device(userId);
  return { secrets, session, store, group: new GroupMembership(secrets, session, store, server.groupsFor(secrets.record)) };
}

const base = (senderId: string) => ({ senderId, timestamp: Date.now(), ttl: 8, meshRoute: [], priority: "normal" as const });
const draft = (senderId: string): Envelope => ({
  ...base(senderId),
  id: newId(),
  room,
  type: "text",
  isEncrypted: true,
  content: { text: "" },
});
const forOf = (e: Envelope) => (e.meta?.e2e as { for?: string } | undefined)?.for;
const forWhom = (envelopes: Envelope[]) => envelopes.map(forOf).sort();

/** Hands out `from`'s sender key as the group's signed membership says, and delivers it to everyone listed. */
async function handOut(from: Member, ...to: Member[]) {
  const handout = await from.group.prepare(room, base(from.secrets.record.userId));
  for (const e of handout.envelopes) for (const m of to) await m.group.acceptSenderKey(e);
  return handout;
}

/** Alice's group with Bob and Carol, as every member sees it after a look at the server. */
async function marketGroup() {
  const alice = await member("alice");
  const bob = await member("bob");
  const carol = await member("carol");
  await alice.group.create(room);
  await alice.group.change(room, { kind: "add", userId: "bob" });
  await alice.group.change(room, { kind: "add", userId: "carol" });
  for (const m of [bob, carol]) await m.group.refresh(room);
  // Alice's device shows each addition in the chat before her sender key goes to them.
  const view = await alice.group.refresh(room);
  expect(view.unshown).toEqual(["bob", "carol"]);
  await alice.group.acknowledge(room, view.unshown);
  return { alice, bob, carol };
}

beforeEach(() => {
  server = new MaliciousServer();
});

describe("membership rules", () => {
  it("owner and admins add and remove, anyone leaves, only the owner names admins", () => {
    const members = [
      { userId: "o", role: "owner" as const },
      { userId: "a", role: "admin" as const },
      { userId: "m", role: "member" as const },
    ];
    expect(applyChange(members, { kind: "add", userId: "n" }, "m")).toBe("no-right");
    expect(applyChange(members, { kind: "remove", userId: "a" }, "m")).toBe("no-right");
    expect(applyChange(members, { kind: "remove", userId: "o" }, "a")).toBe("no-right");
    expect(applyChange(members, { kind: "role", userId: "m", role: "admin" }, "a")).toBe("no-right");
    expect(applyChange(members, { kind: "add", userId: "n" }, "x")).toBe("not-a-member");
    expect(applyChange(members, { kind: "add", userId: "n" }, "a")).toEqual([...members, { userId: "n", role: "member" }]);
    expect(applyChange(members, { kind: "remove", userId: "m" }, "m")).toEqual(members.slice(0, 2));
    // The owner leaving hands the group to the longest-standing member.
    expect(applyChange(members, { kind: "remove", userId: "o" }, "o")).toEqual([
      { userId: "a", role: "owner" },
      { userId: "m", role: "member" },
    ]);
  });
});

describe("groups whose membership members agree on", () => {
  it("members read each other; no sender key goes to a new member before the chat showed them", async () => {
    const { alice, bob, carol } = await marketGroup();
    const first = await handOut(alice, bob, carol);
    expect(forWhom(first.envelopes)).toEqual(["bob", "carol"]);
    const said = await alice.group.seal(draft("alice"), "tomatoes 4800");
    expect(await bob.group.open(said)).toMatchObject({ ok: true, text: "tomatoes 4800" });
    expect(await carol.group.open(structuredClone(said))).toMatchObject({ ok: true, text: "tomatoes 4800" });
    // Bob's device sees Dave added by the owner; until Bob's chat has shown it, Bob's key goes to Alice and Carol only.
    const dave = await member("dave");
    await alice.group.change(room, { kind: "add", userId: "dave" });
    const view = await bob.group.refresh(room);
    expect(view.unshown).toEqual(["dave"]);
    expect(forWhom((await bob.group.prepare(room, base("bob"), view)).envelopes)).toEqual(["alice", "carol"]);
    await bob.group.acknowledge(room, ["dave"]);
    const shown = await bob.group.prepare(room, base("bob"));
    expect(forWhom(shown.envelopes)).toEqual(["alice", "carol", "dave"]);
    await dave.group.refresh(room);
    for (const e of shown.envelopes) await dave.group.acceptSenderKey(e);
    expect(await dave.group.open(await bob.group.seal(draft("bob"), "welcome dave"))).toMatchObject({
      ok: true,
      text: "welcome dave",
    });
  });

  it("a member the server adds gets no sender key, and what it sends is refused", async () => {
    const { alice, bob, carol } = await marketGroup();
    const mallory = await member("mallory");
    // The server cannot sign as a member; it tries Mallory's own signature, and a statement with her slipped in.
    const held = (await alice.group.held(room))!;
    const selfAdded = await signChange(mallory.secrets, held, { kind: "add", userId: "mallory" });
    expect(selfAdded).toBe("not-a-member");
    const forged = await signEpoch(mallory.secrets, {
      room,
      epoch: held.epoch + 1,
      prev: await epochHash(held),
      change: { kind: "add", userId: "mallory" },
      members: [...held.members, { userId: "mallory", role: "member" }],
    });
    server.epochs.get(room)!.push(forged);
    for (const m of [alice, bob, carol]) {
      const view = await m.group.refresh(room);
      expect(view.epoch?.members.map((x) => x.userId)).toEqual(["alice", "bob", "carol"]);
      expect(view.problems).toEqual([{ room, kind: "no-right", epoch: held.epoch + 1, by: "mallory" }]);
    }
    // Every member's handout goes to the signed members only: nothing is sealed to Mallory.
    expect(forWhom((await handOut(alice, bob, carol)).envelopes)).toEqual(["bob", "carol"]);
    expect(forWhom((await handOut(bob, alice, carol)).envelopes)).toEqual(["alice", "carol"]);
    // Mallory hands Bob her key and speaks: both refused.
    await mallory.group.refresh(room);
    const hers = await mallory.session.prepareGroup(room, ["alice", "bob", "carol"], base("mallory"));
    const toBob = hers.envelopes.find((e) => forOf(e) === "bob")!;
    expect(await bob.group.acceptSenderKey(toBob)).toEqual({ ok: false, reason: "not-a-member" });
    const spoken = await mallory.session.sealGroup(draft("mallory"), "send the money here");
    expect(await bob.group.open(spoken)).toEqual({ ok: false, reason: "not-a-member" });
  });

  it("a removal rotates every sender key: the removed member still sending is refused and reads nothing new", async () => {
    const { alice, bob, carol } = await marketGroup();
    await handOut(alice, bob, carol);
    await handOut(bob, alice, carol);
    await handOut(carol, alice, bob);
    const before = await alice.group.seal(draft("alice"), "before carol left");
    expect(await carol.group.open(structuredClone(before))).toMatchObject({ ok: true });
    await alice.group.change(room, { kind: "remove", userId: "carol" });
    const bobView = await bob.group.refresh(room);
    expect(bobView.gone).toEqual(["carol"]);
    expect(bobView.removed).toEqual(["carol"]);
    // Both remaining members hand out a new key, to the remaining members only.
    const aliceNew = await handOut(alice, bob, carol);
    const bobNew = await handOut(bob, alice, carol);
    expect(forWhom(aliceNew.envelopes)).toEqual(["bob"]);
    expect(forWhom(bobNew.envelopes)).toEqual(["alice"]);
    // Carol kept every key she ever had: the next messages of Alice and Bob do not open for her.
    const fromAlice = await alice.group.seal(draft("alice"), "after carol left");
    const fromBob = await bob.group.seal(draft("bob"), "me too");
    expect(await carol.session.open(structuredClone(fromAlice))).toEqual({ ok: false, reason: "no-key" });
    expect(await carol.session.open(structuredClone(fromBob))).toEqual({ ok: false, reason: "no-key" });
    expect(await bob.group.open(fromAlice)).toMatchObject({ ok: true, text: "after carol left" });
    // Carol's own sender key still works as a chain, but every receiver refuses her now.
    const fromCarol = await carol.group.seal(draft("carol"), "still here");
    expect(await bob.group.open(structuredClone(fromCarol))).toEqual({ ok: false, reason: "not-a-member" });
    expect(await alice.group.open(fromCarol)).toEqual({ ok: false, reason: "not-a-member" });
    // And her device, seeing the signed removal, seals nothing more.
    await carol.group.refresh(room);
    await expect(carol.group.prepare(room, base("carol"))).rejects.toThrow("not in this group's signed membership");
  });

  it("a receiver that has not looked since a removal refuses the removed member within LOOK_EVERY_MS", async () => {
    const { alice, bob, carol } = await marketGroup();
    let now = 1_000_000;
    const bobLate = new GroupMembership(bob.secrets, bob.session, bob.store, server.groupsFor(bob.secrets.record), () => now);
    await bobLate.refresh(room);
    await handOut(carol, alice, bob);
    const early = await carol.group.seal(draft("carol"), "before");
    expect(await bobLate.open(early)).toMatchObject({ ok: true, text: "before" });
    // Alice removes Carol; Bob's device sends nothing and is told nothing.
    await alice.group.change(room, { kind: "remove", userId: "carol" });
    now += LOOK_EVERY_MS;
    const late = await carol.group.seal(draft("carol"), "still talking");
    expect(await bobLate.open(late)).toEqual({ ok: false, reason: "not-a-member" });
  });

  it("refuses a rolled-back epoch and a different list under a number it saw", async () => {
    const { alice, bob } = await marketGroup();
    await alice.group.change(room, { kind: "remove", userId: "carol" });
    expect((await bob.group.refresh(room)).epoch?.epoch).toBe(4);
    const kept = server.epochs.get(room)!;
    // Rollback: the server hands out the chain up to epoch 3, when Carol was still in.
    server.epochs.set(room, kept.slice(0, 3));
    const rolled = await bob.group.refresh(room);
    expect(rolled.problems).toEqual([{ room, kind: "rolled-back", epoch: 4 }]);
    expect(rolled.epoch?.members.map((m) => m.userId)).toEqual(["alice", "bob"]);
    // A fork: Alice really signed another epoch 4 (adding Dave) that lost the race; the server swaps it in.
    const epoch3 = kept[2] as GroupEpoch;
    const other = (await signChange(alice.secrets, epoch3, { kind: "add", userId: "dave" })) as GroupEpoch;
    server.epochs.set(room, [...kept.slice(0, 3), other]);
    const forked = await bob.group.refresh(room);
    expect(forked.problems).toEqual([{ room, kind: "forked", epoch: 4, by: "alice" }]);
    expect(forked.epoch?.members.map((m) => m.userId)).toEqual(["alice", "bob"]);
    // Bob's messages still go to the members he accepted, never to Carol or Dave.
    expect(forWhom((await bob.group.prepare(room, base("bob"))).envelopes)).toEqual(["alice"]);
  });

  it("refuses a change signed by a member without the right, and lets a member leave", async () => {
    const { alice, bob, carol } = await marketGroup();
    // Bob is a member, not an admin: his client will not sign a removal, and a statement he signed is refused.
    await expect(bob.group.change(room, { kind: "remove", userId: "carol" })).rejects.toThrow("Only the group's owner or an admin");
    const held = (await bob.group.held(room))!;
    const byBob = await signChange({ ...bob.secrets, record: { ...bob.secrets.record, userId: "alice" } }, held, {
      kind: "remove",
      userId: "carol",
    });
    // Signed with Bob's device under Alice's name: not a device of Alice's signed list.
    await server.groupsFor(alice.secrets.record).publish(room, byBob as GroupEpoch);
    const view = await carol.group.refresh(room);
    expect(view.problems).toEqual([{ room, kind: "bad-signature", epoch: held.epoch + 1, by: "alice" }]);
    expect(view.epoch?.members.map((m) => m.userId)).toEqual(["alice", "bob", "carol"]);
    // The same removal honestly signed by Bob, under his name: no right.
    const members = [...held.members.filter((m) => m.userId !== "carol")];
    const honest = await signEpoch(bob.secrets, {
      room,
      epoch: held.epoch + 1,
      prev: await epochHash(held),
      change: { kind: "remove", userId: "carol" },
      members,
    });
    server.epochs.set(room, [...server.epochs.get(room)!.slice(0, held.epoch), honest]);
    expect((await carol.group.refresh(room)).problems).toEqual([{ room, kind: "no-right", epoch: held.epoch + 1, by: "bob" }]);
    // Leaving is everyone's right.
    server.epochs.set(room, server.epochs.get(room)!.slice(0, held.epoch));
    await bob.group.change(room, { kind: "remove", userId: "bob" });
    expect((await alice.group.refresh(room)).epoch?.members.map((m) => m.userId)).toEqual(["alice", "carol"]);
  });
});

describe("a device list looked at before the signer's device joined it", () => {
  it("a statement signed by a person's new device is checked against their list fetched again, not refused", async () => {
    await member("alice");
    // Bob's device keeps the lists it fetched, as the browser does (web/app/mesh/keys.ts): fresh only when asked.
    const kept = new Map<string, unknown>();
    const directory = {
      ...server.directory,
      deviceList: async (userId: string, fresh = false) => {
        if (!fresh && kept.has(userId)) return kept.get(userId);
        const list = await server.directory.deviceList(userId);
        kept.set(userId, list);
        return list;
      },
    };
    const { secrets, store } = await server.device("bob");
    const session = new E2eSession(secrets, store, directory);
    const bob = new GroupMembership(secrets, session, store, server.groupsFor(secrets.record));
    await session.trustedDevices("alice");
    // Alice opens the group on the phone she just linked: its statement is the first Bob's device sees.
    const phone = await member("alice");
    await phone.group.create(room, [{ userId: "bob", role: "member" }]);
    const view = await bob.refresh(room);
    expect(view.problems).toEqual([]);
    expect(view.epoch?.members.map((m) => m.userId).sort()).toEqual(["alice", "bob"]);
  });
});

describe("changes made at the same moment", () => {
  it("two adds from one device (two Let in pressed together) are both signed, one epoch after the other", async () => {
    const alice = await member("alice");
    await member("bob");
    await member("carol");
    await alice.group.create(room);
    await Promise.all([
      alice.group.change(room, { kind: "add", userId: "bob" }),
      alice.group.change(room, { kind: "add", userId: "carol" }),
    ]);
    const held = await alice.group.held(room);
    expect(held?.epoch).toBe(3);
    expect(held?.members.map((m) => m.userId).sort()).toEqual(["alice", "bob", "carol"]);
  });
});

describe("every group message names its sender's epoch (version 4)", () => {
  type Entry = { to: string; r: { header: { dh: string; n: number; pn: number }; ciphertext: string }; x3dh?: { ek: string; spk: number } };
  const e2e = (e: Envelope) => e.meta?.e2e as { v: number; keys: Entry[]; epoch: { epoch: number; hash: string } };

  it("a removal withheld from one member's device: it hands its key to the removed member only until another member's message under the new epoch reaches it", async () => {
    const { alice, bob, carol } = await marketGroup();
    await handOut(alice, bob, carol);
    // The server hands Bob's device nothing after epoch 3, then Alice removes Carol (epoch 4).
    server.withhold(bob.secrets.record, room, 3);
    await alice.group.change(room, { kind: "remove", userId: "carol" });
    expect((await bob.group.refresh(room)).epoch?.epoch).toBe(3);
    // The bound, as docs/protocol.md §6a says it: until anyone sends under epoch 4, Bob's device cannot tell,
    // and its key and message still go to Carol.
    const leaked = await handOut(bob, alice, carol);
    expect(forWhom(leaked.envelopes)).toEqual(["alice", "carol"]);
    const early = await bob.group.seal(draft("bob"), "before anyone spoke under epoch 4");
    expect(e2e(early)).toMatchObject({ v: 4, epoch: { epoch: 3 } });
    expect(await carol.session.open(structuredClone(early))).toMatchObject({ ok: true });
    // Alice speaks under epoch 4: a new key, for Bob only, and a message that names the epoch.
    const rotated = await handOut(alice, bob, carol);
    expect(forWhom(rotated.envelopes)).toEqual(["bob"]);
    expect(e2e(rotated.envelopes[0]!).epoch.epoch).toBe(4);
    const spoken = await alice.group.seal(draft("alice"), "carol is out");
    expect(e2e(spoken).epoch).toEqual({ epoch: 4, hash: await epochHash((await alice.group.held(room))!) });
    // Bob's device looks for epoch 4 before opening it; the server withholds it: not shown.
    expect(await bob.group.open(structuredClone(spoken))).toEqual({ ok: false, reason: "withheld-epoch" });
    expect(await bob.group.heard(room)).toBe(4);
    // From now on it hands no key and seals nothing: its messages wait, saying why.
    await expect(bob.group.prepare(room, base("bob"))).rejects.toThrow(BEHIND);
    await expect(bob.group.seal(draft("bob"), "after")).rejects.toThrow(BEHIND);
    // Alice's device refuses what Bob's device signed long after she accepted the removal, still in epoch 3;
    // one sealed while the removal was on its way still opens (history).
    const late = await bob.session.sealGroup({ ...draft("bob"), timestamp: Date.now() + STALE_AFTER_MS }, "late", e2e(early).epoch);
    expect(await alice.group.open(late)).toEqual({ ok: false, reason: "stale-epoch" });
    expect(await alice.group.open(structuredClone(early))).toMatchObject({ ok: true, text: "before anyone spoke under epoch 4" });
    // The server hands epoch 4 out again: Bob's device catches up, rotates without Carol, and reads Alice.
    server.withheld.clear();
    expect(await bob.group.open(spoken)).toMatchObject({ ok: true, text: "carol is out" });
    const caughtUp = await bob.group.prepare(room, base("bob"));
    expect(forWhom(caughtUp.envelopes)).toEqual(["alice"]);
    const after = await bob.group.seal(draft("bob"), "sealed without carol");
    expect(e2e(after).epoch.epoch).toBe(4);
    expect(await carol.session.open(after)).toEqual({ ok: false, reason: "no-key" });
  });

  it("a sender that hears of a newer epoch from a key handout alone waits too", async () => {
    const { alice, bob, carol } = await marketGroup();
    server.withhold(bob.secrets.record, room, 3);
    await alice.group.change(room, { kind: "remove", userId: "carol" });
    const rotated = await handOut(alice, bob);
    expect(forWhom(rotated.envelopes)).toEqual(["bob"]);
    expect(await bob.group.heard(room)).toBe(4);
    await expect(bob.group.prepare(room, base("bob"))).rejects.toThrow(BEHIND);
    expect(await carol.group.heard(room)).toBe(0);
  });

  it("a message naming another statement under an epoch number this device accepted is refused", async () => {
    const { alice, bob, carol } = await marketGroup();
    await handOut(alice, bob, carol);
    const epoch3 = (await alice.group.held(room))!;
    const other = (await signChange(alice.secrets, epoch3, { kind: "add", userId: "dave" })) as GroupEpoch;
    // Alice's own device signed a message naming a statement Bob never accepted (the server showed her a fork).
    const forked = await alice.session.sealGroup(draft("alice"), "fork", { epoch: 3, hash: await epochHash(other) });
    expect(await bob.group.open(forked)).toEqual({ ok: false, reason: "forked-epoch" });
    expect(await bob.group.open(await alice.group.seal(draft("alice"), "real"))).toMatchObject({ ok: true, text: "real" });
  });

  it("a rewritten key entry or epoch of a handout is refused before any chain step; older versions cannot be slipped in", async () => {
    const { alice, bob, carol } = await marketGroup();
    const handout = await alice.group.prepare(room, base("alice"));
    const toBob = handout.envelopes.find((e) => forOf(e) === "bob")!;
    expect(e2e(toBob).v).toBe(4);
    const rewrites: ((e: ReturnType<typeof e2e>) => void)[] = [
      (m) => (m.keys[0]!.r.header.n = 5_000_000), // ~1,000 chain steps before the tag failed, under version 3
      (m) => (m.keys[0]!.r.header.pn = 999),
      (m) => (m.keys[0]!.r.header.dh = carol.secrets.record.publicKey),
      (m) => (m.keys[0]!.x3dh!.ek = carol.secrets.record.publicKey),
      (m) => (m.keys[0]!.x3dh!.spk += 1),
      (m) => delete m.keys[0]!.x3dh,
      (m) => (m.epoch.epoch = 2),
    ];
    for (const change of rewrites) {
      const forged = server.rewrite(toBob, (e) => change(e2e(e)));
      let taken: unknown;
      expect(await hmacsDuring(async () => (taken = await bob.group.acceptSenderKey(forged)))).toBe(0);
      expect(taken).toEqual({ ok: false, reason: "bad-signature" });
    }
    expect(await bob.group.acceptSenderKey(toBob)).toMatchObject({ ok: true });
    expect(await bob.group.open(await alice.group.seal(draft("alice"), "signed"))).toMatchObject({ ok: true, text: "signed" });
    // A message under that key without its epoch (version 2), and a version 3 handout from Alice's device: refused.
    expect(await bob.group.open(await alice.session.sealGroup(draft("alice"), "unnamed"))).toEqual({ ok: false, reason: "downgraded" });
    const oldTab = new E2eSession(alice.secrets, new MemoryStore(), server.directory);
    const v3 = (await oldTab.prepareGroup(room, ["bob"], base("alice"))).envelopes[0]!;
    expect(e2e(v3).v).toBe(3);
    expect(await bob.group.acceptSenderKey(v3)).toEqual({ ok: false, reason: "downgraded" });
    // Carol never had a version 4 handout from Alice: a version 3 one still opens there (history, old clients).
    const v3Carol = (await new E2eSession(alice.secrets, new MemoryStore(), server.directory).prepareGroup(room, ["carol"], base("alice")))
      .envelopes[0]!;
    expect(await carol.group.acceptSenderKey(v3Carol)).toMatchObject({ ok: true });
  });
});
