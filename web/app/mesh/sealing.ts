// Sealing and sender keys of the mesh node: private rooms' content is encrypted when it leaves and opened when
// it arrives, with the protocol of core/e2e.ts (docs/protocol.md). A contact's new or changed key is said in
// the chat before anything is sealed to it, and for a contact marked verified nothing is sealed to it until the
// person accepts it (docs/decisions/063-one-identity-per-person.md). A group's sender keys go only to the members
// of its newest signed epoch, each new one once said in the chat, and only those members are heard
// (docs/decisions/073-group-epochs.md).
import type { E2eSession, TrustChange, TrustProblem } from "../../../core/e2e";
import { BEHIND, type GroupChange, type GroupMembership, type GroupProblem, type GroupView } from "../../../core/group-epochs";
import type { Envelope } from "../../../core/envelope";
import type { OutboxItem } from "./db";
import type { History } from "./history";
import * as keys from "./keys";
import { DEFAULT_TTL } from "../../../core/envelope";
import { dmPeer, isPrivateRoomId as isPrivateRoom } from "../../../core/room-ids";
import { packContent, unpackContent } from "./logic";

export type SealingSession = Pick<E2eSession, "sealDirect" | "sealGroup" | "prepareGroup" | "open" | "acceptSenderKey" | "acknowledge">;
/** A private group's signed membership on this device (core/group-epochs.ts). */
export type SealingGroups = Pick<
  GroupMembership,
  "refresh" | "acknowledge" | "create" | "change" | "prepare" | "seal" | "open" | "acceptSenderKey" | "invitationRefused" | "vouch"
>;
/** `invitation`: the statement their inviter's device signed, as the server keeps it (core/group-invitations.ts). */
export type ServerMember = { userId: string; nickname?: string; role?: string; invitation?: unknown };
type RelistedRemoved = { room: string; kind: "relisted-removed"; epoch: number; by: string };

export interface SealingDeps {
  me: { id: string; nickname: string };
  hop: string;
  history: History;
  /** Puts a sender-key envelope in the outbox and tries to send it. */
  enqueue(item: OutboxItem): Promise<void>;
  session?: () => Promise<SealingSession>;
  publishDeviceKey?: (userId: string) => Promise<void>;
  members?: (room: string) => Promise<ServerMember[]>;
  groups?: () => Promise<SealingGroups>;
  /** True when the person marked this contact's safety number as verified (their key changes wait for consent). */
  verified?: (userId: string) => Promise<boolean>;
}

/** People a chat remembers having asked about (so each is asked once). */
const MAX_ASKED = 256;

/** A change that must be shown (and, for a verified contact, accepted) before anything is sealed to the key. */
const needsConsent = (c: TrustChange) => c.kind !== "device-removed";

export type Opened = { text: string; meta?: Record<string, unknown> };

/** A failure the screen says by its catalog key, in the page's language. */
export class KeyedError extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/**
 * A group's members as the server lists them: names for the chat, and what an owner's or admin's device signs
 * into the group's membership (never who receives my sender key: that is the signed epoch, docs/protocol.md §6a).
 */
async function fetchMembers(room: string): Promise<ServerMember[]> {
  const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/members`, { credentials: "include" });
  if (!res.ok) throw new KeyedError("msg.membersUnchecked");
  const body = (await res.json()) as { members?: { userId?: unknown; nickname?: unknown; role?: unknown; invitation?: unknown }[] };
  return (body.members ?? [])
    .filter((m): m is { userId: string; nickname: unknown; role: unknown; invitation: unknown } => typeof m.userId === "string")
    .map((m) => ({
      userId: m.userId,
      nickname: typeof m.nickname === "string" ? m.nickname : undefined,
      role: typeof m.role === "string" ? m.role : undefined,
      invitation: m.invitation ?? undefined,
    }));
}

export class Sealing {
  /** Nicknames of group members (for security notices). */
  private readonly names = new Map<string, string>();
  private readonly session: () => Promise<SealingSession>;
  private readonly publish: (userId: string) => Promise<void>;
  private readonly members: (room: string) => Promise<ServerMember[]>;
  private readonly groups: () => Promise<SealingGroups>;

  constructor(private readonly deps: SealingDeps) {
    this.session = deps.session ?? keys.session;
    this.publish = deps.publishDeviceKey ?? keys.publishDeviceKey;
    this.members = deps.members ?? fetchMembers;
    this.groups = deps.groups ?? keys.groupMembership;
    this.verified = deps.verified ?? (async (userId) => (await keys.verifiedSafetyNumber(userId)) !== null);
  }

  private readonly verified: (userId: string) => Promise<boolean>;

  /**
   * Encrypts the content of an envelope for a private room (plain rooms go as they are). Devices that
   * appeared or changed since last time are shown in the chat before this message.
   */
  async seal(envelope: Envelope): Promise<Envelope> {
    if (!isPrivateRoom(envelope.room) || !("text" in envelope.content)) return envelope;
    // Meta (a shared location...) is content too: it travels inside the ciphertext, never beside it.
    const text = packContent(envelope.content.text, envelope.meta);
    envelope = { ...envelope, meta: undefined };
    // Receivers accept only devices they can find published: this one should be before its first message
    // (offline, with only another tab's relay, it was published on an earlier visit).
    await this.publish(this.deps.me.id).catch(() => {});
    const session = await this.session();
    const peer = dmPeer(envelope.room, this.deps.me.id);
    if (peer) {
      let sealed = await session.sealDirect(envelope, text, peer);
      if (!sealed.envelope) {
        // Nothing was sealed: the change is shown first, accepted (or waited on), and only then sealed to.
        await this.consent(envelope.room, sealed.changes, sealed.problems, envelope.timestamp - 1);
        sealed = await session.sealDirect(envelope, text, peer);
      }
      await this.showChanges(envelope.room, sealed.changes, envelope.timestamp - 1, sealed.problems);
      if (!sealed.envelope) throw new Error("A contact's keys changed again while this message was being sealed, so it waits.");
      return sealed.envelope;
    }
    await this.shareSenderKey(envelope.room, envelope.timestamp - 1);
    // Names the newest epoch this device accepted, and waits while a member's message named a newer one (§6a).
    return (await this.groups()).seal(envelope, text).catch((error: unknown) => {
      throw error instanceof Error && error.message === BEHIND ? new KeyedError("msg.groupBehind") : error;
    });
  }

  /**
   * Shows each change in the chat, then accepts it, unless it is a new account key of a contact the person
   * verified: then the message waits in the outbox, saying why, until the person compares and marks the new
   * number verified in the chat's info. (A verified contact's new device is signed by the account key the
   * person verified, so showing it is enough: docs/decisions/063-one-identity-per-person.md.)
   */
  private async consent(room: string, changes: TrustChange[], problems: TrustProblem[], at: number): Promise<void> {
    await this.showChanges(room, changes, at, problems);
    const pending = changes.filter(needsConsent);
    for (const userId of new Set(pending.filter((c) => c.kind === "account-changed").map((c) => c.userId))) {
      if (userId === this.deps.me.id || !(await this.verified(userId))) continue;
      const name = this.names.get(userId) ?? this.nameIn(room, userId) ?? "A contact you verified";
      throw new Error(
        `${name}'s security key changed since you verified it, so this message waits. Compare safety numbers in the chat's info, then mark them verified to send.`,
      );
    }
    await (await this.session()).acknowledge(pending);
  }

  /**
   * Hands my group sender key to every trusted device of the members of the group's newest signed epoch that
   * lacks it (docs/protocol.md §6a), never to someone only the server lists. A member new in the epoch is said
   * in the chat first; a removal changes the recipients, so the protocol makes a new key whoever left never gets.
   */
  async shareSenderKey(room: string, noticeAt = Date.now()): Promise<void> {
    const members = await this.members(room);
    for (const m of members) if (m.nickname !== undefined) this.names.set(m.userId, m.nickname);
    const view = await this.agreeOnMembers(room, members, noticeAt);
    const groups = await this.groups();
    const base = {
      senderId: this.deps.me.id,
      senderName: this.deps.me.nickname,
      timestamp: Date.now(),
      ttl: DEFAULT_TTL,
      meshRoute: [this.deps.hop],
      priority: "normal" as const,
    };
    let handout = await groups.prepare(room, base, view).catch((error: unknown) => {
      // Heard of a newer epoch than the server hands this device: no key goes out, and the message says why.
      throw error instanceof Error && error.message === BEHIND ? new KeyedError("msg.groupBehind") : error;
    });
    if (handout.waiting) {
      // No sender key goes to a new or changed device before the chat has said so.
      await this.consent(room, handout.changes, handout.problems, noticeAt);
      handout = await groups.prepare(room, base, view);
      if (handout.waiting) throw new Error("A member's keys changed again while this message was being sealed, so it waits.");
    }
    const { envelopes, changes } = handout;
    await this.showChanges(room, changes, noticeAt, handout.problems);
    for (const envelope of envelopes) await this.deps.enqueue({ id: envelope.id, room, envelope, createdAt: envelope.timestamp });
  }

  /**
   * The group's newest signed epoch, as this device accepts it, after what this person's device may sign: the
   * group's first epoch when it has none (a group from before epochs), and, on the device of an owner or admin,
   * the people the server lists who joined (accepted an invitation) or left. Who joined is said in the chat
   * before anything is sealed to them; so is who left and what the server offered that was refused.
   */
  private agreeOnMembers(room: string, members: ServerMember[], at: number): Promise<GroupView> {
    // One at a time per room: a send and a member arriving would otherwise sign the same change twice (the
    // server keeps the first and refuses the second with 409).
    const run = (this.agreeing.get(room) ?? Promise.resolve()).then(
      () => this.agree(room, members, at),
      () => this.agree(room, members, at),
    );
    this.agreeing.set(
      room,
      run.catch(() => {}),
    );
    return run;
  }

  private readonly agreeing = new Map<string, Promise<unknown>>();

  private async agree(room: string, members: ServerMember[], at: number): Promise<GroupView> {
    const groups = await this.groups();
    let view = await groups.refresh(room);
    if (!view.epoch) {
      // Only a device of its person's signed list starts it (`create` checks; `seal` publishes the list first).
      const owner = members.find((m) => m.role === "owner");
      const others = members.map((m) => ({
        userId: m.userId,
        role: m.userId === owner?.userId ? ("owner" as const) : ("member" as const),
      }));
      await groups.create(room, others).catch(() => {}); // another member's device started it first: read theirs
      view = await groups.refresh(room);
    }
    const me = view.epoch?.members.find((m) => m.userId === this.deps.me.id);
    if (view.epoch && (me?.role === "owner" || me?.role === "admin")) {
      const signed = new Set(view.epoch.members.map((m) => m.userId));
      const listed = new Set(members.map((m) => m.userId));
      // Someone an owner or admin removed is not signed back in because the server lists them again.
      const relisted = members.filter((m) => !signed.has(m.userId) && view.removed.includes(m.userId));
      for (const m of relisted)
        await this.showGroupProblems(room, [{ room, kind: "relisted-removed", epoch: view.epoch.epoch, by: m.userId }], at);
      // Signed in only on an invitation a member's device signed; anyone else waits for "Let in" (decision 081).
      const adds: GroupChange[] = [];
      for (const m of members.filter((m) => !signed.has(m.userId) && !view.removed.includes(m.userId))) {
        if (await groups.invitationRefused(view, m.userId, m.invitation)) await this.askToLetIn(room, m.userId, true, at);
        else adds.push({ kind: "add", userId: m.userId });
      }
      const changes = [
        ...adds,
        ...[...signed]
          .filter((id) => !listed.has(id) && id !== this.deps.me.id)
          .map((userId) => ({ kind: "remove" as const, userId, gone: true as const })),
      ];
      for (const change of changes) await groups.change(room, change).catch((e) => console.warn("mesh: membership change", e));
      if (changes.length) view = await groups.refresh(room);
    } else if (view.epoch) {
      // Other members see who waits; their devices sign nothing and hand nothing to them.
      const signed = new Set(view.epoch.members.map((m) => m.userId));
      const waiting = members.filter((m) => !signed.has(m.userId) && !view.removed.includes(m.userId) && m.userId !== this.deps.me.id);
      for (const m of waiting) await this.askToLetIn(room, m.userId, false, at);
    }
    await this.showGroupProblems(room, view.problems, at);
    // Someone who came in through a list no member this device knew signed gets nothing until let in here.
    for (const id of view.unvouched) await this.askToLetIn(room, id, true, at);
    if (view.epoch)
      await this.forgetAsked(
        room,
        view.epoch.members.map((m) => m.userId).filter((id) => !view.unvouched.includes(id)),
      );
    // The chat words these in the reader's language from the meta (features/chat/security-lines.ts).
    for (const id of view.gone) {
      const name = this.names.get(id);
      await this.deps.history.notice(room, `${name ?? "Someone"} is no longer in this group; what follows is sealed without them.`, at, {
        event: "member-gone",
        name,
      });
    }
    for (const id of view.unshown) {
      const name = this.names.get(id);
      await this.deps.history.notice(room, `${name ?? "Someone"} now receives the messages of this group.`, at, {
        event: "member-joined",
        name,
      });
    }
    if (view.unshown.length || view.gone.length) {
      await groups.acknowledge(room, view.unshown);
      view = { ...view, unshown: [], gone: [] };
    }
    return view;
  }

  /**
   * Says once in the chat that someone the server lists waits to join without an invitation a member's device
   * signed (an invitation made without JavaScript, or the server's invention): the device of an owner or admin
   * shows a "Let in" button (features/chat/join-requests.tsx), everyone else that they wait. Nothing is handed
   * to them meanwhile: they are not in the signed epoch.
   */
  private async askToLetIn(room: string, userId: string, canLetIn: boolean, at: number) {
    const asked = (await this.deps.history.kvGet<string[]>(`join-asked:${room}`)) ?? [];
    if (asked.includes(userId)) return;
    await this.deps.history.kvSet(`join-asked:${room}`, [...asked, userId].slice(-MAX_ASKED));
    const name = this.names.get(userId) ?? null;
    const who = name ?? "Someone";
    const text = canLetIn
      ? `${who} wants to join this group. They get nothing until you let them in.`
      : `${who} is waiting for an owner or admin of this group to let them in.`;
    await this.deps.history.notice(room, text, at, { event: "join-waiting", userId, name, canLetIn });
  }

  /** Those now in the signed epoch may be asked about again should they leave and come back. */
  private async forgetAsked(room: string, signed: string[]) {
    const asked = (await this.deps.history.kvGet<string[]>(`join-asked:${room}`)) ?? [];
    const still = asked.filter((id) => !signed.includes(id));
    if (still.length !== asked.length) await this.deps.history.kvSet(`join-asked:${room}`, still);
  }

  /**
   * "Let in", pressed by an owner or admin: this device signs the person into the group's epoch (docs/protocol.md
   * §6a). The chat's line loses its button; the next handout says they joined before their key goes.
   */
  async letIn(room: string, userId: string): Promise<void> {
    const groups = await this.groups();
    const view = await groups.refresh(room);
    if (view.unvouched.includes(userId)) await groups.vouch(room, userId);
    else if (!view.epoch?.members.some((m) => m.userId === userId)) await groups.change(room, { kind: "add", userId });
    for (const m of this.deps.history.list(room))
      if (m.meta?.event === "join-waiting" && m.meta.userId === userId && !m.meta.admitted)
        await this.deps.history.update({ ...m, meta: { ...m.meta, admitted: true } });
  }

  /**
   * Says once per page what the server offered about a group's membership that was refused. The text is the
   * English fallback; the chat words the line from its meta in the reader's language (features/chat/security-lines.ts).
   */
  private async showGroupProblems(room: string, problems: (GroupProblem | RelistedRemoved)[], at: number) {
    for (const p of problems) {
      const said = `${room}|group|${p.kind}|${p.epoch}|${p.by ?? ""}`;
      if (this.problemsSaid.has(said)) continue;
      this.problemsSaid.add(said);
      const name = p.kind === "relisted-removed" ? (this.names.get(p.by) ?? null) : null;
      const what =
        p.kind === "relisted-removed"
          ? `The server lists ${name ?? "someone"} in this group again after they were removed; they get nothing.`
          : p.kind === "rolled-back"
            ? "The server offered an older list of this group's members; it was refused."
            : p.kind === "unbridged"
              ? "The server no longer holds the changes between the list of this group's members this device knew and its newest; the newest was taken as new. If you did not expect it, check who is in the group."
              : p.kind === "forked"
                ? "The server offered another list of this group's members than the one this device agreed to; it was refused."
                : p.kind === "no-right"
                  ? "The server offered a change of this group's members that no owner or admin made; it was refused."
                  : "The server offered a change of this group's members that a member's device did not sign; it was refused.";
      await this.deps.history.notice(room, what, at, {
        event: "key-refused",
        kind: `group-${p.kind}`,
        ...(p.kind === "relisted-removed" ? { name } : {}),
      });
    }
  }

  /**
   * Says in the chat that a contact's keys changed (a new device, a device or account with a new key, a device
   * withdrawn), each change once per chat, and what the server offered that was refused.
   */
  async showChanges(room: string, changes: TrustChange[], at: number, problems: TrustProblem[] = []) {
    const said = (await this.deps.history.kvGet<string[]>(`key-notices:${room}`)) ?? [];
    const fresh = changes.filter((c) => !said.includes(`${c.userId}|${c.kind}|${c.deviceId}|${c.key ?? ""}`));
    for (const c of new Set(fresh.map((c) => `${c.userId}|${c.kind}`))) {
      const [userId, kind] = c.split("|");
      const self = userId === this.deps.me.id;
      const name = self ? null : (this.names.get(userId ?? "") ?? this.nameIn(room, userId ?? "") ?? null);
      const who = self ? "Your account" : (name ?? "This contact");
      const check = "If you did not expect it, compare safety numbers in the chat's info.";
      // The chat renders "device-change" lines in the person's language (features/chat/disappearing.tsx): a new
      // account key reads as the contact's security key changing, which it is; "device-removed" lines the same way.
      if (kind === "device-removed") {
        await this.deps.history.notice(room, `${who} signed a device out; it no longer receives this chat.`, at, {
          event: "device-removed",
          self,
          name,
        });
        continue;
      }
      const what =
        kind === "new-device" ? `${who} has a new device that now receives this chat. ${check}` : `${who}'s security key changed. ${check}`;
      await this.deps.history.notice(room, what, at, { event: "device-change", kind, self, name });
    }
    if (fresh.length)
      await this.deps.history.kvSet(
        `key-notices:${room}`,
        [...said, ...fresh.map((c) => `${c.userId}|${c.kind}|${c.deviceId}|${c.key ?? ""}`)].slice(-200),
      );
    for (const p of new Set(problems.map((p) => `${p.userId}|${p.kind}`))) {
      if (this.problemsSaid.has(`${room}|${p}`)) continue;
      this.problemsSaid.add(`${room}|${p}`);
      const [userId, kind] = p.split("|");
      // Self or a name in the meta, not an English possessive: the chat picks a sentence for each (security-lines.ts).
      const self = userId === this.deps.me.id;
      const name = self ? null : (this.names.get(userId ?? "") ?? this.nameIn(room, userId ?? "") ?? null);
      const whose = self ? "your" : `${name ?? "this contact"}'s`;
      const what =
        kind === "rolled-back"
          ? `The server offered an older list of ${whose} devices; it was refused.`
          : kind === "relisted-revoked"
            ? `The server listed again a device of ${self ? "yours" : whose} that was signed out; it gets nothing.`
            : `The server offered a list of ${whose} devices that ${self ? "your account" : "their account"} did not sign; it was refused.`;
      await this.deps.history.notice(room, what, at, { event: "key-refused", kind, self, name });
    }
  }

  /** Refusals already said in this page's life (the server may repeat them on every look). */
  private readonly problemsSaid = new Set<string>();

  private nameIn(room: string, userId: string): string | undefined {
    return this.deps.history.list(room).findLast((m) => m.senderId === userId && m.senderName)?.senderName;
  }

  /**
   * Opens an envelope's content (text and any meta sealed with it). Private rooms accept only what the
   * protocol authenticates: plain text there, a forged sender, a rewritten header or a replay is refused.
   * Null: this device cannot open it (yet).
   */
  async open(envelope: Envelope): Promise<Opened | { refused: string } | null> {
    if (!isPrivateRoom(envelope.room)) return "text" in envelope.content ? { text: envelope.content.text, meta: envelope.meta } : null;
    // A group message is heard only from a member of the group's newest signed epoch (docs/protocol.md §6a).
    const opened = dmPeer(envelope.room, this.deps.me.id)
      ? await (await this.session()).open(envelope)
      : await (await this.groups()).open(envelope);
    if (opened.ok && (opened.changes?.length || opened.problems?.length))
      await this.showChanges(envelope.room, opened.changes ?? [], envelope.timestamp - 1, opened.problems);
    if (opened.ok) return unpackContent(opened.text);
    if (opened.reason === "no-key" || opened.reason === "not-for-this-device" || opened.reason === "no-epoch") return null;
    if (opened.reason === "withheld-epoch" || opened.reason === "stale-epoch" || opened.reason === "forked-epoch")
      await this.showEpochRefusal(envelope, opened.reason);
    return { refused: opened.reason };
  }

  /**
   * A group message refused for the epoch it names is not shown; the chat says why, once per sender and reason
   * in this page's life (docs/protocol.md §6a).
   */
  private async showEpochRefusal(envelope: Envelope, reason: "withheld-epoch" | "stale-epoch" | "forked-epoch") {
    const said = `${envelope.room}|epoch|${reason}|${envelope.senderId}`;
    if (this.problemsSaid.has(said)) return;
    this.problemsSaid.add(said);
    const name = this.names.get(envelope.senderId) ?? this.nameIn(envelope.room, envelope.senderId) ?? envelope.senderName ?? null;
    const who = name ?? "A member";
    // The chat words "epoch-refused" lines in the person's language (features/chat/disappearing.tsx).
    const what =
      reason === "withheld-epoch"
        ? `A message from ${who} was sealed for a newer list of this group's members than the server gives this device; it is not shown, and this device sends nothing until it can check that list.`
        : reason === "stale-epoch"
          ? `A message from ${who} was sealed for this group's members from before someone was removed, as if the server had not told their device; it is not shown.`
          : `A message from ${who} names another list of this group's members than the one this device agreed to; it is not shown.`;
    await this.deps.history.notice(envelope.room, what, envelope.timestamp, { event: "epoch-refused", kind: reason, name });
  }

  /** A `key` envelope addressed to this device: keep the sender key and open messages that waited for it. */
  async acceptSenderKey(envelope: Envelope) {
    // Only a member of the group's newest signed epoch hands this device a key it keeps.
    const accepted = await (await this.groups()).acceptSenderKey(envelope);
    if (!accepted.ok) return;
    await this.showChanges(envelope.room, accepted.changes, envelope.timestamp, accepted.problems);
    for (const m of this.deps.history.list(envelope.room)) {
      if (!m.pending) continue;
      const opened = await this.open(m.pending);
      if (opened && "text" in opened)
        await this.deps.history.update({ ...m, text: opened.text, meta: opened.meta, isEncrypted: true, pending: undefined });
    }
  }
}
