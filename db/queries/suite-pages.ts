// What a page load asks the database, run on both drivers (db/queries/libsql.test.ts, d1.worker.test.ts):
// the session with its unread badge in one statement, and the chat screen's side lists in another
// (docs/decisions/057-pages-ask-once-and-replicas.md).
import { describe, expect, it } from "vitest";
import { dmRoomId } from "../../core/room-ids";
import type { Db } from "../index";
import { chatListsOf } from "./chat-lists";
import { openRequest } from "./direct-requests";
import { insertNotifications, markAllRead } from "./notifications";
import { addBlock, addInvitations, addMembers, ensureRoom } from "./rooms";
import { findSession, insertSession } from "./sessions";
import { createUser, updateUser } from "./users";

export function pagesQuerySuite(driver: string, getDb: () => Db) {
  describe(`page queries on ${driver}`, () => {
    it("reads a session with its user's unread notifications", async () => {
      const db = getDb();
      const user = await createUser(db);
      const id = `hash-${Math.random()}`;
      await insertSession(db, { id, userId: user.id, expiresAt: new Date(Date.now() + 60_000) });
      expect((await findSession(db, id))?.unreadNotifications).toBe(0);
      await insertNotifications(db, [user.id, user.id], { type: "system", title: "Hello", content: "Welcome" });
      const read = await findSession(db, id);
      expect(read?.user.id).toBe(user.id);
      expect(read?.unreadNotifications).toBe(2);
      await markAllRead(db, user.id);
      expect((await findSession(db, id))?.unreadNotifications).toBe(0);
    });

    it("lists a person's invitations, blocks and direct chats in one read", async () => {
      const db = getDb();
      const [me, host, pest, friend, stranger] = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(db)));
      await updateUser(db, host.id, { nickname: "Bola" });
      await updateUser(db, pest.id, { nickname: "Spammer" });
      await updateUser(db, friend.id, { nickname: "Efe", anonymousMode: true });
      const group = `group:${Math.random()}`;
      await ensureRoom(db, { id: group, kind: "group", name: "Market traders" });
      await addInvitations(db, group, host.id, [me.id]);
      await addBlock(db, me.id, pest.id);
      // Two direct chats: one accepted long ago (no request row), one a pending request from a stranger.
      const known = dmRoomId(me.id, friend.id);
      const asked = dmRoomId(me.id, stranger.id);
      for (const [room, other] of [
        [known, friend.id],
        [asked, stranger.id],
      ]) {
        await ensureRoom(db, { id: room, kind: "dm", name: "Direct" });
        await addMembers(db, room, [{ userId: me.id }, { userId: other }]);
      }
      expect(await openRequest(db, asked, stranger.id, new Date(0))).toBe(true);

      const lists = await chatListsOf(db, me.id);
      expect(lists.invitations).toEqual([
        expect.objectContaining({
          roomId: group,
          name: "Market traders",
          invitedBy: host.id,
          invitedByName: "Bola",
          invitedByAnonymous: false,
        }),
      ]);
      expect(lists.invitations[0].createdAt).toBeInstanceOf(Date);
      expect(lists.blocked).toEqual([expect.objectContaining({ userId: pest.id, nickname: "Spammer", anonymousMode: false })]);
      const byRoom = new Map(lists.directs.map((d) => [d.roomId, d]));
      expect(byRoom.size).toBe(2);
      expect(byRoom.get(known)).toMatchObject({
        peerId: friend.id,
        peer: { id: friend.id, nickname: "Efe", anonymousMode: true },
        request: null,
      });
      expect(byRoom.get(asked)).toMatchObject({
        peerId: stranger.id,
        request: { roomId: asked, fromUserId: stranger.id, status: "pending" },
      });
      expect(byRoom.get(asked)?.request?.createdAt).toBeInstanceOf(Date);
      // The other side sees the same chats with the person as the other one.
      expect((await chatListsOf(db, friend.id)).directs).toEqual([expect.objectContaining({ roomId: known, peerId: me.id })]);
      // Nothing for someone with nothing.
      expect(await chatListsOf(db, host.id)).toEqual({ invitations: [], blocked: [], directs: [] });
    });
  });
}
