// Enterprise teams through the real Worker, D1 and the team room's Durable Object (docs/decisions/067-enterprise-teams.md):
// seats, single-use expiring invitations, roles and their rights, the team room only members enter, the seat's tier,
// the settings that change behaviour, and the team's support requests first on the staff desk.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CLOSE_NOT_MEMBER } from "../../core/frames";
import {
  INVITES_PER_DAY,
  TEAM_SEATS,
  TEAM_SUPPORT_RESPONSE_HOURS,
  type NewInviteAnswer,
  type TeamAnswer,
  type TeamInfo,
} from "../../core/teams";
import { adminSession, call, lastMessageTo, setTier, verifiedSession } from "../../tests/workers/helpers";
import { flushRoom, mustOpen, openRoom, textEnvelope } from "../../tests/workers/room-socket";

type Person = Awaited<ReturnType<typeof verifiedSession>>;

const person = (name: string) => verifiedSession("0817", name);

async function enterpriseOwner(name = "Ngozi"): Promise<Person> {
  const owner = await person(name);
  await setTier(owner.id, "enterprise");
  return owner;
}

async function newTeam(owner: Person, name = "Kano Growers"): Promise<TeamInfo> {
  const res = await call("/api/team", { method: "POST", cookie: owner.cookie, json: { name } });
  expect(res.status).toBe(201);
  const team = (await res.json<TeamAnswer>()).team;
  if (!team) throw new Error("no team");
  return team;
}

const invite = (who: Person, phone?: string) =>
  call("/api/team/invites", { method: "POST", cookie: who.cookie, json: phone ? { phone } : {} });

async function code(who: Person, phone?: string): Promise<string> {
  const res = await invite(who, phone);
  expect(res.status).toBe(201);
  return (await res.json<NewInviteAnswer>()).code;
}

const join = (who: Person, c: string) => call("/api/team/join", { method: "POST", cookie: who.cookie, json: { code: c } });

async function joined(who: Person, c: string): Promise<TeamInfo> {
  const res = await join(who, c);
  expect(res.status).toBe(200);
  return (await res.json<TeamAnswer>()).team as TeamInfo;
}

async function tierOf(who: Person): Promise<string> {
  return (await (await call("/api/me", { cookie: who.cookie })).json<{ user: { tier: string } }>()).user.tier;
}

async function teamOf(who: Person): Promise<TeamAnswer> {
  return (await call("/api/team", { cookie: who.cookie })).json<TeamAnswer>();
}

const errorCode = async (res: Response) => (await res.json<{ code?: string }>()).code;

describe("starting a team", () => {
  it("is for Enterprise subscribers, once, with a team room and six seats", async () => {
    const premium = await person("Tunde");
    await setTier(premium.id, "premium");
    expect(await teamOf(premium)).toEqual({ team: null, canCreate: false });
    const refused = await call("/api/team", { method: "POST", cookie: premium.cookie, json: { name: "Mine" } });
    expect(refused.status).toBe(402);
    expect(await errorCode(refused)).toBe("team_needs_enterprise");

    const owner = await enterpriseOwner();
    expect((await teamOf(owner)).canCreate).toBe(true);
    const team = await newTeam(owner);
    expect(team).toMatchObject({ name: "Kano Growers", seats: TEAM_SEATS, seatsTaken: 1, myRole: "owner", active: true });
    expect(TEAM_SEATS).toBe(6);
    expect(team.roomId).toMatch(/^group:/);
    const again = await call("/api/team", { method: "POST", cookie: owner.cookie, json: { name: "Second" } });
    expect(again.status).toBe(409);
  });
});

describe("invitations", () => {
  it("take a seat once: a used code is refused, an expired one too", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner);
    const c = await code(owner);
    expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const amaka = await person("Amaka");
    const team = await joined(amaka, c.toLowerCase().replace("-", " "));
    expect(team.myRole).toBe("member");
    expect(team.members.map((m) => m.nickname)).toEqual(["Ngozi", "Amaka"]);

    const bola = await person("Bola");
    const reused = await join(bola, c);
    expect(reused.status).toBe(409);
    expect(await errorCode(reused)).toBe("team_invite_used");

    const late = await code(owner);
    await env.DB.prepare("update org_invites set expires_at = ? where used_at is null")
      .bind(Date.now() - 1000)
      .run();
    const expired = await join(bola, late);
    expect(expired.status).toBe(409);
    expect(await errorCode(expired)).toBe("team_invite_expired");

    const unknown = await join(bola, "ABCDE-FGHJK");
    expect(unknown.status).toBe(404);
    expect((await teamOf(bola)).team).toBeNull();
  });

  it("never promise more seats than the plan has: open invitations hold seats", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner);
    const codes: string[] = [];
    for (let i = 1; i < TEAM_SEATS; i++) codes.push(await code(owner));
    const over = await invite(owner);
    expect(over.status).toBe(409);
    expect(await errorCode(over)).toBe("team_seats_full");
    expect((await teamOf(owner)).team?.seatsTaken).toBe(TEAM_SEATS);

    // Withdrawing one frees its seat for another invitation.
    const open = (await teamOf(owner)).team?.invites ?? [];
    expect((await call(`/api/team/invites/${open[0].id}`, { method: "DELETE", cookie: owner.cookie })).status).toBe(204);
    expect((await invite(owner)).status).toBe(201);
    const withdrawn = await join(await person("Chidi"), codes[0]);
    expect(withdrawn.status).toBe(404);
  });

  it("for a phone reach that phone by WhatsApp and in its notification centre, and only that phone can use it", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner, "Ibadan Tailors");
    const amaka = await person("Amaka");
    const c = await code(owner, amaka.local);
    const sent = await lastMessageTo(amaka.phone);
    expect(sent).toContain(c);
    expect(sent).toContain("Ibadan Tailors");
    const centre = await (await call("/api/notifications", { cookie: amaka.cookie })).text();
    expect(centre).toContain("Ibadan Tailors");

    const other = await person("Bola");
    const wrong = await join(other, c);
    expect(wrong.status).toBe(403);
    expect(await errorCode(wrong)).toBe("team_invite_other_phone");
    expect((await joined(amaka, c)).name).toBe("Ibadan Tailors");
  });

  it("are at most INVITES_PER_DAY a day, withdrawn ones counted, so nobody's phone is flooded with them", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner);
    const target = await person("Amaka");
    for (let i = 0; i < INVITES_PER_DAY; i++) {
      const made = await invite(owner, target.local);
      expect(made.status).toBe(201);
      const { invite: open } = await made.json<NewInviteAnswer>();
      expect((await call(`/api/team/invites/${open.id}`, { method: "DELETE", cookie: owner.cookie })).status).toBe(204);
    }
    const refused = await invite(owner, target.local);
    expect(refused.status).toBe(429);
    expect(await errorCode(refused)).toBe("team_too_many_invites");
    const sent = await env.DB.prepare('select count(*) as n from outbound_messages where "to" = ? and body like ?')
      .bind(target.phone, "%invites you to the team%")
      .first<{ n: number }>();
    expect(sent?.n).toBe(INVITES_PER_DAY);
  });

  it("need a verified phone to be used", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner);
    const c = await code(owner);
    const anonymous = (await call("/api/auth/anonymous", { method: "POST" })).headers.getSetCookie()[0].split(";")[0];
    const res = await call("/api/team/join", { method: "POST", cookie: anonymous, json: { code: c } });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe("team_verify");
  });
});

describe("roles", () => {
  it("give the owner every right, admins invite and remove members, members only what the settings allow", async () => {
    const owner = await enterpriseOwner();
    const team = await newTeam(owner);
    const admin = await person("Amaka");
    const member = await person("Bola");
    const other = await person("Chidi");
    await joined(admin, await code(owner));
    await joined(member, await code(owner));
    await joined(other, await code(owner));

    // A member neither invites (by default), removes, changes roles nor settings.
    expect(await errorCode(await invite(member))).toBe("team_not_allowed");
    const memberRemoves = await call(`/api/team/members/${other.id}/remove`, { method: "POST", cookie: member.cookie });
    expect(memberRemoves.status).toBe(403);
    const memberRenames = await call("/api/team", { method: "PATCH", cookie: member.cookie, json: { name: "Mine now" } });
    expect(memberRenames.status).toBe(403);

    // The owner makes an admin, who then invites and removes a member, but not the owner or another admin.
    const promoted = await call(`/api/team/members/${admin.id}/role`, { method: "POST", cookie: owner.cookie, json: { role: "admin" } });
    expect(promoted.status).toBe(200);
    const adminPromotes = await call(`/api/team/members/${member.id}/role`, {
      method: "POST",
      cookie: admin.cookie,
      json: { role: "admin" },
    });
    expect(adminPromotes.status).toBe(403);
    expect((await invite(admin)).status).toBe(201);
    const adminRemovesOwner = await call(`/api/team/members/${owner.id}/remove`, { method: "POST", cookie: admin.cookie });
    expect(await errorCode(adminRemovesOwner)).toBe("team_owner_stays");
    expect((await call(`/api/team/members/${other.id}/remove`, { method: "POST", cookie: admin.cookie })).status).toBe(200);
    expect((await teamOf(other)).team).toBeNull();

    // The setting "every member may invite" changes what a member may do.
    const open = await call("/api/team", {
      method: "PATCH",
      cookie: admin.cookie,
      json: { invitePolicy: "members", name: "Kano Growers Co-op" },
    });
    expect(open.status).toBe(200);
    expect((await invite(member)).status).toBe(201);
    // The team's name is the team room's name in everyone's room list.
    const rooms = await (await call("/api/rooms", { cookie: member.cookie })).json<{ rooms: { id: string; name: string }[] }>();
    expect(rooms.rooms.find((r) => r.id === team.roomId)).toMatchObject({ name: "Kano Growers Co-op", kind: "group", team: true });

    // The owner cannot leave; a member can.
    expect(await errorCode(await call("/api/team/leave", { method: "POST", cookie: owner.cookie }))).toBe("team_owner_stays");
    expect((await call("/api/team/leave", { method: "POST", cookie: member.cookie })).status).toBe(200);
    expect((await teamOf(member)).team).toBeNull();
  });
});

describe("the team room", () => {
  it("admits members only, and removing a member closes their socket and refuses them after", async () => {
    const owner = await enterpriseOwner();
    const team = await newTeam(owner);
    const roomId = team.roomId as string;
    const amaka = await person("Amaka");
    const outsider = await person("Bola");

    expect((await openRoom(roomId, outsider.cookie)).status).toBe(403);
    await joined(amaka, await code(owner));
    const socket = await mustOpen(roomId, amaka.cookie);
    const members = await (await call(`/api/rooms/${encodeURIComponent(roomId)}/members`, { cookie: amaka.cookie })).json<
      { userId: string }[]
    >();
    expect(JSON.stringify(members)).toContain(owner.id);
    expect((await call(`/api/rooms/${encodeURIComponent(roomId)}/members`, { cookie: outsider.cookie })).status).toBe(403);

    // A member cannot let an outsider in through the group invitations, nor leave the room but through the team.
    const sneaked = await call(`/api/rooms/${encodeURIComponent(roomId)}/invitations`, {
      method: "POST",
      cookie: amaka.cookie,
      json: { userIds: [outsider.id] },
    });
    expect(sneaked.status).toBe(403);
    expect(await errorCode(sneaked)).toBe("team_room_managed");

    expect((await call(`/api/team/members/${amaka.id}/remove`, { method: "POST", cookie: owner.cookie })).status).toBe(200);
    await socket.waitFor(() => socket.closed);
    expect(socket.closed?.code).toBe(CLOSE_NOT_MEMBER);
    expect((await openRoom(roomId, amaka.cookie)).status).toBe(403);
    const rooms = await (await call("/api/rooms", { cookie: amaka.cookie })).json<{ rooms: { id: string }[] }>();
    expect(rooms.rooms.map((r) => r.id)).not.toContain(roomId);
  });
});

describe("the seat's tier", () => {
  it("gives the Enterprise tier while held, per the setting, and only while the owner's Enterprise runs", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner);
    const amaka = await person("Amaka");
    expect(await tierOf(amaka)).toBe("free");
    await joined(amaka, await code(owner));
    expect(await tierOf(amaka)).toBe("enterprise");

    // The setting turns it off and on for every seat at once.
    await call("/api/team", { method: "PATCH", cookie: owner.cookie, json: { seatFeatures: false } });
    expect(await tierOf(amaka)).toBe("free");
    await call("/api/team", { method: "PATCH", cookie: owner.cookie, json: { seatFeatures: true } });
    expect(await tierOf(amaka)).toBe("enterprise");

    // When the owner's Enterprise ends, seats give nothing and invitations stop.
    await setTier(owner.id, "free");
    expect(await tierOf(amaka)).toBe("free");
    expect((await teamOf(amaka)).team?.active).toBe(false);
    const paused = await invite(owner);
    expect(paused.status).toBe(402);
    await setTier(owner.id, "enterprise");
    expect(await tierOf(amaka)).toBe("enterprise");

    // Removed, the seat's tier is gone.
    await call(`/api/team/members/${amaka.id}/remove`, { method: "POST", cookie: owner.cookie });
    expect(await tierOf(amaka)).toBe("free");
  });
});

describe("dedicated support", () => {
  it("puts the team's requests first on the staff desk, marked Enterprise with the team's name", async () => {
    const premium = await person("Tunde");
    await setTier(premium.id, "premium");
    const sales = (who: Person, message: string) =>
      call("/api/support/sales", { method: "POST", cookie: who.cookie, json: { phone: who.local, message } });
    expect((await sales(premium, "Premium question first in time")).status).toBe(200);

    const owner = await enterpriseOwner();
    await newTeam(owner, "Aba Traders");
    const amaka = await person("Amaka");
    await joined(amaka, await code(owner));
    await call("/api/team", { method: "PATCH", cookie: owner.cookie, json: { seatFeatures: false } });
    expect((await sales(amaka, "Team question")).status).toBe(200);

    const staff = await adminSession();
    const { tickets } = await (await call("/api/support/tickets", { cookie: staff.cookie })).json<{
      tickets: { message: string; tier: string; priority: boolean; team: string | null }[];
    }>();
    const team = tickets.findIndex((t) => t.message.includes("Team question"));
    const paid = tickets.findIndex((t) => t.message.includes("Premium question"));
    expect(team).toBeGreaterThanOrEqual(0);
    expect(team).toBeLessThan(paid);
    // Marked Enterprise even though this member's seat gives no features: the ticket is the organisation's.
    expect(tickets[team]).toMatchObject({ tier: "enterprise", priority: true, team: "Aba Traders" });
    expect(tickets[paid]).toMatchObject({ tier: "premium", team: null });
  });
});

describe("the team's usage figures", () => {
  it("count the team's members, invitations and team-room messages for the owner and admins, and are not shown to members", async () => {
    const owner = await enterpriseOwner();
    const team = await newTeam(owner);
    const roomId = team.roomId as string;
    const amaka = await person("Amaka");
    const bola = await person("Bola");
    await joined(amaka, await code(owner));
    await joined(bola, await code(owner));
    await code(owner);
    expect(
      (await call(`/api/team/members/${amaka.id}/role`, { method: "POST", cookie: owner.cookie, json: { role: "admin" } })).status,
    ).toBe(200);
    expect((await teamOf(owner)).team?.usage).toEqual({ members: 3, admins: 1, openInvites: 1, roomMessages: 0, lastMessageAt: null });

    // Two sealed messages in the team room, counted by the room's own batch.
    const socket = await mustOpen(roomId, bola.cookie);
    for (let i = 0; i < 2; i++) {
      const envelope = textEnvelope(roomId, bola.id, "", {
        isEncrypted: true,
        content: { ciphertext: "c2VhbGVk", iv: "aXZpdml2aXZpdml2" },
      });
      socket.send({ type: "send", envelope });
      await socket.waitForType("ack", (f) => f.id === envelope.id);
    }
    expect(await flushRoom(roomId)).toBe(true);
    const usage = (await teamOf(amaka)).team?.usage;
    expect(usage?.roomMessages).toBe(2);
    expect(Date.parse(usage?.lastMessageAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect((await teamOf(bola)).team?.usage).toBeNull();
    socket.ws.close();
  });
});

describe("a dedicated staff member", () => {
  it("is named by an admin for the team; the team's tickets show first with that name, and the team sees who answers", async () => {
    const early = await person("Sade");
    expect(
      (
        await call("/api/support/sales", {
          method: "POST",
          cookie: early.cookie,
          json: { phone: early.local, message: "Earlier question" },
        })
      ).status,
    ).toBe(200);
    const owner = await enterpriseOwner();
    await newTeam(owner, "Jos Tailors");
    const amaka = await person("Amaka");
    await joined(amaka, await code(owner));
    expect(
      (await call("/api/support/sales", { method: "POST", cookie: amaka.cookie, json: { phone: amaka.local, message: "Jos question" } }))
        .status,
    ).toBe(200);

    const admin = await adminSession();
    const staff = await person("Kemi");
    expect(
      (await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } })).status,
    ).toBe(200);
    type Desk = {
      staff: { id: string; nickname: string }[];
      tickets: { message: string; team: string | null; orgId: string | null; supportStaff: string | null }[];
    };
    const desk = async (who: Person | { cookie: string }) => (await call("/api/support/tickets", { cookie: who.cookie })).json<Desk>();
    const before = await desk(admin);
    const ticket = before.tickets.find((t) => t.message.includes("Jos question"));
    expect(ticket).toMatchObject({ team: "Jos Tailors", supportStaff: null });
    expect(before.staff.map((s) => s.id)).toContain(staff.id);
    const orgId = ticket?.orgId as string;
    const name = (who: { cookie: string }, staffId: string | null) =>
      call(`/api/admin/teams/${orgId}/support-staff`, { method: "POST", cookie: who.cookie, json: { staffId } });

    // Only an admin names one, and only a staff member can be named.
    expect((await name(staff, staff.id)).status).toBe(403);
    expect((await name(admin, amaka.id)).status).toBe(400);
    expect((await name(admin, staff.id)).status).toBe(200);

    const after = await desk(staff);
    expect(after.staff).toEqual([]);
    const jos = after.tickets.findIndex((t) => t.message.includes("Jos question"));
    expect(jos).toBeLessThan(after.tickets.findIndex((t) => t.message.includes("Earlier question")));
    expect(after.tickets.find((t) => t.message.includes("Jos question"))).toMatchObject({ team: "Jos Tailors", supportStaff: "Kemi" });
    expect((await teamOf(amaka)).team?.supportStaff).toBe("Kemi");
    expect(TEAM_SUPPORT_RESPONSE_HOURS).toBeGreaterThan(0);

    // No longer staff: no longer named anywhere.
    expect(
      (await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "user" } })).status,
    ).toBe(200);
    expect((await teamOf(amaka)).team?.supportStaff).toBeNull();
  });
});

describe("the organisation's settings", () => {
  it("write invitations to phones not yet on LinkUp in the team's language, and to people on LinkUp in their own", async () => {
    const owner = await enterpriseOwner();
    await newTeam(owner, "Porto-Novo Traders");
    // 0803 is a long-allocated mobile range: every number under it parses as a Nigerian mobile (a random 081x one
    // may fall in a range the phone library does not know, and the invite is refused with 400).
    const stranger = `+234803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    await code(owner, stranger);
    expect(await lastMessageTo(stranger)).toContain("invites you to the team");

    const saved = await call("/api/team", { method: "PATCH", cookie: owner.cookie, json: { language: "french" } });
    expect((await saved.json<TeamAnswer>()).team?.language).toBe("french");
    const other = `+234803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
    await code(owner, other);
    expect(await lastMessageTo(other)).toContain("vous invite dans l'équipe Porto-Novo Traders");

    const amaka = await person("Amaka");
    await code(owner, amaka.local);
    expect(await lastMessageTo(amaka.phone)).toContain("invites you to the team Porto-Novo Traders");
  });

  it("set the team room's disappearing timer as its message retention, which members cannot change from the chat", async () => {
    const owner = await enterpriseOwner();
    const team = await newTeam(owner);
    const roomId = encodeURIComponent(team.roomId as string);
    const amaka = await person("Amaka");
    await joined(amaka, await code(owner));
    const timer = async (who: Person) =>
      (await (await call(`/api/rooms/${roomId}/disappearing`, { cookie: who.cookie })).json<{ timer: string }>()).timer;
    expect(await timer(amaka)).toBe("never");

    const saved = await call("/api/team", { method: "PATCH", cookie: owner.cookie, json: { retention: "1day" } });
    expect((await saved.json<TeamAnswer>()).team?.retention).toBe("1day");
    expect(await timer(amaka)).toBe("1day");

    const changed = await call(`/api/rooms/${roomId}/disappearing`, { method: "PUT", cookie: amaka.cookie, json: { timer: "never" } });
    expect(changed.status).toBe(403);
    expect(await errorCode(changed)).toBe("team_retention");
    expect(await timer(amaka)).toBe("1day");
    // A member cannot change it on the team page either.
    expect((await call("/api/team", { method: "PATCH", cookie: amaka.cookie, json: { retention: "never" } })).status).toBe(403);
  });
});
