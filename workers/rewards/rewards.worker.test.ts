// Rewards on real D1: points for an action once, messages capped per day, the daily bonus once per server date.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RewardsAnswer } from "../../core/rewards";
import { createDb } from "../../db";
import { anonymousSession, call, signInByCode, verifiedSession } from "../../tests/workers/helpers";
import { flushRoom, mustOpen, textEnvelope } from "../../tests/workers/room-socket";
import { type FlushMessage, writeRoomFlush } from "../../db/queries/room-activity";
import type { AppEnv } from "../env";
import { awardVerified, claimDailyBonus, rewardsFor } from "./index";

const db = () => createDb(env as unknown as AppEnv);

async function rewards(cookie: string) {
  const res = await call("/api/rewards", { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as RewardsAnswer;
}

describe("rewards", () => {
  it("a message sent in a room earns points; the same envelope sent again earns nothing more", async () => {
    const { cookie, user } = await anonymousSession();
    const roomId = `nearby:${["s0h1k", "s0h2m", "s0h3q"][Math.floor(Math.random() * 3)]}`;
    const socket = await mustOpen(roomId, cookie);
    const envelope = textEnvelope(roomId, user.id, "Who has rice in Ikeja?");
    socket.send({ type: "send", envelope });
    await socket.waitForType("ack", (f) => f.id === envelope.id);
    socket.send({ type: "send", envelope });
    await socket.waitFor(() => socket.of("ack").length === 2);
    // Nothing reaches D1 until the room's minute is up; then its batch counts the message once.
    expect((await rewards(cookie)).totalPoints).toBe(0);
    expect(await flushRoom(roomId)).toBe(true);
    expect((await rewards(cookie)).totalPoints).toBe(5);
    socket.ws.close();
  });

  it("gives points for a message once, not for the same message again, and at most 20 messages a day", async () => {
    const { cookie, user } = await anonymousSession();
    const at = Date.parse("2026-11-20T10:00:00Z");
    const roomId = `nearby:s0p${user.id.slice(0, 2)}`;
    const batch = (messages: FlushMessage[]) =>
      writeRoomFlush(db(), {
        roomId,
        epoch: 1,
        throughSeq: messages.at(-1)?.[0] ?? 0,
        messages,
        kind: "message.nearby",
        area: "s0p",
        presence: [],
        presenceReset: false,
        now: at,
      });
    // The room's batch, then the same batch again (a replay after a crash): counted once.
    await batch([[1, user.id, 1, at]]);
    await batch([[1, user.id, 1, at]]);
    expect((await rewards(cookie)).totalPoints).toBe(5);
    await batch(Array.from({ length: 30 }, (_, i): FlushMessage => [2 + i, user.id, 1, at + i]));
    const r = await rewards(cookie);
    expect(r.totalPoints).toBe(100);
    expect(r.messagesConnected).toBe(20);
  });

  it("verification earns its points once", async () => {
    const { cookie, user } = await anonymousSession();
    await awardVerified(db(), user.id);
    await awardVerified(db(), user.id);
    expect((await rewards(cookie)).totalPoints).toBe(200);
  });

  it("the daily bonus is claimed once per server date, and a streak adds 10 points a day", async () => {
    const { cookie, user } = await anonymousSession();
    const first = await call("/api/rewards/daily", { method: "POST", cookie });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ points: 50, streak: 1 });
    const again = await call("/api/rewards/daily", { method: "POST", cookie });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: "Daily bonus already claimed today. Come back tomorrow!", code: "bonus_claimed" });
    const after = await rewards(cookie);
    expect(after).toMatchObject({ totalPoints: 50, streak: 1, dailyBonus: { available: false } });

    // The next two server dates continue the streak; a missed day starts it again.
    const today = Date.now();
    expect(await claimDailyBonus(db(), user.id, new Date(today + 86_400_000))).toEqual({ points: 60, streak: 2 });
    expect(await claimDailyBonus(db(), user.id, new Date(today + 2 * 86_400_000))).toEqual({ points: 70, streak: 3 });
    expect(await claimDailyBonus(db(), user.id, new Date(today + 4 * 86_400_000))).toEqual({ points: 50, streak: 1 });
    const later = await rewardsFor(db(), user.id, new Date(today + 4 * 86_400_000));
    expect(later).toMatchObject({ totalPoints: 230, level: 1, streak: 1 });
  });

  it("names the achievements in the person's saved language", async () => {
    const { cookie } = await anonymousSession();
    const english = await (await call("/api/rewards", { cookie })).json<RewardsAnswer>();
    expect(english.achievements[0]).toMatchObject({ id: "first-contact", title: "First Contact", description: "Join your first room" });
    expect((await call("/api/me", { method: "PATCH", cookie, json: { language: "hausa" } })).status).toBe(200);
    const hausa = await (await call("/api/rewards", { cookie, headers: { "accept-language": "fr-FR" } })).json<RewardsAnswer>();
    expect(hausa.achievements.find((a) => a.id === "emergency-hero")).toMatchObject({
      title: "Jarumin gaggawa",
      description: "Taimaka a gaggawa 5",
      tier: "diamond",
    });
  });

  it("asks for a session", async () => {
    expect((await call("/api/rewards")).status).toBe(401);
    expect((await call("/api/rewards/daily", { method: "POST" })).status).toBe(401);
  });

  it("the leaderboard ranks by points, nickname only, anonymous mode under its anonymous name, and by area", async () => {
    const a = await anonymousSession();
    const b = await anonymousSession();
    await call("/api/me", { method: "PATCH", cookie: a.cookie, json: { nickname: "Board Ada", locationText: "Ibadan" } });
    await call("/api/me", { method: "PATCH", cookie: b.cookie, json: { nickname: "Board Bayo", locationText: "Kano" } });
    await env.DB.prepare("update users set anonymous_mode = 1 where id = ?").bind(b.user.id).run();
    await awardVerified(db(), a.user.id);
    await awardVerified(db(), b.user.id);
    await claimDailyBonus(db(), b.user.id);
    const nation = await call("/api/leaderboard?period=all&scope=nation", { cookie: a.cookie });
    const board = (await nation.json()) as { leaders: { name: string; points: number; you: boolean }[] };
    const names = board.leaders.map((l) => l.name);
    expect(names).not.toContain("Board Bayo");
    expect(board.leaders.find((l) => l.name === "Board Ada")).toMatchObject({ points: 200, you: true });
    expect(names.indexOf("Board Ada")).toBeGreaterThan(names.findIndex((n) => n.startsWith("Anonymous ")));
    const area = await call("/api/leaderboard?period=week&scope=area", { cookie: a.cookie });
    expect(await area.json()).toMatchObject({ areaName: "Ibadan area", leaders: [{ rank: 1, name: "Board Ada", points: 200, you: true }] });
    expect((await call("/api/leaderboard?period=year")).status).toBe(400);
  });

  it("below the top 20, the viewer still sees their own rank and points as the last line", async () => {
    // 21 people in one town with the verification points (200) each; the viewer has only the daily bonus (50).
    for (let i = 0; i < 21; i++) {
      const p = await anonymousSession();
      await call("/api/me", { method: "PATCH", cookie: p.cookie, json: { nickname: `Jos Top ${i}`, locationText: "Jos" } });
      await awardVerified(db(), p.user.id);
    }
    const me = await anonymousSession();
    await call("/api/me", { method: "PATCH", cookie: me.cookie, json: { nickname: "Jos Newcomer", locationText: "Jos" } });
    await claimDailyBonus(db(), me.user.id);
    const res = await call("/api/leaderboard?period=week&scope=area", { cookie: me.cookie });
    const board = (await res.json()) as { leaders: { rank: number; name: string; points: number; you: boolean }[] };
    expect(board.leaders).toHaveLength(21);
    expect(board.leaders.slice(0, 20).every((l) => !l.you && l.points === 200)).toBe(true);
    expect(board.leaders[20]).toEqual({ rank: 22, name: "Jos Newcomer", points: 50, you: true });
  });

  it("an unlocked achievement grants its premium days once, through billing, to a verified person only", async () => {
    const anon = await anonymousSession();
    const verified = await verifiedSession("0818", "Achiever");
    for (const who of [anon.cookie, verified.cookie]) {
      expect((await call("/api/me/location", { method: "PUT", cookie: who, json: { latitude: 9.05, longitude: 7.49 } })).status).toBe(200);
      expect((await call("/api/rooms/nearby/join", { method: "POST", cookie: who })).ok).toBe(true);
    }
    // First Contact (join your first room) rewards 2 days of Premium.
    const seen = await rewards(verified.cookie);
    expect(seen.achievements.find((a) => a.id === "first-contact")).toMatchObject({ unlocked: true, waiting: null, rewardDays: 2 });
    // Its 100 points count in the total (verifying gave 200), once however often the screen is opened.
    expect(seen.totalPoints).toBe(300);
    await rewards(verified.cookie);
    const grants = await env.DB.prepare("select current_period_end from subscriptions where user_id = ? and source = 'complimentary'")
      .bind(verified.id)
      .all<{ current_period_end: number }>();
    expect(grants.results).toHaveLength(1);
    const days = (grants.results[0].current_period_end - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.9);
    expect(days).toBeLessThanOrEqual(2);
    const me = (await (await call("/api/me", { cookie: verified.cookie })).json()) as { user: { tier: string } };
    expect(me.user.tier).toBe("premium");

    // The anonymous person reached it too, but Premium is for verified people: it is not shown as achieved, no
    // points or days are given, and it says what would give them (issue 32).
    const anonSeen = await rewards(anon.cookie);
    expect(anonSeen.achievements.find((a) => a.id === "first-contact")).toMatchObject({
      reached: true,
      unlocked: false,
      waiting: "verify",
    });
    expect(anonSeen.totalPoints).toBe(0);
    const anonGrants = await env.DB.prepare("select count(*) as n from subscriptions where user_id = ?")
      .bind(anon.user.id)
      .first<{ n: number }>();
    expect(anonGrants?.n).toBe(0);
  });

  it("verifying a phone that has an owner moves the new identity's points to the owner", async () => {
    const owner = await verifiedSession("0806", "Owner");
    expect((await rewards(owner.cookie)).totalPoints).toBe(200);
    const newcomer = await anonymousSession();
    expect((await call("/api/rewards/daily", { method: "POST", cookie: newcomer.cookie })).status).toBe(201);
    expect((await signInByCode(owner.local, { cookie: newcomer.cookie })).status).toBe(200);
    // The bonus claimed as the newcomer counts for the owner; the verification's 200 points count once.
    expect(await rewards(owner.cookie)).toMatchObject({ totalPoints: 250, dailyBonus: { available: false } });
  });

  it("people who answered an SOS earn 'SOS helped' points once it is resolved: verified responders, once per SOS", async () => {
    const here = { latitude: 10.5 + Math.random() / 10, longitude: 7.4 + Math.random() / 10 };
    // A verified sender: an anonymous one's SOS earns nobody points (workers/rewards/claims.worker.test.ts).
    const sender = await verifiedSession("0807", "Sender");
    const helper = await verifiedSession("0807", "Helper");
    const anonHelper = await anonymousSession();
    const farAway = await anonymousSession();
    for (const [who, at] of [
      [sender.cookie, here],
      [helper.cookie, here],
      [anonHelper.cookie, here],
      [farAway.cookie, { latitude: 4.8, longitude: 7.0 }],
    ] as const) {
      expect((await call("/api/me/location", { method: "PUT", cookie: who, json: at })).status).toBe(200);
    }
    const sent = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: { message: "Car crash at the junction", emergencyType: "accident", location: here, clientRequestId: `helped-${Date.now()}` },
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: string };
    const respond = (cookie: string) => call(`/api/emergency/${id}/respond`, { method: "POST", cookie });
    expect((await respond(helper.cookie)).status).toBe(200);
    expect((await respond(helper.cookie)).status).toBe(200);
    expect((await respond(anonHelper.cookie)).status).toBe(200);
    expect((await respond(sender.cookie)).status).toBe(400);
    expect((await respond(farAway.cookie)).status).toBe(404);
    expect((await rewards(helper.cookie)).emergenciesHelped).toBe(0);
    // The sender is told that help is coming, once per person who answered, without naming them.
    const inbox = (await (await call("/api/notifications", { cookie: sender.cookie })).json()) as {
      notifications: { title: string; content: string }[];
    };
    const coming = inbox.notifications.filter((n) => n.title === "Help is coming");
    expect(coming).toHaveLength(2);
    expect(coming[0].content).toBe("Someone nearby answered your SOS and is coming to help.");

    expect((await call(`/api/emergency/${id}/resolve`, { method: "POST", cookie: sender.cookie })).status).toBe(200);
    expect(await rewards(helper.cookie)).toMatchObject({ emergenciesHelped: 1, totalPoints: 200 + 100 });
    expect((await rewards(anonHelper.cookie)).totalPoints).toBe(0);
    // A resolved SOS can no longer be answered.
    expect((await respond(helper.cookie)).status).toBe(404);
  });
});
