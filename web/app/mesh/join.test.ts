// No silent join, and pruned epochs (docs/protocol.md §6a, docs/decisions/081-no-silent-join.md), against a
// malicious server that holds the keys directory, the group's member list with its invitations, and its
// statements. Everything runs through the real client code: core/e2e.ts sessions, core/group-epochs.ts
// membership, core/group-invitations.ts, and this folder's Sealing with its chat history.
import { beforeEach, describe, expect, it } from "vitest";
import { createDevice, type DeviceSecrets, E2eSession } from "../../../core/e2e";
import type { Envelope } from "../../../core/envelope";
import { EPOCHS_KEPT, type GroupEpoch, GroupMembership, signEpoch } from "../../../core/group-epochs";
import { signInvitation, type SignedInvitation } from "../../../core/group-invitations";
import { MaliciousServer, MemoryStore } from "../../../core/testing/malicious-server";
import type { OutboxItem } from "./db";
import { History } from "./history";
import { memoryStore } from "./memory-store.test-support";
import { Sealing, type ServerMember } from "./sealing";

const room = "group:fishermen";

/**
 * The shared malicious server (core/testing/malicious-server.ts: directory, prekeys) with one group's statements
 * and the member list it answers, both its own to edit.
 */
class JoinServer extends MaliciousServer {
  /** The statements it hands out, oldest first (it may prune or edit them at will). */
  statements: GroupEpoch[] = [];
  /** Who it lists in the group, with whatever invitation it cares to serve. */
  members: ServerMember[] = [];
  groups = {
    epochs: async (_room: string, since: number) => structuredClone(this.statements.filter((e) => e.epoch >= since).slice(0, 20)),
    publish: async (_room: string, epoch: GroupEpoch) => {
      if (this.statements.some((e) => e.epoch === epoch.epoch)) return false;
      this.statements.push(structuredClone(epoch));
      return true;
    },
  };
  /** Keeps only the newest statements, as the real server does on each write (workers/rooms/group-epochs.ts). */
  prune() {
    this.statements = this.statements.slice(-EPOCHS_KEPT);
  }
}

let server: JoinServer;

interface Person {
  id: string;
  name: string;
  secrets: DeviceSecrets;
  session: E2eSession;
  group: GroupMembership;
  sealing: Sealing;
  history: History;
  /** Sender-key envelopes this device put in its outbox. */
  queued: OutboxItem[];
}

async function person(id: string, name: string): Promise<Person> {
  const secrets = await createDevice(id);
  await server.publish(secrets.record);
  const store = new MemoryStore();
  const session = new E2eSession(secrets, store, server.directory);
  const upload = await session.prekeysToPublish({ signedPrekeyId: null, oneTimePrekeys: 0 });
  if (upload) server.publishPrekeys(secrets.record, upload);
  const group = new GroupMembership(secrets, session, store, server.groups);
  const history = new History({ changed() {}, tell() {} }, memoryStore());
  const queued: OutboxItem[] = [];
  const sealing = new Sealing({
    me: { id, nickname: name },
    hop: `${name} · tab-1`,
    history,
    enqueue: async (item) => void queued.push(item),
    session: async () => session,
    publishDeviceKey: async () => {},
    members: async () => structuredClone(server.members),
    groups: async () => group,
    verified: async () => false,
  });
  return { id, name, secrets, session, group, sealing, history, queued };
}

const forOf = (e: Envelope) => (e.meta?.e2e as { for?: string } | undefined)?.for;
/** Whom this device's sender key went to so far. */
const keysTo = (p: Person) => [...new Set(p.queued.map((i) => forOf(i.envelope)))].sort();
const said = (p: Person) => p.history.list(room).map((m) => m.text);
const draft = (p: Person, text: string): Envelope => ({
  id: `${p.id}-${text.length}-${Math.random()}`,
  room,
  senderId: p.id,
  senderName: p.name,
  timestamp: Date.now(),
  type: "text",
  ttl: 8,
  meshRoute: [],
  isEncrypted: false,
  priority: "normal",
  content: { text },
});

/** Jide's new group: epoch 1 signed by his device; the server lists him as owner. */
async function jidesGroup() {
  const jide = await person("u-jide", "Jide");
  await jide.group.create(room);
  server.members = [{ userId: jide.id, nickname: jide.name, role: "owner" }];
  return jide;
}

/** Someone accepted an invitation: the server lists them, with the statement their inviter's device signed. */
function listed(p: Pick<Person, "id" | "name">, invitation?: unknown) {
  server.members.push({ userId: p.id, nickname: p.name, role: "member", ...(invitation ? { invitation } : {}) });
}

beforeEach(() => {
  server = new JoinServer();
});

describe("no silent join", () => {
  it("an invitation a member's device signed lets the person in; one the server invents waits for Let in and gets nothing", async () => {
    const jide = await jidesGroup();
    const kemi = await person("u-kemi", "Kemi");
    const ghost = await person("u-ghost", "Ghost");
    const [invitation] = await jide.group.signInvitations(room, [kemi.id]);
    listed(kemi, invitation);
    // The server invents an acceptance: Ghost is listed, with no invitation anyone signed.
    listed(ghost);
    await jide.sealing.shareSenderKey(room);
    expect(server.statements.map((e) => [e.epoch, e.change])).toEqual([
      [1, { kind: "create" }],
      [2, { kind: "add", userId: kemi.id }],
    ]);
    expect(keysTo(jide)).toEqual([kemi.id]);
    expect(said(jide)).toEqual([
      "Ghost wants to join this group. They get nothing until you let them in.",
      "Kemi now receives the messages of this group.",
    ]);
    expect(jide.history.list(room)[0]?.meta).toMatchObject({ event: "join-waiting", userId: ghost.id, canLetIn: true });
    // Kemi's device (a member, not an admin) says Ghost waits, and hands its key to Jide only.
    await kemi.sealing.shareSenderKey(room);
    expect(said(kemi)).toContain("Ghost is waiting for an owner or admin of this group to let them in.");
    expect(keysTo(kemi)).toEqual([jide.id]);
    // Ghost cannot read Jide's message: no key was handed to its device (it cannot open it), and what it sends
    // is refused by every member.
    const sealed = await jide.sealing.seal(draft(jide, "boats leave at five"));
    await ghost.group.refresh(room);
    for (const item of jide.queued) await ghost.sealing.acceptSenderKey(item.envelope);
    expect(await ghost.sealing.open(sealed)).toBeNull();
    const { envelopes } = await ghost.session.prepareGroup(room, [jide.id, kemi.id], draft(ghost, ""));
    for (const e of envelopes) expect(await kemi.group.acceptSenderKey(e)).toMatchObject({ ok: false });
    const fromGhost = await ghost.session.sealGroup(draft(ghost, "send the money here"), "send the money here");
    expect(await kemi.sealing.open(fromGhost)).toEqual({ refused: "not-a-member" });
    // Asked once, however often the chat looks again.
    await jide.sealing.shareSenderKey(room);
    expect(said(jide).filter((t) => t?.includes("wants to join"))).toHaveLength(1);

    // Jide presses "Let in": his device signs Ghost in, and the next handout says so before its key goes.
    await jide.sealing.letIn(room, ghost.id);
    expect(server.statements.at(-1)?.change).toEqual({ kind: "add", userId: ghost.id });
    expect(jide.history.list(room)[0]?.meta).toMatchObject({ admitted: true });
    await jide.sealing.shareSenderKey(room);
    expect(said(jide).at(-1)).toBe("Ghost now receives the messages of this group.");
    expect(keysTo(jide)).toEqual([ghost.id, kemi.id].sort());
    const after = await jide.sealing.seal(draft(jide, "welcome"));
    for (const item of jide.queued) if (forOf(item.envelope) === ghost.id) await ghost.sealing.acceptSenderKey(item.envelope);
    expect(await ghost.sealing.open(after)).toMatchObject({ text: "welcome" });
  });

  it("a forged, borrowed, outsider's or stale invitation is refused: the person waits for Let in", async () => {
    const jide = await jidesGroup();
    const kemi = await person("u-kemi", "Kemi");
    const [forKemi] = await jide.group.signInvitations(room, [kemi.id]);
    listed(kemi, forKemi);
    await jide.sealing.shareSenderKey(room);
    const mallory = await person("u-mallory", "Mallory");
    const eve = await person("u-eve", "Eve");
    const held = (await jide.group.held(room))!;
    const attempts: [string, SignedInvitation][] = [
      // Jide's signature on Kemi's invitation, with Mallory's name put in.
      ["borrowed", { ...forKemi!, invitee: mallory.id }],
      // Mallory's own device signs "Jide invited Mallory".
      ["forged", { ...(await signInvitation(mallory.secrets, room, mallory.id, held.epoch)), inviter: jide.id }],
      // Eve, who is not in the group, invites Mallory with a valid signature of her own.
      ["outsider", await signInvitation(eve.secrets, room, mallory.id, held.epoch)],
    ];
    for (const [, invitation] of attempts) {
      server.members = server.members.filter((m) => m.userId !== mallory.id);
      listed(mallory, invitation);
      await jide.sealing.shareSenderKey(room);
      expect(server.statements.map((e) => e.change.kind)).toEqual(["create", "add"]);
    }
    expect(said(jide).filter((t) => t?.startsWith("Mallory wants to join"))).toHaveLength(1);
    expect(keysTo(jide)).toEqual([kemi.id]);

    // Kemi leaves; the server keeps Jide's old invitation and lists her again with it: stale, she waits.
    server.members = server.members.filter((m) => m.userId !== kemi.id && m.userId !== mallory.id);
    await jide.sealing.shareSenderKey(room);
    expect(server.statements.at(-1)?.change).toEqual({ kind: "remove", userId: kemi.id, gone: true });
    listed(kemi, forKemi);
    await jide.sealing.shareSenderKey(room);
    expect(server.statements.at(-1)?.change).toEqual({ kind: "remove", userId: kemi.id, gone: true });
    expect(said(jide).at(-1)).toBe("Kemi wants to join this group. They get nothing until you let them in.");
    // A fresh invitation after she left lets her in again.
    const [again] = await jide.group.signInvitations(room, [kemi.id]);
    server.members = server.members.filter((m) => m.userId !== kemi.id);
    listed(kemi, again);
    await jide.sealing.shareSenderKey(room);
    expect(server.statements.at(-1)?.change).toEqual({ kind: "add", userId: kemi.id });
  });
});

describe("pruned epochs", () => {
  /** Jide's group with Kemi and Ada, all three devices agreed; Ada's device then goes quiet. */
  async function threeOfThem() {
    const jide = await jidesGroup();
    const kemi = await person("u-kemi", "Kemi");
    const ada = await person("u-ada", "Ada");
    for (const p of [kemi, ada]) listed(p, (await jide.group.signInvitations(room, [p.id]))[0]);
    await jide.sealing.shareSenderKey(room);
    await ada.sealing.shareSenderKey(room);
    expect((await ada.group.held(room))?.members.map((m) => m.userId)).toEqual([jide.id, kemi.id, ada.id]);
    return { jide, kemi, ada };
  }

  it("a device far behind re-anchors on a statement a member it knew signed, and sees the removal it missed", async () => {
    const { jide, kemi, ada } = await threeOfThem();
    const kept = (await ada.group.held(room))!.epoch;
    // While Ada is away, Jide removes Kemi, then the group changes more often than the server keeps.
    await jide.group.change(room, { kind: "remove", userId: kemi.id });
    for (let i = 0; i < EPOCHS_KEPT; i++) {
      await jide.group.change(room, { kind: "add", userId: `u-guest${i}` });
      await jide.group.change(room, { kind: "remove", userId: `u-guest${i}` });
    }
    server.prune();
    expect(server.statements[0]!.epoch).toBeGreaterThan(kept + 1);
    server.members = server.members.filter((m) => m.userId !== kemi.id);
    ada.queued.length = 0;
    const view = await ada.group.refresh(room);
    expect(view.problems).toEqual([]);
    expect(view.epoch?.epoch).toBe(server.statements.at(-1)?.epoch);
    expect(view.epoch?.members.map((m) => m.userId)).toEqual([jide.id, ada.id]);
    expect(view.gone).toEqual([kemi.id]);
    await ada.sealing.shareSenderKey(room);
    expect(keysTo(ada)).toEqual([jide.id]);
    // A device that never saw the group starts from the oldest statement held, as from an epoch 1.
    const fresh = await person("u-jide", "Jide");
    expect((await fresh.group.refresh(room)).problems).toEqual([]);
  });

  it("a server that prunes to hide a removal cannot do it unseen: a statement no known member signed is said in the chat", async () => {
    const { jide, kemi, ada } = await threeOfThem();
    await jide.group.change(room, { kind: "remove", userId: kemi.id });
    // The server drops the removal and everything after Ada's kept epoch, and hands out, far ahead, a statement
    // of its own account's device (a signed device list it made itself) that keeps Kemi in and adds its own user.
    const kept = (await ada.group.held(room))!;
    const mallory = await person("u-mallory", "Mallory");
    const invented = await signEpoch(mallory.secrets, {
      room,
      epoch: kept.epoch + 40,
      prev: "A".repeat(43),
      members: [{ userId: mallory.id, role: "owner" }, ...kept.members.map((m) => ({ userId: m.userId, role: "member" as const }))],
      change: { kind: "add", userId: kemi.id },
    });
    server.statements = [invented];
    listed(mallory);
    await ada.sealing.shareSenderKey(room);
    expect(said(ada)).toContain(
      "The server no longer holds the changes between the list of this group's members this device knew and its newest; the newest was taken as new. If you did not expect it, check who is in the group.",
    );
    expect(ada.history.list(room).find((m) => m.text?.startsWith("The server no longer holds"))?.meta).toMatchObject({
      event: "key-refused",
      kind: "group-unbridged",
    });
    // Mallory, whom no member Ada's device knew signed in, gets nothing from it until Ada lets her in; Kemi, whom
    // Ada knew, still gets Ada's key (the removal the server hid shows as nothing: it is the list that is said).
    ada.queued.length = 0;
    await ada.sealing.shareSenderKey(room);
    expect(keysTo(ada)).not.toContain(mallory.id);
    expect(said(ada)).toContain("Mallory wants to join this group. They get nothing until you let them in.");
    expect(said(ada)).not.toContain("Mallory now receives the messages of this group.");
    await ada.sealing.letIn(room, mallory.id);
    await ada.sealing.shareSenderKey(room);
    expect(said(ada).at(-1)).toBe("Mallory now receives the messages of this group.");
    expect(keysTo(ada)).toContain(mallory.id);
    // A statement no listed device of its author signed is refused outright, and the kept epoch still counts.
    const unsigned = { ...invented, epoch: kept.epoch + 41 };
    server.statements = [unsigned];
    const other = await person("u-ada", "Ada");
    await other.group.refresh(room); // a device that never saw the group
    expect((await other.group.refresh(room)).problems.map((p) => p.kind)).toEqual(["bad-signature"]);
    expect(await other.group.held(room)).toBeUndefined();
  });

  it("a server that hands out nothing newer than the kept epoch is still a rollback", async () => {
    const { ada } = await threeOfThem();
    server.statements = server.statements.slice(0, 1);
    expect((await ada.group.refresh(room)).problems.map((p) => p.kind)).toEqual(["rolled-back"]);
  });
});
