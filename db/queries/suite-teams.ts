// The team queries (db/queries/teams.ts, docs/decisions/067-enterprise-teams.md) on both drivers: the seat taken in
// one statement, the single-use invitation claim, and the room check that follows the team.
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import type { Db } from "../index";
import { addMembers } from "./rooms";
import {
  claimInvite,
  findInvite,
  groupAccess,
  insertInvite,
  insertTeam,
  invitesMadeSince,
  openInvites,
  pruneInvites,
  releaseInvite,
  removeSeat,
  revokeInvite,
  takeSeat,
  teamMembers,
  teamOf,
} from "./teams";
import { createUser } from "./users";

export function teamQuerySuite(driver: string, getDb: () => Db) {
  describe(`team queries on ${driver}`, () => {
    async function team(db: Db) {
      const owner = await createUser(db, { subscriptionTier: "enterprise" });
      const id = newId();
      const roomId = `group:${newId()}`;
      await insertTeam(db, { id, ownerId: owner.id, name: "Jos Weavers", roomId });
      return { id, roomId, owner };
    }

    it("starts a team with its owner seated and in the team room", async () => {
      const db = getDb();
      const { id, roomId, owner } = await team(db);
      const standing = await teamOf(db, owner.id);
      expect(standing).toMatchObject({
        role: "owner",
        ownerTier: "enterprise",
        org: { id, name: "Jos Weavers", roomId, seatFeatures: true },
      });
      expect(await groupAccess(db, roomId, owner.id)).toBe(true);
    });

    it("takes a seat only while one is free, and once per person", async () => {
      const db = getDb();
      const { id } = await team(db);
      const a = await createUser(db);
      const b = await createUser(db);
      const now = new Date();
      expect(await takeSeat(db, id, a.id, 3, now)).toBe(true);
      expect(await takeSeat(db, id, a.id, 3, now)).toBe(false);
      expect(await takeSeat(db, id, b.id, 2, now)).toBe(false);
      expect(await takeSeat(db, id, b.id, 3, now)).toBe(true);
      expect((await teamMembers(db, id)).map((m) => m.role)).toEqual(["owner", "member", "member"]);
    });

    it("claims an invitation once and not after it expires; a released one can be claimed again", async () => {
      const db = getDb();
      const { id, owner } = await team(db);
      const who = await createUser(db);
      const now = new Date();
      const invite = {
        id: newId(),
        orgId: id,
        codeHash: newId(),
        phone: null,
        createdBy: owner.id,
        expiresAt: new Date(now.getTime() + 60_000),
        createdAt: now,
      };
      await insertInvite(db, invite);
      expect((await openInvites(db, id, now)).map((i) => i.id)).toEqual([invite.id]);
      expect(await claimInvite(db, invite.id, who.id, now)).toBe(true);
      expect(await claimInvite(db, invite.id, who.id, now)).toBe(false);
      expect(await openInvites(db, id, now)).toEqual([]);
      await releaseInvite(db, invite.id);
      expect(await claimInvite(db, invite.id, who.id, new Date(now.getTime() + 120_000))).toBe(false);
      expect(await claimInvite(db, invite.id, who.id, now)).toBe(true);
    });

    it("counts a day's invitations, withdrawn ones too, and drops the finished ones a day later", async () => {
      const db = getDb();
      const { id, owner } = await team(db);
      const now = new Date();
      const made = (at: Date) => ({
        id: newId(),
        orgId: id,
        codeHash: newId(),
        phone: null,
        createdBy: owner.id,
        expiresAt: new Date(at.getTime() + 60_000),
        createdAt: at,
      });
      const old = made(new Date(now.getTime() - 2 * 86_400_000));
      const fresh = made(now);
      await insertInvite(db, old);
      await insertInvite(db, fresh);
      expect(await revokeInvite(db, id, fresh.id, now)).toBe(true);
      expect(await revokeInvite(db, id, fresh.id, now)).toBe(false);
      expect(await invitesMadeSince(db, id, new Date(now.getTime() - 86_400_000))).toBe(1);
      await pruneInvites(db, id, now);
      expect(await findInvite(db, old.codeHash)).toBeUndefined();
      expect((await findInvite(db, fresh.codeHash))?.usedBy).toBeNull();
    });

    it("lets a room member into a team room only while they hold a seat", async () => {
      const db = getDb();
      const { id, roomId } = await team(db);
      const who = await createUser(db);
      await addMembers(db, roomId, [{ userId: who.id }]);
      expect(await groupAccess(db, roomId, who.id)).toBe(false);
      await takeSeat(db, id, who.id, 6, new Date());
      expect(await groupAccess(db, roomId, who.id)).toBe(true);
      await removeSeat(db, id, who.id);
      expect(await groupAccess(db, roomId, who.id)).toBe(false);
    });
  });
}
