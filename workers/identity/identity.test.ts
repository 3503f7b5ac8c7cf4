// Identity on libSQL (the DATABASE_URL driver) in Node, and the pure helpers: the same verification and
// merge code that runs on D1 in the Worker tests.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanCode, isSixDigitCode } from "../../core/identity";
import type { Db } from "../../db";
import { createUser } from "../../db/queries/users";
import * as schema from "../../db/schema";
import type { AppEnv } from "../env";
import { mergedProfile, mergeUsers } from "./merge";
import { codeMessage, confirmVerification, generateCode, isAdminPhone, startVerification } from "./verification";

// Development: codes land in the dev outbox (outbound_messages), where the test reads them.
const env = { SESSION_SECRET: "unit-test-secret-0123456789", ENVIRONMENT: "development" } as AppEnv;
let db: Db;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "linkup-identity-")), "test.db");
  const instance = drizzle(createClient({ url: `file:${file}` }), { schema });
  await migrate(instance, { migrationsFolder: "db/migrations" });
  db = instance as unknown as Db;
});

async function lastCode(phone: string) {
  const rows = await db.select().from(schema.outboundMessages).where(eq(schema.outboundMessages.to, phone)).all();
  return rows.at(-1)!.body.match(/\b(\d{6})\b/)![1];
}

describe("helpers", () => {
  it("generates 6-digit codes", () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    // 200 draws from a million: repeats would point at a broken generator.
    expect(codes.size).toBeGreaterThan(195);
  });

  it("keeps only digits, at most 6, in the code input", () => {
    expect(cleanCode("12a-34 567")).toBe("123456");
    expect(isSixDigitCode("123456")).toBe(true);
    expect(isSixDigitCode("12345")).toBe(false);
    expect(isSixDigitCode("１２３４５６")).toBe(false);
  });

  it("reads ADMIN_PHONES in any written form", async () => {
    const e = { ADMIN_PHONES: "0803 111 2222, +44 7911 123456,," };
    expect(await isAdminPhone(e, "+2348031112222")).toBe(true);
    expect(await isAdminPhone(e, "+447911123456")).toBe(true);
    expect(await isAdminPhone(e, "+2348031112223")).toBe(false);
    expect(await isAdminPhone({ ADMIN_PHONES: undefined }, "+2348031112222")).toBe(false);
  });

  it("says in the message what the code is for, how long it lives, and to ignore it if this was not you", () => {
    expect(codeMessage("042917")).toBe(
      "Your LinkUp verification code is 042917. It signs in only the browser where you asked for it, on the LinkUp web app, and expires in 10 minutes. Never share this code with anyone. If this was not you, ignore this message.",
    );
  });
});

describe("mergedProfile", () => {
  const base = {
    locationText: null,
    latitude: null,
    longitude: null,
    geohash: null,
    locationUpdatedAt: null,
    interests: [] as string[],
    onboardingCompletedAt: null,
    subscriptionTier: "free" as const,
    role: "user" as const,
  };
  it("keeps the owner's values, fills its gaps, unites interests and keeps the higher tier and role", () => {
    const into = { ...base, locationText: "Lagos", interests: ["Music"], role: "admin" as const } as unknown as schema.User;
    const from = {
      ...base,
      locationText: "Kano",
      latitude: 12,
      longitude: 8.5,
      geohash: "s1abc",
      interests: ["Farming", "Music"],
      onboardingCompletedAt: new Date(1),
      subscriptionTier: "premium" as const,
    } as unknown as schema.User;
    expect(mergedProfile(from, into)).toMatchObject({
      locationText: "Lagos",
      latitude: 12,
      geohash: "s1abc",
      interests: ["Music", "Farming"],
      onboardingCompletedAt: new Date(1),
      subscriptionTier: "premium",
      role: "admin",
    });
  });
});

describe("verification and merge on libSQL", () => {
  it("verifies, then merges a second identity into the phone's owner in one batch", async () => {
    const t0 = new Date("2026-05-01T08:00:00Z");
    const owner = await createUser(db, { nickname: "Owner" });
    const r1 = await startVerification(env, db, { phone: "08035550000", channel: "sms", ip: null, userId: owner.id, now: t0 });
    expect(r1.ok).toBe(true);
    const ok1 = await confirmVerification(env, db, {
      phone: "+2348035550000",
      code: await lastCode("+2348035550000"),
      userId: owner.id,
      now: t0,
    });
    expect(ok1).toMatchObject({ ok: true, merged: false, user: { id: owner.id, authMode: "verified", phone: "+2348035550000" } });

    const anon = await createUser(db, { locationText: "Jos" });
    await db.insert(schema.sessions).values([
      { id: "s-a", userId: anon.id, expiresAt: new Date(Date.now() + 60_000) },
      { id: "s-b", userId: anon.id, expiresAt: new Date(Date.now() + 60_000) },
    ]);
    await db.insert(schema.usageDaily).values({ userId: anon.id, date: "2026-05-01", aiCommands: 3 });
    await db.insert(schema.usageDaily).values({ userId: owner.id, date: "2026-05-01", aiCommands: 4 });
    await db.insert(schema.rewards).values({ userId: anon.id, totalPoints: 100, streak: 2 });

    const t1 = new Date(t0.getTime() + 120_000);
    await startVerification(env, db, { phone: "0803 555 0000", channel: "whatsapp", ip: null, userId: anon.id, now: t1 });
    const ok2 = await confirmVerification(env, db, {
      phone: "08035550000",
      code: await lastCode("+2348035550000"),
      userId: anon.id,
      now: t1,
    });
    expect(ok2).toMatchObject({
      ok: true,
      merged: true,
      mergedUserId: anon.id,
      user: { id: owner.id, nickname: "Owner", locationText: "Jos" },
    });

    // No session of the merged identity follows it: the caller starts a fresh one for the browser that proved the
    // phone, and the identity's other browsers are signed out (docs/decisions/046-sign-in-is-one-state-machine.md).
    const sessions = await db.select().from(schema.sessions).where(eq(schema.sessions.userId, owner.id)).all();
    expect(sessions).toEqual([]);
    expect(await db.select().from(schema.sessions).where(eq(schema.sessions.id, "s-a")).all()).toEqual([]);
    const usage = await db.select().from(schema.usageDaily).where(eq(schema.usageDaily.userId, owner.id)).all();
    // Merging never resets a daily limit: the counts add up.
    expect(usage).toMatchObject([{ date: "2026-05-01", aiCommands: 7 }]);
    expect(await db.select().from(schema.rewards).where(eq(schema.rewards.userId, owner.id)).all()).toMatchObject([{ totalPoints: 100 }]);
    expect(await db.select().from(schema.users).where(eq(schema.users.id, anon.id)).all()).toEqual([]);
  });

  it("moves invitations and blocks to the owner, drops a block between the two, and keeps at most 10 device keys", async () => {
    const owner = await createUser(db, { nickname: "Owner" });
    const anon = await createUser(db);
    const other = await createUser(db);
    const groupId = `group:${owner.id}`;
    await db.insert(schema.rooms).values({ id: groupId, kind: "group", name: "Farmers", createdBy: other.id });
    await db.insert(schema.roomInvitations).values({ roomId: groupId, userId: anon.id, invitedBy: other.id });
    await db.insert(schema.userBlocks).values([
      { blockerId: anon.id, blockedId: other.id },
      { blockerId: owner.id, blockedId: anon.id },
    ]);
    const at = (i: number) => new Date(Date.UTC(2026, 4, 1, 8, 0, i));
    await db
      .insert(schema.deviceKeys)
      .values([
        ...Array.from({ length: 6 }, (_, i) => ({ userId: owner.id, deviceId: `o${i}`, publicKey: `o${i}`, createdAt: at(i) })),
        ...Array.from({ length: 6 }, (_, i) => ({ userId: anon.id, deviceId: `a${i}`, publicKey: `a${i}`, createdAt: at(10 + i) })),
      ]);
    await mergeUsers(db, anon, owner);

    const invitations = await db.select().from(schema.roomInvitations).where(eq(schema.roomInvitations.roomId, groupId)).all();
    expect(invitations.map((i) => i.userId)).toEqual([owner.id]);
    const blocks = await db.select().from(schema.userBlocks).all();
    expect(blocks.filter((b) => [owner.id, anon.id].includes(b.blockerId)).map((b) => [b.blockerId, b.blockedId])).toEqual([
      [owner.id, other.id],
    ]);
    const keys = await db.select().from(schema.deviceKeys).where(eq(schema.deviceKeys.userId, owner.id)).all();
    expect(keys.map((k) => k.deviceId).sort()).toEqual(["a0", "a1", "a2", "a3", "a4", "a5", "o2", "o3", "o4", "o5"]);
  });

  it("moves the merged identity's points to the owner: an action both earned counts once, the daily message cap holds", async () => {
    const owner = await createUser(db, { nickname: "Owner" });
    const anon = await createUser(db);
    const day = "2026-05-01";
    const ev = (userId: string, kind: "message" | "verified" | "daily_bonus", ref: string, points: number, d = day) => ({
      id: `${userId}-${kind}-${ref}`,
      userId,
      kind,
      ref,
      points,
      day: d,
    });
    await db
      .insert(schema.pointEvents)
      .values([
        ev(owner.id, "daily_bonus", day, 50),
        ev(owner.id, "verified", "phone", 200),
        ...Array.from({ length: 15 }, (_, i) => ev(owner.id, "message", `o-${i}`, 5)),
      ]);
    await db
      .insert(schema.pointEvents)
      .values([
        ev(anon.id, "daily_bonus", day, 50),
        ev(anon.id, "daily_bonus", "2026-04-30", 50, "2026-04-30"),
        ev(anon.id, "verified", "phone", 200),
        ...Array.from({ length: 10 }, (_, i) => ev(anon.id, "message", `a-${i}`, 5)),
      ]);
    await mergeUsers(db, anon, owner);
    const rows = await db.select().from(schema.pointEvents).where(eq(schema.pointEvents.userId, owner.id)).all();
    const count = (kind: string) => rows.filter((r) => r.kind === kind).length;
    expect([count("daily_bonus"), count("verified"), count("message")]).toEqual([2, 1, 20]);
    expect(rows.reduce((sum, r) => sum + r.points, 0)).toBe(100 + 200 + 20 * 5);
    expect(await db.select().from(schema.pointEvents).where(eq(schema.pointEvents.userId, anon.id)).all()).toEqual([]);
  });

  it("does nothing when asked to merge a user into itself", async () => {
    const u = await createUser(db);
    await mergeUsers(db, u, u);
    expect(await db.select().from(schema.users).where(eq(schema.users.id, u.id)).all()).toHaveLength(1);
  });
});
