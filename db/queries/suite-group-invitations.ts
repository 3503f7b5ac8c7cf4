// Signed invitations and the bounded statement log (db/queries/group-invitations.ts, docs/decisions/
// 081-no-silent-join.md) on both drivers; run from db/queries/libsql.test.ts and db/queries/d1.worker.test.ts.
import { describe, expect, it } from "vitest";
import type { Db } from "../index";
import { epochsFrom, storeEpoch } from "./group-epochs";
import {
  attachInvitationStatements,
  dropMemberInvitations,
  pruneEpochs,
  setMemberInvitation,
  takeInvitationStatement,
} from "./group-invitations";
import { addInvitations, addMembers, ensureRoom, listMembers } from "./rooms";
import { createUser } from "./users";

export function groupInvitationQuerySuite(driver: string, getDb: () => Db) {
  describe(`group invitation queries on ${driver}`, () => {
    it("keep the inviter's statement on the invitation, move it to the member, and drop it once spent", async () => {
      const db = getDb();
      const [owner, kemi, ada] = [await createUser(db), await createUser(db), await createUser(db)];
      const room = await ensureRoom(db, { id: `group:${crypto.randomUUID()}`, kind: "group", name: "Nets", createdBy: owner.id });
      await addMembers(db, room.id, [{ userId: owner.id, role: "owner" }]);
      await addInvitations(db, room.id, owner.id, [kemi.id, ada.id]);
      // Only the inviter's own invitation takes a statement.
      await attachInvitationStatements(db, room.id, owner.id, [{ userId: kemi.id, statement: '{"s":1}' }]);
      await attachInvitationStatements(db, room.id, kemi.id, [{ userId: ada.id, statement: '{"s":2}' }]);
      expect(await takeInvitationStatement(db, room.id, kemi.id)).toEqual({ statement: '{"s":1}' });
      expect(await takeInvitationStatement(db, room.id, kemi.id)).toBeUndefined();
      expect(await takeInvitationStatement(db, room.id, ada.id)).toEqual({ statement: null });
      await addMembers(db, room.id, [{ userId: kemi.id }]);
      await setMemberInvitation(db, room.id, kemi.id, '{"s":1}');
      expect((await listMembers(db, room.id)).map((m) => [m.userId, m.invitation])).toEqual([
        [owner.id, null],
        [kemi.id, '{"s":1}'],
      ]);
      await dropMemberInvitations(db, room.id, [kemi.id]);
      expect((await listMembers(db, room.id)).find((m) => m.userId === kemi.id)?.invitation).toBeNull();
    });

    it("prune a group's statements below a number, and only that group's", async () => {
      const db = getDb();
      const owner = await createUser(db);
      const ids = [`group:${crypto.randomUUID()}`, `group:${crypto.randomUUID()}`];
      for (const id of ids) {
        await ensureRoom(db, { id, kind: "group", name: "Log", createdBy: owner.id });
        for (let epoch = 1; epoch <= 5; epoch++) expect(await storeEpoch(db, { roomId: id, epoch, body: `{"e":${epoch}}` })).toBe(true);
      }
      await pruneEpochs(db, ids[0]!, 4);
      expect((await epochsFrom(db, ids[0]!, 1, 20)).map((r) => r.epoch)).toEqual([4, 5]);
      expect((await epochsFrom(db, ids[1]!, 1, 20)).map((r) => r.epoch)).toEqual([1, 2, 3, 4, 5]);
    });
  });
}
