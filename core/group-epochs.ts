// Groups whose membership the members agree on (docs/protocol.md §6a, docs/decisions/073-group-epochs.md).
// Each change of a private group's membership is a statement numbered in epochs, chained to the one before by
// its hash and signed by the device of a member who had the right to make it: the owner or an admin adds and
// removes people, anyone removes themself (leaving), only the owner names admins. The server stores and hands
// out the statements but cannot make one. Clients check every step, keep the newest epoch they accepted,
// refuse an older one (rollback) and a different statement under a number they saw (a fork), hand their
// sender key only to members of the signed epoch (each new member once the chat has shown them), and refuse
// messages and sender keys from anyone outside it. A removal changes the recipients, so every remaining
// member's next message goes under a new sender key (core/e2e.ts `prepareGroup`).
//
// Every message and sender key a device seals names its newest epoch (number and hash, signed: decision 080). A
// receiver that sees a newer one looks for it before opening the message, and refuses the message when the
// server does not hand it out (`withheld-epoch`); a sender that heard of a newer epoch seals nothing, and hands no
// key, until it has caught up. So a server that withholds a removal from one device keeps that device handing its
// key to the removed person only until someone else's message under the new epoch reaches it.
import { z } from "zod";
import type { DeviceSecrets, E2eSession, EpochClaim, EpochRefusal, KeyValueStore, OpenFailure, TrustChange, TrustProblem } from "./e2e";
import type { Envelope } from "./envelope";
import { invitationRefused, type SignedInvitation, signInvitation } from "./group-invitations";
import { fromBase64Url, toBase64Url } from "./ids";
import { utf8 } from "./webcrypto";

/** Format of a statement (inside the signature, so a relay cannot relabel it). */
export const GROUP_EPOCH_FORMAT = 1;
/** A group holds at most 256 people (the Premium group size); a statement lists every member. */
export const MAX_GROUP_MEMBERS = 256;
/** Statements the server hands out per request (each up to ~20 KB at 256 members). */
export const EPOCHS_PAGE = 20;
/**
 * Statements the server keeps per group, the newest (docs/decisions/081-no-silent-join.md): at most ~640 KB for a
 * group of 256, so 10 GB of D1 (its largest database) holds over 15,000 such groups. A device that missed more
 * changes than this re-anchors (`bridge`).
 */
export const EPOCHS_KEPT = 32;
/**
 * A receiver looks for newer statements at least this often while messages arrive, so a member removed a moment
 * ago is refused within it even when this device sent nothing since (one GET per group per half minute at most).
 */
export const LOOK_EVERY_MS = 30_000;
/** Hashes of earlier epochs a client remembers, to see a different statement under a number it saw. */
const HASHES_KEPT = 500;
/** Times this device signs a change again when another device took its epoch number first. */
const CHANGE_ATTEMPTS = 3;
/**
 * A message named an epoch before a removal this device accepted: refused (`stale-epoch`) when its sender's device
 * signed it this long after this device accepted the removal. Honest devices look for new statements before each
 * message they seal (web/app/mesh/sealing.ts), so only a device held behind sends that late; the margin leaves
 * room for messages on their way and for clocks that differ a little. Earlier ones are history, and open.
 */
export const STALE_AFTER_MS = 2 * 60_000;

/** Why this device's messages wait: it heard of a newer epoch than the server hands it (said on the message). */
export const BEHIND =
  "A member sent under a newer list of this group's members than the server gives this device, so this message waits until it can check who is in the group.";

const B64_32 = /^[A-Za-z0-9_-]{43}$/;
const B64_64 = /^[A-Za-z0-9_-]{86}$/;
const USER_ID = /^[A-Za-z0-9_:-]{1,64}$/;

export type GroupRole = "owner" | "admin" | "member";
export interface GroupMember {
  userId: string;
  role: GroupRole;
}
export type GroupChange =
  | { kind: "create" }
  | { kind: "add"; userId: string }
  /**
   * `gone`: signed because the server no longer lists them (they left, or were removed on a screen without this
   * device); unlike a removal an owner or admin chose, it does not keep them from being signed in again later.
   */
  | { kind: "remove"; userId: string; gone?: true }
  | { kind: "role"; userId: string; role: "admin" | "member" };

export interface GroupEpoch {
  room: string;
  /** 1 for the group's first statement (its creator, alone), then one more per change. */
  epoch: number;
  /** Hash of the previous statement (epochHash); empty for epoch 1. */
  prev: string;
  /** Every member after the change, in the order they joined (the first is the owner when the owner leaves). */
  members: GroupMember[];
  change: GroupChange;
  /** Who made the change, and the Ed25519 identity key of the device that signed it. */
  by: string;
  device: string;
  signature: string;
}

const memberSchema = z.object({ userId: z.string().regex(USER_ID), role: z.enum(["owner", "admin", "member"]) });
const changeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("create") }),
  z.object({ kind: z.literal("add"), userId: z.string().regex(USER_ID) }),
  z.object({ kind: z.literal("remove"), userId: z.string().regex(USER_ID), gone: z.literal(true).optional() }),
  z.object({ kind: z.literal("role"), userId: z.string().regex(USER_ID), role: z.enum(["admin", "member"]) }),
]);

/** A signed statement's shape (`PUT /api/rooms/:id/epochs`, and what a client reads from the server). */
export const GroupEpochSchema = z.object({
  room: z.string().min(1).max(80),
  epoch: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  prev: z.union([z.literal(""), z.string().regex(B64_32)]),
  members: z.array(memberSchema).min(1).max(MAX_GROUP_MEMBERS),
  change: changeSchema,
  by: z.string().regex(USER_ID),
  device: z.string().regex(B64_32, "Expected a 32-byte Ed25519 key in base64url"),
  signature: z.string().regex(B64_64, "Expected a 64-byte Ed25519 signature in base64url"),
});

export type GroupEpochInput = z.infer<typeof GroupEpochSchema>;

const changeBytes = (c: GroupChange) =>
  c.kind === "create"
    ? ["create"]
    : c.kind === "role"
      ? ["role", c.userId, c.role]
      : c.kind === "remove" && c.gone
        ? ["remove", c.userId, "gone"]
        : [c.kind, c.userId];

const bodyBytes = (e: Omit<GroupEpoch, "signature">) =>
  utf8(
    JSON.stringify([
      "linkup-group-epoch",
      GROUP_EPOCH_FORMAT,
      e.room,
      e.epoch,
      e.prev,
      e.members.map((m) => [m.userId, m.role]),
      changeBytes(e.change),
      e.by,
      e.device,
    ]),
  );

/** The hash that chains the next statement to this one (SHA-256 of the signed body and its signature). */
export async function epochHash(e: GroupEpoch): Promise<string> {
  const body = new TextDecoder().decode(bodyBytes(e));
  return toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(`${body}|${e.signature}`))));
}

/** A statement as it must look before any of it is used (the server may hand out anything), or null. */
export function readEpoch(value: unknown): GroupEpoch | null {
  const parsed = GroupEpochSchema.safeParse(value);
  if (!parsed.success) return null;
  const ids = parsed.data.members.map((m) => m.userId);
  if (new Set(ids).size !== ids.length) return null;
  return parsed.data as GroupEpoch;
}

/**
 * The members after `change` made by `by`, or why it is refused: the owner and admins add and remove
 * people (an admin cannot remove the owner or another admin), everyone may remove themself, only the owner
 * names or unnames admins. When the owner leaves, the longest-standing member becomes owner (as D1 does:
 * db/queries/rooms.ts removeMember).
 */
export function applyChange(
  members: GroupMember[],
  change: GroupChange,
  by: string,
): GroupMember[] | "not-a-member" | "no-right" | "invalid" {
  const actor = members.find((m) => m.userId === by);
  if (!actor) return "not-a-member";
  const boss = actor.role === "owner" || actor.role === "admin";
  if (change.kind === "create") return "invalid";
  const target = members.find((m) => m.userId === change.userId);
  if (change.kind === "add") {
    if (!boss) return "no-right";
    if (target) return "invalid";
    return [...members, { userId: change.userId, role: "member" }];
  }
  if (change.kind === "remove") {
    if (!target) return "invalid";
    const self = change.userId === by;
    if (!self && !(actor.role === "owner" || (actor.role === "admin" && target.role === "member"))) return "no-right";
    const rest = members.filter((m) => m.userId !== change.userId);
    if (target.role === "owner" && rest.length > 0 && !rest.some((m) => m.role === "owner"))
      return rest.map((m, i) => (i === 0 ? { ...m, role: "owner" } : m));
    return rest;
  }
  if (actor.role !== "owner") return "no-right";
  if (!target || target.role === "owner") return "invalid";
  return members.map((m) => (m.userId === change.userId ? { ...m, role: change.role } : m));
}

const sameMembers = (a: GroupMember[], b: GroupMember[]) =>
  a.length === b.length && a.every((m, i) => m.userId === b[i]?.userId && m.role === b[i]?.role);

/** Who signs: this device's identity key, as a listed device of its person. */
export type GroupSigner = Pick<DeviceSecrets, "signing" | "record">;

/** Signs a statement as it is, rules unchecked (signGenesis and signChange check them; tests forge with it). */
export async function signEpoch(signer: GroupSigner, body: Omit<GroupEpoch, "signature" | "by" | "device">): Promise<GroupEpoch> {
  const full = { ...body, by: signer.record.userId, device: signer.record.signingKey };
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, signer.signing.privateKey, bodyBytes(full));
  return { ...full, signature: toBase64Url(new Uint8Array(sig)) };
}

/**
 * Epoch 1: a new group's creator alone (invited people are added as they accept), or a group from before
 * epochs as its signer found it: one owner, members after, the signer among them. Nothing comes before it to
 * check it against, so each client trusts the first epoch 1 it sees, as it pins a contact's account key on
 * first contact (docs/decisions/073-group-epochs.md).
 */
export function signGenesis(signer: GroupSigner, room: string, others: GroupMember[] = []): Promise<GroupEpoch> {
  const me = signer.record.userId;
  const owner = others.find((m) => m.role === "owner")?.userId ?? me;
  const members: GroupMember[] = [
    { userId: owner, role: "owner" },
    ...[me, ...others.map((m) => m.userId)]
      .filter((id, i, all) => id !== owner && all.indexOf(id) === i)
      .map((userId) => ({ userId, role: "member" as const })),
  ];
  return signEpoch(signer, { room, epoch: 1, prev: "", members, change: { kind: "create" } });
}

function validGenesis(e: GroupEpoch): boolean {
  const [first, ...rest] = e.members;
  return first?.role === "owner" && rest.every((m) => m.role === "member") && e.members.some((m) => m.userId === e.by);
}

/** The next statement after `prev`, or why this person may not make the change. */
export async function signChange(signer: GroupSigner, prev: GroupEpoch, change: GroupChange): Promise<GroupEpoch | string> {
  const members = applyChange(prev.members, change, signer.record.userId);
  if (typeof members === "string") return members;
  return signEpoch(signer, { room: prev.room, epoch: prev.epoch + 1, prev: await epochHash(prev), members, change });
}

/** True when the statement carries its `device` key's signature (whose device that is, the caller checks). */
export async function signatureHolds(e: GroupEpoch): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64Url(e.device), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64Url(e.signature), bodyBytes(e));
  } catch {
    return false;
  }
}

/**
 * Why `next` may not follow `prev` (null: it may). `deviceKeys` answers the identity keys of the signer's
 * listed devices (a device list signed by their account key: core/device-list.ts).
 */
export async function checkStep(
  prev: GroupEpoch | null,
  next: GroupEpoch,
  deviceKeys: (userId: string, device?: string) => Promise<string[]>,
): Promise<GroupProblemKind | null> {
  if (prev) {
    if (next.room !== prev.room || next.epoch !== prev.epoch + 1 || next.prev !== (await epochHash(prev))) return "broken-chain";
    const members = applyChange(prev.members, next.change, next.by);
    if (members === "no-right" || members === "not-a-member") return "no-right";
    if (typeof members === "string" || !sameMembers(members, next.members)) return "broken-chain";
  } else if (next.epoch !== 1 || next.prev !== "" || next.change.kind !== "create" || !validGenesis(next)) return "broken-chain";
  if (!(await deviceKeys(next.by, next.device)).includes(next.device) || !(await signatureHolds(next))) return "bad-signature";
  return null;
}

/**
 * `unbridged`: the server no longer holds the statements after the one this device kept, and the oldest it holds
 * was not signed by a member this device knew with the right to make it; taken as a first sight, and said.
 */
/**
 * A statement taken without the one before it (docs/protocol.md §6a, "Pruned statements"): its author must be
 * in its own member list with the right to make its change (or have left by it), and it must be signed by a
 * listed device of the author. Nothing proves the members it lists; the caller says so unless `bridge` holds.
 */
async function anchorRefused(
  e: GroupEpoch,
  deviceKeys: (userId: string, device?: string) => Promise<string[]>,
): Promise<GroupProblemKind | null> {
  if (e.change.kind === "create") {
    if (e.epoch !== 1 || e.prev !== "" || !validGenesis(e)) return "broken-chain";
  } else {
    const author = e.members.find((m) => m.userId === e.by);
    const boss = author?.role === "owner" || author?.role === "admin";
    const leaving = e.change.kind === "remove" && e.change.userId === e.by;
    if (!e.members.some((m) => m.role === "owner")) return "broken-chain";
    if (leaving ? author : !(e.change.kind === "role" ? author?.role === "owner" : boss)) return "no-right";
  }
  if (!(await deviceKeys(e.by, e.device)).includes(e.device) || !(await signatureHolds(e))) return "bad-signature";
  return null;
}

/**
 * True when a statement this device cannot chain to its kept one (the server pruned what lay between) is vouched
 * for by the kept epoch: made by a member of it who there had the right to make such a change.
 */
function bridge(kept: GroupEpoch, next: GroupEpoch): boolean {
  const author = kept.members.find((m) => m.userId === next.by);
  if (!author || next.room !== kept.room || next.epoch <= kept.epoch) return false;
  const c = next.change;
  if (c.kind === "create") return false;
  if (c.kind === "role") return author.role === "owner";
  if (c.kind === "remove" && c.userId === next.by) return true;
  if (author.role === "owner") return true;
  if (author.role !== "admin") return false;
  if (c.kind === "add") return true;
  const target = kept.members.find((m) => m.userId === c.userId);
  return !target || target.role === "member";
}

export type GroupProblemKind = "rolled-back" | "forked" | "no-right" | "bad-signature" | "broken-chain" | "unbridged";
/** Something the server offered about a group that this device refused (said in the chat). */
export interface GroupProblem {
  room: string;
  kind: GroupProblemKind;
  epoch: number;
  by?: string;
}

/** What the server does for groups: store and hand out the statements (`/api/rooms/:id/epochs`). */
export interface GroupServer {
  /** Statements of the group from epoch `since` on (at most EPOCHS_PAGE), oldest first. */
  epochs(room: string, since: number): Promise<unknown[]>;
  /** Stores the next statement; false when another one took its number first. */
  publish(room: string, epoch: GroupEpoch): Promise<boolean>;
}

export interface GroupView {
  /** The newest accepted statement; null for a group with none yet (this device cannot seal there). */
  epoch: GroupEpoch | null;
  /** Members of the newest epoch this device has not shown in the chat yet: no sender key goes to them. */
  unshown: string[];
  /** Members who left or were removed since the chat last said so (no consent needed; `acknowledge` once said). */
  gone: string[];
  /**
   * People an owner or admin removed (not those who left), and nobody signed in again since: a device signs them
   * back in only on an explicit add, never because the server lists them again.
   */
  removed: string[];
  /**
   * The epoch at which each person last left (or was removed), as this device saw it, and the epoch it last
   * re-anchored at: an invitation made before either no longer lets them in (core/group-invitations.ts).
   */
  left: Record<string, number>;
  anchoredAt: number;
  /**
   * Members who came in through a statement this device could not bridge to its kept epoch (`unbridged`): no
   * sender key goes to them until the person lets them in here (`vouch`), as for a contact's changed key.
   */
  unvouched: string[];
  problems: GroupProblem[];
}

export type GroupOpenFailure = OpenFailure | "not-a-member" | "no-epoch";

/** A removal this device accepted: its epoch and when (this device's clock), for `stale-epoch`. */
type Removal = [epoch: number, acceptedAt: number];

/**
 * The membership side of a private group for one device, around its E2eSession: it keeps the group's newest
 * signed epoch and lets sender keys and messages through only for its members.
 */
export class GroupMembership {
  constructor(
    private readonly me: GroupSigner,
    private readonly session: Pick<E2eSession, "trustedDevices" | "prepareGroup" | "sealGroup" | "open" | "acceptSenderKey">,
    private readonly store: KeyValueStore,
    private readonly server: GroupServer,
    private readonly clock: () => number = Date.now,
  ) {}

  private readonly queues = new Map<string, Promise<unknown>>();
  /** One refresh of a room at a time in this tab (each reads and writes the same kept epoch). */
  private serial<T>(room: string, task: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(room) ?? Promise.resolve()).then(task, task);
    this.queues.set(
      room,
      run.catch(() => {}),
    );
    return run;
  }

  /**
   * The signer's listed device keys. A key not among those this device kept is looked up once more, fresh: the
   * signer may have linked that device since (a list is still checked against its account key either way).
   */
  private deviceKeys = async (userId: string, device?: string) => {
    const keys = (await this.session.trustedDevices(userId)).devices.map((d) => d.signingKey);
    if (device === undefined || keys.includes(device)) return keys;
    return (await this.session.trustedDevices(userId, true)).devices.map((d) => d.signingKey);
  };

  /** The newest epoch this device accepted for the room, without asking the server. */
  held(room: string): Promise<GroupEpoch | undefined> {
    return this.store.get<GroupEpoch>(`grp:epoch:${room}`);
  }

  /**
   * Asks the server for statements after the kept one and accepts each that follows by the rules; the first
   * that does not stops the walk (said in `problems`). A server that withholds statements cannot roll a
   * client back: the kept epoch still counts.
   */
  refresh(room: string): Promise<GroupView> {
    return this.serial(room, () => this.walk(room));
  }

  /** When this device last asked the server about each room (in this page's life). */
  private readonly looked = new Map<string, number>();

  private async walk(room: string): Promise<GroupView> {
    this.looked.set(room, this.clock());
    const problems: GroupProblem[] = [];
    let held = (await this.held(room)) ?? null;
    const hashes = (await this.store.get<Record<string, string>>(`grp:hashes:${room}`)) ?? {};
    let removed = (await this.store.get<string[]>(`grp:removed:${room}`)) ?? [];
    const left = (await this.store.get<Record<string, number>>(`grp:left:${room}`)) ?? {};
    let anchoredAt = (await this.store.get<number>(`grp:anchored:${room}`)) ?? 0;
    let unvouched = (await this.store.get<string[]>(`grp:unvouched:${room}`)) ?? [];
    const removals = (await this.store.get<Removal[]>(`grp:removals:${room}`)) ?? [];
    const startedAt = held?.epoch ?? 0;
    for (let page = 0; page < 50; page++) {
      // From the kept epoch itself: the server must still hand it out, and the same statement.
      const since = held ? held.epoch : 1;
      let fetched: unknown[];
      try {
        fetched = await this.server.epochs(room, since);
      } catch {
        break; // offline: the epoch seen last
      }
      const oldest = readEpoch(fetched[0]);
      if (
        held &&
        !fetched.some((r) => (r as { epoch?: unknown } | null)?.epoch === held?.epoch) &&
        !(oldest && oldest.epoch > held.epoch)
      ) {
        // The server's newest is older than the one kept: it holds back (or lost) what it handed out before.
        problems.push({ room, kind: "rolled-back", epoch: held.epoch });
        break;
      }
      if (oldest && oldest.room === room && (held ? oldest.epoch > held.epoch + 1 : oldest.epoch > 1)) {
        // The server keeps only the newest statements (EPOCHS_KEPT): the one after the kept epoch is gone, so
        // the oldest it holds cannot be chained to what this device knows (docs/protocol.md §6a).
        const refused = await anchorRefused(oldest, this.deviceKeys);
        if (refused) {
          problems.push({ room, kind: refused, epoch: oldest.epoch, by: oldest.by });
          break;
        }
        // A device that never saw the group takes it as a first sight, as it would epoch 1; one that kept an
        // epoch does so silently only when a member it knew, with the right, signed it; otherwise it says so.
        if (held && !bridge(held, oldest)) {
          problems.push({ room, kind: "unbridged", epoch: oldest.epoch, by: oldest.by });
          const knew = new Set(held.members.map((m) => m.userId));
          unvouched = [...new Set([...unvouched, ...oldest.members.map((m) => m.userId).filter((id) => !knew.has(id))])];
        }
        if (held) for (const m of held.members) if (!oldest.members.some((n) => n.userId === m.userId)) left[m.userId] = oldest.epoch;
        held = oldest;
        anchoredAt = oldest.epoch;
        hashes[oldest.epoch] = await epochHash(oldest);
      }
      let stop = false;
      let moved = false;
      for (const raw of fetched) {
        const e = readEpoch(raw);
        if (!e || e.room !== room) {
          problems.push({ room, kind: "broken-chain", epoch: Number((raw as { epoch?: unknown } | null)?.epoch) || 0 });
          stop = true;
          break;
        }
        if (held && e.epoch <= held.epoch) {
          const seen = hashes[e.epoch];
          if (seen !== undefined && seen !== (await epochHash(e))) {
            problems.push({ room, kind: "forked", epoch: e.epoch, by: e.by });
            stop = true;
            break;
          }
          continue;
        }
        const refused = await checkStep(held, e, this.deviceKeys);
        if (refused) {
          problems.push({ room, kind: refused, epoch: e.epoch, by: e.by });
          stop = true;
          break;
        }
        held = e;
        hashes[e.epoch] = await epochHash(e);
        moved = true;
        const c = e.change;
        if (c.kind === "remove" && c.userId !== e.by && !c.gone) removed = [...removed.filter((id) => id !== c.userId), c.userId];
        if (c.kind === "remove") left[c.userId] = e.epoch;
        if (c.kind === "add") removed = removed.filter((id) => id !== c.userId);
        if (c.kind === "remove") removals.push([e.epoch, this.clock()]);
      }
      if (stop || !moved || fetched.length < EPOCHS_PAGE) break;
    }
    if (held && held.epoch !== startedAt) {
      await this.store.set(`grp:epoch:${room}`, held);
      const kept = Object.keys(hashes)
        .map(Number)
        .sort((a, b) => a - b)
        .slice(-HASHES_KEPT);
      await this.store.set(`grp:hashes:${room}`, Object.fromEntries(kept.map((n) => [n, hashes[n]])));
      await this.store.set(`grp:removed:${room}`, removed.slice(-MAX_GROUP_MEMBERS));
      const lefts = Object.entries(left)
        .sort((a, b) => a[1] - b[1])
        .slice(-HASHES_KEPT);
      await this.store.set(`grp:left:${room}`, Object.fromEntries(lefts));
      await this.store.set(`grp:anchored:${room}`, anchoredAt);
      unvouched = unvouched.filter((id) => held?.members.some((m) => m.userId === id));
      await this.store.set(`grp:unvouched:${room}`, unvouched);
      await this.store.set(`grp:removals:${room}`, removals.slice(-HASHES_KEPT));
    }
    const view = await this.compare(room, held);
    // Not said as joining (nor handed a key) before the person lets them in.
    return { ...view, unshown: view.unshown.filter((id) => !unvouched.includes(id)), removed, left, anchoredAt, unvouched, problems };
  }

  private async compare(room: string, epoch: GroupEpoch | null): Promise<Pick<GroupView, "epoch" | "unshown" | "gone">> {
    if (!epoch) return { epoch: null, unshown: [], gone: [] };
    const shown = await this.store.get<string[]>(`grp:shown:${room}`);
    const ids = epoch.members.map((m) => m.userId).filter((id) => id !== this.me.record.userId);
    if (!shown) {
      // The epoch this device starts from (it created the group, or just joined): everyone in it is the group.
      await this.store.set(`grp:shown:${room}`, ids);
      return { epoch, unshown: [], gone: [] };
    }
    return { epoch, unshown: ids.filter((id) => !shown.includes(id)), gone: shown.filter((id) => !ids.includes(id)) };
  }

  /**
   * The chat has shown these members joining (sender keys go to them from now on) and everyone who left the
   * newest epoch (said once).
   */
  async acknowledge(room: string, userIds: string[]): Promise<void> {
    const epoch = await this.held(room);
    if (!epoch) return;
    const inEpoch = (id: string) => epoch.members.some((m) => m.userId === id);
    const shown = ((await this.store.get<string[]>(`grp:shown:${room}`)) ?? []).filter(inEpoch);
    const add = userIds.filter((id) => inEpoch(id) && !shown.includes(id));
    await this.store.set(`grp:shown:${room}`, [...shown, ...add]);
  }

  /**
   * Why this device, as an owner's or admin's, may not sign `invitee` in on the strength of the invitation the
   * server serves with them (null: a member of the current epoch signed it; core/group-invitations.ts).
   */
  async invitationRefused(view: GroupView, invitee: string, invitation: unknown) {
    if (!view.epoch) return "missing" as const;
    const leftAt = Math.max(view.left[invitee] ?? 0, view.anchoredAt);
    return invitationRefused(invitation, view.epoch, invitee, this.deviceKeys, leftAt || undefined);
  }

  /** Signs invitations of these people from this device, against the newest epoch it holds (none: nothing). */
  async signInvitations(room: string, invitees: string[], at = this.clock()): Promise<SignedInvitation[]> {
    const epoch = (await this.refresh(room)).epoch;
    if (!epoch?.members.some((m) => m.userId === this.me.record.userId)) return [];
    return Promise.all(invitees.map((id) => signInvitation(this.me, room, id, epoch.epoch, at)));
  }

  /** The person let in here someone who came in through an unbridged statement (`GroupView.unvouched`). */
  async vouch(room: string, userId: string): Promise<void> {
    return this.serial(room, async () => {
      const unvouched = (await this.store.get<string[]>(`grp:unvouched:${room}`)) ?? [];
      await this.store.set(
        `grp:unvouched:${room}`,
        unvouched.filter((id) => id !== userId),
      );
    });
  }

  /**
   * Starts the group's signed membership: its creator's device right after creating it, or, for a group from
   * before epochs, the first member's device that finds none (with the members the server lists).
   */
  async create(room: string, others: GroupMember[] = []): Promise<GroupEpoch> {
    // Members hear only devices of a signed list (decision 063): one not in its person's list yet signs nothing.
    if (!(await this.deviceKeys(this.me.record.userId, this.me.record.signingKey)).includes(this.me.record.signingKey))
      throw new Error("This device is not in your signed device list yet");
    const genesis = await signGenesis(this.me, room, others);
    if (!(await this.server.publish(room, genesis))) throw new Error("This group's membership was started already");
    await this.refresh(room);
    return genesis;
  }

  /**
   * Signs and publishes the next change (an add, a removal, a role). Refused when this person has not the
   * right, or when the server holds another statement under that number (the caller refreshes and tries again).
   */
  async change(room: string, change: GroupChange): Promise<GroupEpoch> {
    // One change at a time from this device (two "Let in" pressed together would sign the same number), and a
    // number another device took first is signed again on the newer list (docs/protocol.md §6a, "The server").
    const queued = (this.changing.get(room) ?? Promise.resolve())
      .catch(() => {})
      .then(async () => {
        for (let attempt = 0; ; attempt++) {
          const view = await this.refresh(room);
          if (!view.epoch) throw new Error("This group has no signed membership yet");
          const next = await signChange(this.me, view.epoch, change);
          if (typeof next === "string")
            throw new Error(
              next === "no-right" ? "Only the group's owner or an admin can change who is in it" : "That change does not apply",
            );
          if (await this.server.publish(room, next)) {
            await this.refresh(room);
            return next;
          }
          if (attempt >= CHANGE_ATTEMPTS - 1) throw new Error("Someone else changed the group at the same moment; try again");
        }
      });
    this.changing.set(room, queued);
    return queued;
  }

  /** This device's membership changes in flight, per room, each after the one before. */
  private readonly changing = new Map<string, Promise<unknown>>();

  /**
   * My sender key for the group's members as the newest signed epoch has them (never the server's member
   * list), each new member only once shown: see core/e2e.ts `prepareGroup` for the handout itself. A removal
   * changes the recipients, so the next message goes under a new sender key the removed member never gets.
   */
  async prepare(room: string, base: Parameters<E2eSession["prepareGroup"]>[2], view?: GroupView) {
    let v = view ?? (await this.refresh(room));
    // Heard of a newer epoch (a member's message or key named it): catch up first; meanwhile hand nothing out.
    if (!v.epoch || (await this.heard(room)) > v.epoch.epoch) v = await this.refresh(room);
    const me = this.me.record.userId;
    const epoch = v.epoch;
    if (!epoch?.members.some((m) => m.userId === me))
      throw new Error("You are not in this group's signed membership, so this message waits");
    if ((await this.heard(room)) > epoch.epoch) throw new Error(BEHIND);
    const recipients = epoch.members.map((m) => m.userId).filter((id) => id !== me && !v.unshown.includes(id) && !v.unvouched.includes(id));
    return this.session.prepareGroup(room, recipients, base, await this.claim(epoch));
  }

  /**
   * Seals a group message under my sender key, naming the newest epoch this device accepted (version 4); refused
   * while this device heard of a newer one it cannot get (the message waits in the outbox, saying why).
   */
  async seal(envelope: Envelope, text: string): Promise<Envelope> {
    let epoch = await this.held(envelope.room);
    if (!epoch || (await this.heard(envelope.room)) > epoch.epoch) epoch = (await this.refresh(envelope.room)).epoch ?? undefined;
    if (!epoch?.members.some((m) => m.userId === this.me.record.userId))
      throw new Error("You are not in this group's signed membership, so this message waits");
    if ((await this.heard(envelope.room)) > epoch.epoch) throw new Error(BEHIND);
    return this.session.sealGroup(envelope, text, await this.claim(epoch));
  }

  private async claim(epoch: GroupEpoch): Promise<EpochClaim> {
    return { epoch: epoch.epoch, hash: await epochHash(epoch) };
  }

  /** The newest epoch a member's signed message or key named in the room (0: none). */
  async heard(room: string): Promise<number> {
    return (await this.store.get<number>(`grp:heard:${room}`)) ?? 0;
  }

  private async hear(room: string, epoch: number) {
    if (epoch > (await this.heard(room))) await this.store.set(`grp:heard:${room}`, epoch);
  }

  /**
   * What a signed epoch claim of a member's envelope says (core/e2e.ts `EpochGate`, after the signature held and
   * before any chain step): a newer epoch is looked for first and the message refused when the server does not
   * hand it out; a different statement than the one accepted under that number is refused; a message signed
   * well after this device accepted a removal, in an epoch before it, is refused (its sender should have
   * rotated). A key handout is kept unless forked: the messages under it are checked one by one.
   */
  private gate(room: string, timestamp: number) {
    return async (claim: EpochClaim | null, kind: "message" | "key"): Promise<EpochRefusal | null> => {
      if (!claim) return null; // version 2 or 3, sealed before epochs were named (core/e2e.ts refuses a downgrade)
      await this.serial(room, () => this.hear(room, claim.epoch));
      let held = await this.held(room);
      if (kind === "message" && (!held || claim.epoch > held.epoch)) held = (await this.refresh(room)).epoch ?? undefined;
      if (!held || claim.epoch > held.epoch) return kind === "message" ? "withheld-epoch" : null;
      const hashes = (await this.store.get<Record<string, string>>(`grp:hashes:${room}`)) ?? {};
      const known = claim.epoch === held.epoch ? await epochHash(held) : hashes[claim.epoch];
      if (known !== undefined && known !== claim.hash) return "forked-epoch";
      if (kind === "key") return null;
      const removals = (await this.store.get<Removal[]>(`grp:removals:${room}`)) ?? [];
      const missed = removals.find(([epoch, at]) => epoch > claim.epoch && epoch <= (held?.epoch ?? 0) && timestamp - at >= STALE_AFTER_MS);
      return missed ? "stale-epoch" : null;
    };
  }

  /** Why a sender may not be heard in the room now (null: a member of the newest epoch). */
  private async refuseSender(room: string, senderId: string): Promise<"not-a-member" | "no-epoch" | null> {
    let epoch = await this.held(room);
    // A sender this device does not count as a member yet may have joined a moment ago: look once more. And
    // look now and then anyway, so someone removed since the last look is refused.
    const stale = this.clock() - (this.looked.get(room) ?? 0) >= LOOK_EVERY_MS;
    if (stale || !epoch?.members.some((m) => m.userId === senderId)) epoch = (await this.refresh(room)).epoch ?? undefined;
    if (!epoch) return "no-epoch";
    return epoch.members.some((m) => m.userId === senderId) ? null : "not-a-member";
  }

  /** Opens a group message only from a member of the newest signed epoch (a removed member is refused). */
  async open(
    envelope: Envelope,
  ): Promise<{ ok: true; text: string; changes?: TrustChange[]; problems?: TrustProblem[] } | { ok: false; reason: GroupOpenFailure }> {
    const refused = await this.refuseSender(envelope.room, envelope.senderId);
    if (refused) return { ok: false, reason: refused };
    return this.session.open(envelope, this.gate(envelope.room, envelope.timestamp));
  }

  /** Keeps a sender key only from a member of the newest signed epoch. */
  async acceptSenderKey(
    envelope: Envelope,
  ): Promise<{ ok: true; changes: TrustChange[]; problems: TrustProblem[] } | { ok: false; reason: GroupOpenFailure }> {
    const refused = await this.refuseSender(envelope.room, envelope.senderId);
    if (refused) return { ok: false, reason: refused };
    return this.session.acceptSenderKey(envelope, this.gate(envelope.room, envelope.timestamp));
  }
}
