// What the chat screen lists beside a person's rooms, in one statement (docs/decisions/057): their open group
// invitations, the people they blocked, and their direct chats' other people with any message request. Each
// list is a JSON array of a correlated subquery (SQLite's JSON functions, on D1 and libSQL alike).
import { sql } from "drizzle-orm";
import type { Db } from "../index";
import type { DirectRequestRow } from "./direct-requests";

export interface InvitationRow {
  roomId: string;
  name: string;
  invitedBy: string | null;
  invitedByName: string | null;
  invitedByAnonymous: boolean | null;
  createdAt: Date;
}

export interface BlockedRow {
  userId: string;
  nickname: string;
  anonymousMode: boolean;
  createdAt: Date;
}

/** One direct chat of the person: the other person (null when their account is gone) and its request, if any. */
export interface DirectRow {
  roomId: string;
  peerId: string;
  /** `verified`: the other person has a verified phone (only they can be called). */
  peer: { id: string; nickname: string; anonymousMode: boolean; verified: boolean } | null;
  request: DirectRequestRow | null;
}

export interface ChatLists {
  invitations: InvitationRow[];
  blocked: BlockedRow[];
  directs: DirectRow[];
}

type Json = Record<string, string | number | null>;

const newestFirst = <T extends { createdAt: Date }>(rows: T[]) => rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());

export async function chatListsOf(db: Db, userId: string): Promise<ChatLists> {
  // A direct chat's id is "dm:" + the two user ids in order (core/room-ids.ts): the other person is the part
  // that is not this person's.
  const row = await db.get<{ invitations: string | null; blocked: string | null; directs: string | null }>(sql`
    select
      (select json_group_array(json_object('roomId', i.room_id, 'name', r.name, 'invitedBy', i.invited_by,
          'invitedByName', u.nickname, 'invitedByAnonymous', u.anonymous_mode, 'createdAt', i.created_at))
        from room_invitations i join rooms r on r.id = i.room_id left join users u on u.id = i.invited_by
        where i.user_id = ${userId}) as invitations,
      (select json_group_array(json_object('userId', b.blocked_id, 'nickname', u.nickname,
          'anonymousMode', u.anonymous_mode, 'createdAt', b.created_at))
        from user_blocks b join users u on u.id = b.blocked_id
        where b.blocker_id = ${userId}) as blocked,
      (select json_group_array(json_object('roomId', d.room_id, 'peerId', d.peer, 'nickname', u.nickname,
          'anonymousMode', u.anonymous_mode, 'verified', u.auth_mode = 'verified', 'found', u.id is not null, 'fromUserId', q.from_user_id, 'status', q.status,
          'requestedAt', q.created_at, 'decidedAt', q.decided_at))
        from (select m.room_id,
                case when substr(m.room_id, 4, length(${userId}) + 1) = ${userId} || ':'
                  then substr(m.room_id, 5 + length(${userId}))
                  else substr(m.room_id, 4, length(m.room_id) - 4 - length(${userId})) end as peer
              from room_members m where m.user_id = ${userId} and m.room_id like 'dm:%') d
        left join users u on u.id = d.peer
        left join direct_requests q on q.room_id = d.room_id) as directs
  `);
  const parse = (text: string | null | undefined) => (text ? (JSON.parse(text) as Json[]) : []);
  const invitations = parse(row?.invitations).map((i) => ({
    roomId: String(i.roomId),
    name: String(i.name),
    invitedBy: i.invitedBy === null ? null : String(i.invitedBy),
    invitedByName: i.invitedByName === null ? null : String(i.invitedByName),
    invitedByAnonymous: i.invitedByAnonymous === null ? null : Boolean(i.invitedByAnonymous),
    createdAt: new Date(Number(i.createdAt)),
  }));
  const blocked = parse(row?.blocked).map((b) => ({
    userId: String(b.userId),
    nickname: String(b.nickname),
    anonymousMode: Boolean(b.anonymousMode),
    createdAt: new Date(Number(b.createdAt)),
  }));
  const directs = parse(row?.directs).map((d) => ({
    roomId: String(d.roomId),
    peerId: String(d.peerId),
    peer: d.found
      ? { id: String(d.peerId), nickname: String(d.nickname), anonymousMode: Boolean(d.anonymousMode), verified: Boolean(d.verified) }
      : null,
    request:
      d.status === null
        ? null
        : {
            roomId: String(d.roomId),
            fromUserId: String(d.fromUserId),
            status: d.status as DirectRequestRow["status"],
            createdAt: new Date(Number(d.requestedAt)),
            decidedAt: d.decidedAt === null ? null : new Date(Number(d.decidedAt)),
          },
  }));
  return { invitations: newestFirst(invitations), blocked: newestFirst(blocked), directs };
}
