// Sealing and opening with a stand-in session: what leaves a private room, what is refused, and what the chat says.
import { describe, expect, it, vi } from "vitest";
import type { Envelope } from "../../../core/envelope";
import type { OutboxItem } from "./db";
import { History } from "./history";
import { memoryStore, message } from "./memory-store.test-support";
import { createDevice } from "../../../core/e2e";
import { BEHIND, type GroupEpoch, GroupMembership } from "../../../core/group-epochs";
import { MaliciousServer } from "../../../core/testing/malicious-server";
import { translator } from "../../../core/i18n/catalogs";
import { en } from "../../../core/i18n/en";
import { UI_LANGUAGES } from "../../../core/i18n/languages";
import { SECURITY_EVENTS, securityLine } from "../features/chat/security-lines";
import { Sealing, type SealingGroups, type SealingSession } from "./sealing";

const me = { id: "u-me", nickname: "Me" };

function envelope(room: string, extra: Partial<Envelope> = {}): Envelope {
  return {
    id: "e1",
    room,
    senderId: "u-ada",
    senderName: "Ada",
    timestamp: 5_000,
    type: "text",
    ttl: 16,
    meshRoute: ["a"],
    isEncrypted: false,
    priority: "normal",
    content: { text: "hello" },
    ...extra,
  };
}

/** An honest group server (it stores what devices sign) and the identity keys of the test's devices. */
function groupWorld() {
  const statements: GroupEpoch[] = [];
  const identity = new Map<string, string>();
  const server = {
    epochs: async (_room: string, since: number) => structuredClone(statements.filter((e) => e.epoch >= since)),
    publish: async (_room: string, e: GroupEpoch) => {
      if (statements.some((x) => x.epoch === e.epoch)) return false;
      statements.push(structuredClone(e));
      return true;
    },
  };
  /** The real membership code of one person's device, over a stand-in protocol session. */
  async function device(userId: string, session: Partial<SealingSession>): Promise<SealingGroups> {
    const secrets = await createDevice(userId);
    identity.set(userId, secrets.record.signingKey);
    const kv = new Map<string, unknown>();
    const stub = {
      prepareGroup: (...a: Parameters<SealingSession["prepareGroup"]>) => session.prepareGroup!(...a),
      sealGroup: (...a: Parameters<SealingSession["sealGroup"]>) => session.sealGroup!(...a),
      open: (e: Envelope) => session.open!(e),
      acceptSenderKey: (e: Envelope) => session.acceptSenderKey!(e),
      trustedDevices: async (id: string) => ({
        devices: identity.has(id) ? [{ ...secrets.record, userId: id, signingKey: identity.get(id) as string }] : [],
        sealable: [],
        changes: [],
        problems: [],
      }),
    };
    return new GroupMembership(
      secrets,
      stub as never,
      { get: async (k) => structuredClone(kv.get(k)) as never, set: async (k, v) => void kv.set(k, v) },
      server,
    );
  }
  return { statements, device };
}

function setup(
  session: Partial<SealingSession>,
  members: { userId: string; nickname?: string; role?: string }[] = [],
  verified: string[] = [],
  groups?: SealingGroups,
) {
  const history = new History({ changed() {}, tell() {} }, memoryStore());
  const queued: OutboxItem[] = [];
  const sealing = new Sealing({
    me,
    hop: "Me · tab-1",
    history,
    enqueue: async (item) => void queued.push(item),
    session: async () => session as SealingSession,
    publishDeviceKey: async () => {},
    members: async () => members,
    verified: async (userId) => verified.includes(userId),
    // Without a group world, everyone the protocol opens is taken as a member.
    groups: async () =>
      groups ??
      ({ open: (e: Envelope) => session.open!(e), acceptSenderKey: (e: Envelope) => session.acceptSenderKey!(e) } as SealingGroups),
  });
  return { history, sealing, queued };
}

describe("sealing", () => {
  it("sends a public room's envelope as it is", async () => {
    const { sealing } = setup({});
    const e = envelope("nearby:s1v0g", { meta: { location: "x" } });
    expect(await sealing.seal(e)).toBe(e);
  });

  const newDevices = [
    { userId: "u-ada", deviceId: "d1", kind: "new-device" as const, key: "k1" },
    { userId: "u-ada", deviceId: "d2", kind: "new-device" as const, key: "k2" },
  ];

  it("seals a direct message's meta inside the ciphertext, and shows a contact's new device before sealing to it", async () => {
    const session: Partial<SealingSession> = {};
    const { sealing, history } = setup(session);
    const room = "dm:u-ada:u-me";
    const noticesWhenSealed: number[] = [];
    let accepted = false;
    const sealDirect = vi.fn(async (e: Envelope, text: string, _peer: string) => {
      noticesWhenSealed.push(history.list(room).filter((m) => m.senderId === "system").length);
      // The protocol seals nothing until the change was acknowledged.
      if (!accepted) return { changes: newDevices, problems: [] };
      return { envelope: { ...e, content: { ciphertext: text } } as unknown as Envelope, changes: [], problems: [] };
    });
    const acknowledge = vi.fn(async () => {
      accepted = true;
    });
    Object.assign(session, { sealDirect, acknowledge });
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    const sealed = await sealing.seal(envelope(room, { meta: { pin: 1 } }));
    expect(sealed.meta).toBeUndefined();
    expect(sealDirect.mock.calls[0]?.[1]).toContain('"meta":{"pin":1}');
    expect(sealDirect.mock.calls[0]?.[2]).toBe("u-ada");
    expect(acknowledge).toHaveBeenCalledWith(newDevices);
    // Shown first, sealed after: the second (sealing) call came once the notice was in the chat.
    expect(noticesWhenSealed).toEqual([0, 1]);
    const said = history.list(room).filter((m) => m.senderId === "system");
    expect(said.map((m) => m.text)).toEqual([
      "Ada has a new device that now receives this chat. If you did not expect it, compare safety numbers in the chat's info.",
    ]);
  });

  it("for a contact marked verified, the message waits in the outbox, saying why, until the person accepts", async () => {
    const room = "dm:u-ada:u-me";
    const sealDirect = vi.fn(async () => ({
      changes: [{ userId: "u-ada", deviceId: "", kind: "account-changed" as const, key: "a2" }],
      problems: [],
    }));
    const acknowledge = vi.fn(async () => {});
    const { sealing, history } = setup({ sealDirect, acknowledge }, [], ["u-ada"]);
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    await expect(sealing.seal(envelope(room))).rejects.toThrow("Ada's security key changed since you verified it, so this message waits");
    expect(acknowledge).not.toHaveBeenCalled();
    expect(sealDirect).toHaveBeenCalledOnce();
    // Said once in the chat, however often the outbox tries again.
    await expect(sealing.seal(envelope(room))).rejects.toThrow();
    expect(
      history
        .list(room)
        .filter((m) => m.senderId === "system")
        .map((m) => m.text),
    ).toEqual(["Ada's security key changed. If you did not expect it, compare safety numbers in the chat's info."]);
  });

  it("says what the server offered that was refused: an older device list", async () => {
    const room = "dm:u-ada:u-me";
    const sealDirect = vi.fn(async (e: Envelope) => ({
      envelope: e,
      changes: [],
      problems: [{ userId: "u-ada", kind: "rolled-back" as const }],
    }));
    const { sealing, history } = setup({ sealDirect });
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    await sealing.seal(envelope(room));
    await sealing.seal(envelope(room));
    expect(
      history
        .list(room)
        .filter((m) => m.senderId === "system")
        .map((m) => m.text),
    ).toEqual(["The server offered an older list of Ada's devices; it was refused."]);
  });

  it("the owner's device signs who joined into the group's epoch and says it in the chat before handing them its key", async () => {
    const room = "group:g1";
    const keyEnvelope = envelope(room, { id: "k1", type: "key" });
    const world = groupWorld();
    const session: Partial<SealingSession> = {};
    const groups = await world.device("u-me", session);
    const members = [{ userId: "u-me", role: "owner" }];
    const { sealing, history, queued } = setup(session, members, [], groups);
    const noticesWhenHanded: number[] = [];
    const prepareGroup = vi.fn(async (_room: string, _ids: string[]) => {
      noticesWhenHanded.push(history.list(room).length);
      return { envelopes: [keyEnvelope], changes: [], problems: [], waiting: false };
    });
    const sealGroup = vi.fn(async (e: Envelope) => e);
    Object.assign(session, { prepareGroup, sealGroup });
    // A group from before epochs: the first look starts its membership with who the server lists.
    await sealing.seal(envelope(room));
    expect(world.statements.map((e) => [e.epoch, e.change.kind])).toEqual([[1, "create"]]);
    expect(prepareGroup.mock.calls[0]?.[1]).toEqual([]);
    // Ada accepted an invitation this device signed: the owner's device signs her in, says so, and only then
    // hands her the key (one without a member's signature waits for "Let in": web/app/mesh/join.test.ts).
    const invite = async () => (await (groups as GroupMembership).signInvitations(room, ["u-ada"]))[0];
    members.push({ userId: "u-ada", nickname: "Ada", role: "member", invitation: await invite() } as never);
    await sealing.seal(envelope(room, { id: "e2" }));
    expect(world.statements.map((e) => [e.epoch, e.change.kind])).toEqual([
      [1, "create"],
      [2, "add"],
    ]);
    expect(prepareGroup.mock.calls[1]?.[1]).toEqual(["u-ada"]);
    expect(history.list(room).map((m) => m.text)).toEqual(["Ada now receives the messages of this group."]);
    expect(noticesWhenHanded).toEqual([0, 1]);
    expect(queued.map((i) => i.id)).toEqual(["k1", "k1"]);
    // Ada left (the server lists her no more): the owner's device signs her out and the next key is without her.
    members.pop();
    await sealing.seal(envelope(room, { id: "e3" }));
    expect(world.statements.at(-1)?.change).toEqual({ kind: "remove", userId: "u-ada", gone: true });
    expect(prepareGroup.mock.calls[2]?.[1]).toEqual([]);
    expect(history.list(room).at(-1)?.text).toBe("Ada is no longer in this group; what follows is sealed without them.");
    // Invited again after leaving, she is signed in again.
    members.push({ userId: "u-ada", nickname: "Ada", role: "member", invitation: await invite() } as never);
    await sealing.seal(envelope(room, { id: "e4" }));
    expect(prepareGroup.mock.calls[3]?.[1]).toEqual(["u-ada"]);
    // The owner removes her on purpose; the server listing her again afterwards gets her nothing, and is said.
    await groups.change(room, { kind: "remove", userId: "u-ada" });
    await sealing.seal(envelope(room, { id: "e5" }));
    expect(world.statements.at(-1)?.change).toEqual({ kind: "remove", userId: "u-ada" });
    expect(prepareGroup.mock.calls[4]?.[1]).toEqual([]);
    expect(
      history
        .list(room)
        .slice(-2)
        .map((m) => m.text),
    ).toEqual([
      "The server lists Ada in this group again after they were removed; they get nothing.",
      "Ada is no longer in this group; what follows is sealed without them.",
    ]);
  });

  it("a member's device hands its key only to the signed members, not to someone only the server lists", async () => {
    const room = "group:g1";
    const world = groupWorld();
    const ownerSession: Partial<SealingSession> = {
      prepareGroup: vi.fn(async () => ({ envelopes: [], changes: [], problems: [], waiting: false })),
      sealGroup: async (e: Envelope) => e,
    };
    const members = [
      { userId: "u-owner", nickname: "Owner", role: "owner" },
      { userId: "u-me", nickname: "Me", role: "member" },
    ];
    const owner = setup(ownerSession, members, [], await world.device("u-owner", ownerSession));
    await owner.sealing.seal(envelope(room, { senderId: "u-owner" }));
    // The server now lists Mallory as well; no owner or admin signed her in.
    members.push({ userId: "u-mallory", nickname: "Mallory", role: "member" });
    const prepareGroup = vi.fn(async (_room: string, _ids: string[]) => ({ envelopes: [], changes: [], problems: [], waiting: false }));
    const open = vi.fn(async () => ({ ok: true as const, text: "hi" }));
    const mine: Partial<SealingSession> = { prepareGroup, sealGroup: async (e: Envelope) => e, open };
    const { sealing, history } = setup(mine, members, [], await world.device("u-me", mine));
    await sealing.seal(envelope(room, { senderId: "u-me" }));
    expect(world.statements).toHaveLength(1);
    expect(prepareGroup.mock.calls[0]?.[1]).toEqual(["u-owner"]);
    // This member's chat says Mallory waits for an owner or admin (no button: it cannot let her in).
    expect(history.list(room).map((m) => [m.text, m.meta?.canLetIn])).toEqual([
      ["Mallory is waiting for an owner or admin of this group to let them in.", false],
    ]);
    // What Mallory sends is refused before the protocol opens it; the owner is heard.
    expect(await sealing.open(envelope(room, { senderId: "u-mallory" }))).toEqual({ refused: "not-a-member" });
    expect(open).not.toHaveBeenCalled();
    expect(await sealing.open(envelope(room, { senderId: "u-owner" }))).toEqual({ text: "hi" });
  });

  it("with the real protocol: a message from an epoch the server withholds is not shown, the chat says why, and nothing more goes to whoever was removed", async () => {
    const server = new MaliciousServer();
    const room = "group:g1";
    const person = async (userId: string) => {
      const d = await server.device(userId);
      return { ...d, group: new GroupMembership(d.secrets, d.session, d.store, server.groupsFor(d.secrets.record)) };
    };
    const alice = await person("u-alice");
    const mine = await person("u-me");
    await person("u-carol");
    await alice.group.create(room);
    await alice.group.change(room, { kind: "add", userId: "u-me" });
    await alice.group.change(room, { kind: "add", userId: "u-carol" });
    await alice.group.acknowledge(room, ["u-me", "u-carol"]);
    const members = [
      { userId: "u-alice", nickname: "Alice", role: "owner" },
      { userId: "u-me", nickname: "Me", role: "member" },
      { userId: "u-carol", nickname: "Carol", role: "member" },
    ];
    const { sealing, history, queued } = setup(mine.session, members, [], mine.group);
    const forWhom = () => queued.map((i) => (i.envelope.meta?.e2e as { for?: string } | undefined)?.for).sort();
    const first = await sealing.seal(envelope(room, { senderId: "u-me", timestamp: Date.now() }));
    expect(first.meta?.e2e).toMatchObject({ v: 4, epoch: { epoch: 3 } });
    expect(forWhom()).toEqual(["u-alice", "u-carol"]);
    // The server withholds Carol's removal from this device; Alice's device, which saw it, speaks under epoch 4.
    server.withhold(mine.secrets.record, room, 3);
    await alice.group.change(room, { kind: "remove", userId: "u-carol" });
    const base = { senderId: "u-alice", senderName: "Alice", timestamp: Date.now(), ttl: 8, meshRoute: [], priority: "normal" as const };
    for (const key of (await alice.group.prepare(room, base)).envelopes) await sealing.acceptSenderKey(key);
    const spoken = await alice.group.seal(envelope(room, { id: "a1", senderId: "u-alice", timestamp: Date.now() }), "Carol is out");
    expect(await sealing.open(spoken)).toEqual({ refused: "withheld-epoch" });
    expect(history.list(room).map((m) => [m.text, m.meta])).toEqual([
      [
        "A message from Alice was sealed for a newer list of this group's members than the server gives this device; it is not shown, and this device sends nothing until it can check that list.",
        { event: "epoch-refused", kind: "withheld-epoch", name: "Alice" },
      ],
    ]);
    // This device's next message waits, saying why (in the person's language), and no key goes out.
    await expect(sealing.seal(envelope(room, { id: "e2", senderId: "u-me", timestamp: Date.now() }))).rejects.toMatchObject({
      key: "msg.groupBehind",
    });
    expect(en["msg.groupBehind"]).toBe(BEHIND);
    expect(forWhom()).toEqual(["u-alice", "u-carol"]);
    // Once the server hands epoch 4 out, the chat says Carol left, the key goes to Alice alone, and Alice reads.
    server.withheld.clear();
    expect(await sealing.open(spoken)).toMatchObject({ text: "Carol is out" });
    const next = await sealing.seal(envelope(room, { id: "e3", senderId: "u-me", timestamp: Date.now() }));
    expect(next.meta?.e2e).toMatchObject({ epoch: { epoch: 4 } });
    expect(forWhom()).toEqual(["u-alice", "u-alice", "u-carol"]);
    expect(history.list(room).at(-1)?.text).toBe("Carol is no longer in this group; what follows is sealed without them.");
    expect(await alice.group.acceptSenderKey(queued.at(-1)!.envelope)).toMatchObject({ ok: true });
    expect(await alice.group.open(next)).toMatchObject({ ok: true });
  });

  it("refuses what the protocol does not authenticate, and waits on what this device cannot open yet", async () => {
    const open = vi.fn();
    const { sealing } = setup({ open });
    open.mockResolvedValueOnce({ ok: false, reason: "bad-signature" });
    expect(await sealing.open(envelope("dm:u-ada:u-me"))).toEqual({ refused: "bad-signature" });
    open.mockResolvedValueOnce({ ok: false, reason: "no-key" });
    expect(await sealing.open(envelope("group:g1"))).toBeNull();
    open.mockResolvedValueOnce({ ok: true, text: "hi" });
    expect(await sealing.open(envelope("group:g1"))).toEqual({ text: "hi" });
  });

  it("opens group messages that waited once their sender key arrives", async () => {
    const pending = envelope("group:g1", { id: "p1" });
    const { sealing, history } = setup({
      acceptSenderKey: async () => ({ ok: true, changes: [], problems: [] }),
      open: async () => ({ ok: true, text: "now readable" }),
    });
    await history.add(message("group:g1", "p1", { text: null, pending }));
    await sealing.acceptSenderKey(envelope("group:g1", { id: "k1", type: "key" }));
    expect(history.get("group:g1", "p1")).toMatchObject({ text: "now readable", isEncrypted: true, pending: undefined });
  });
});

describe("the chat's security lines in the reader's language", () => {
  /** A group's membership on this device that always answers `view` and hands out nothing. */
  const groupWorld = (view: unknown) =>
    ({
      refresh: async () => view,
      acknowledge: async () => {},
      prepare: async () => ({ envelopes: [], changes: [], problems: [], waiting: false }),
    }) as unknown as SealingGroups;

  const notices = (history: History, room: string) => history.list(room).filter((m) => m.senderId === "system");

  /** Every line renders from its meta alone: in English as the stored fallback, in every other language otherwise. */
  function readsInEveryLanguage(history: History, room: string) {
    for (const m of notices(history, room)) {
      expect(SECURITY_EVENTS.has(m.meta?.event), m.text ?? "").toBe(true);
      expect(securityLine(translator("english"), m.meta)).toBe(m.text);
      for (const language of UI_LANGUAGES.filter((l) => l !== "english"))
        expect(securityLine(translator(language), m.meta), `${language}: ${m.text}`).not.toBe(m.text);
    }
  }

  it("who joined or left a group's signed membership", async () => {
    const room = "group:g2";
    const view = {
      epoch: {
        room,
        epoch: 5,
        members: [
          { userId: "u-me", role: "owner" },
          { userId: "u-kemi", role: "member" },
        ],
      },
      unshown: ["u-kemi"],
      gone: ["u-tunde"],
      removed: [],
      left: {},
      anchoredAt: 0,
      unvouched: [],
      problems: [],
    };
    const groups = groupWorld(view);
    const members = [
      { userId: "u-me", nickname: "Me", role: "owner" },
      { userId: "u-kemi", nickname: "Kemi", role: "member" },
    ];
    const { sealing, history } = setup({}, members, [], groups);
    await sealing.shareSenderKey(room, 10);
    expect(notices(history, room).map((m) => m.meta)).toEqual([
      // Tunde left: the server no longer names him, so the line says "Someone" in each language.
      { event: "member-gone" },
      { event: "member-joined", name: "Kemi" },
    ]);
    readsInEveryLanguage(history, room);
    const [gone, joined] = notices(history, room).map((m) => m.meta);
    expect(securityLine(translator("french"), joined)).toBe("Kemi reçoit désormais les messages de ce groupe.");
    expect(securityLine(translator("hausa"), gone)).toBe(
      `${translator("hausa")("msg.someone")} ba ya cikin wannan ƙungiya kuma; abin da ya biyo baya an rufe shi ba tare da shi ba.`,
    );
  });

  it("a group's membership the server offered and this device refused", async () => {
    const room = "group:g1";
    const view = {
      epoch: { room, epoch: 4, members: [{ userId: "u-me", role: "owner" }] },
      unshown: [],
      gone: [],
      removed: ["u-kemi"],
      left: {},
      anchoredAt: 0,
      unvouched: [],
      problems: (["rolled-back", "unbridged", "forked", "no-right", "bad-signature"] as const).map((kind) => ({ room, kind, epoch: 4 })),
    };
    const groups = groupWorld(view);
    // The server lists Kemi again after the owner removed her.
    const members = [
      { userId: "u-me", nickname: "Me", role: "owner" },
      { userId: "u-kemi", nickname: "Kemi", role: "member" },
    ];
    const { sealing, history } = setup({}, members, [], groups);
    await sealing.shareSenderKey(room, 10);
    expect(notices(history, room).map((m) => m.meta)).toEqual([
      { event: "key-refused", kind: "group-relisted-removed", name: "Kemi" },
      ...["rolled-back", "unbridged", "forked", "no-right", "bad-signature"].map((k) => ({ event: "key-refused", kind: `group-${k}` })),
    ]);
    readsInEveryLanguage(history, room);
    const [relisted, , , forked, noRight] = notices(history, room).map((m) => m.meta);
    expect(securityLine(translator("french"), relisted)).toBe(
      "Le serveur indique de nouveau Kemi dans ce groupe après son retrait ; cette personne ne reçoit rien.",
    );
    expect(securityLine(translator("french"), noRight)).toBe(
      "Le serveur a proposé un changement des membres de ce groupe qu'aucun propriétaire ni administrateur n'a fait ; il a été refusé.",
    );
    expect(securityLine(translator("hausa"), forked)).toBe(
      "Sabar ta bayar da wani jerin membobin wannan ƙungiya daban da wanda wannan na'ura ta amince da shi; an ƙi shi.",
    );
    expect(securityLine(translator("hausa"), relisted)).toBe(
      "Sabar ta sake lissafa Kemi a wannan ƙungiya bayan an cire shi; ba zai sami komai ba.",
    );
  });

  it("a device signed out, and device lists refused: this account's own and a contact's, named or not", async () => {
    const room = "dm:u-ada:u-me";
    const { sealing, history } = setup({});
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    await sealing.showChanges(room, [{ userId: "u-ada", deviceId: "d2", kind: "device-removed" }], 10, [
      { userId: "u-ada", kind: "relisted-revoked" },
      { userId: "u-me", kind: "unsigned-list" },
      { userId: "u-zed", kind: "rolled-back" },
    ]);
    const metas = notices(history, room).map((m) => m.meta);
    expect(metas).toEqual([
      { event: "device-removed", self: false, name: "Ada" },
      { event: "key-refused", kind: "relisted-revoked", self: false, name: "Ada" },
      { event: "key-refused", kind: "unsigned-list", self: true, name: null },
      { event: "key-refused", kind: "rolled-back", self: false, name: null },
    ]);
    readsInEveryLanguage(history, room);
    const [removed, relisted, mine, unknown] = metas;
    const fr = translator("french");
    expect(securityLine(fr, removed)).toBe("Ada a déconnecté un appareil ; il ne reçoit plus cette discussion.");
    expect(securityLine(fr, mine)).toBe(
      "Le serveur a proposé une liste de vos appareils que votre compte n'a pas signée ; elle a été refusée.",
    );
    expect(securityLine(fr, unknown)).toBe(
      "Le serveur a proposé une liste plus ancienne des appareils de ce contact ; elle a été refusée.",
    );
    const ha = translator("hausa");
    expect(securityLine(ha, removed)).toBe("Ada ya fitar da wata na'ura; ba ta karɓar wannan hira kuma.");
    expect(securityLine(ha, relisted)).toBe("Sabar ta sake lissafa wata na'urar Ada da aka fitar; ba za ta sami komai ba.");
    expect(securityLine(ha, mine)).toBe("Sabar ta bayar da jerin na'urorinka da asusunka bai sa hannu a kai ba; an ƙi shi.");
    // This account's own device signed out reads as "Your account …", not as a contact's.
    await sealing.showChanges(room, [{ userId: "u-me", deviceId: "d9", kind: "device-removed" }], 11);
    expect(securityLine(fr, notices(history, room).at(-1)?.meta)).toBe(
      "Votre compte a déconnecté un appareil ; il ne reçoit plus cette discussion.",
    );
  });
});
