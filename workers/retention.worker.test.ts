// The Cron's retention run (workers/retention.ts, docs/decisions/051-retention.md) on real D1, checked through the
// features that read what it keeps: the per-address code limit, a live session, the room list's order, open
// connections. Old rows are seeded as they would have been written; fresh ones come through the real Worker.
import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../core/ids";
import { createDb } from "../db";
import { countCodesFromAddress } from "../db/queries/verifications";
import { emergencyBroadcasts, roomActivity, roomMembers, rooms, sessions, sosDeadLetters, verifications } from "../db/schema";
import { adminSession, anonymousSession, call, verifiedSession } from "../tests/workers/helpers";
import type { AppEnv } from "./env";
import { startVerification } from "./identity/verification";
import { addressLimit } from "./limits";
import { runRetention } from "./retention";

const appEnv = env as unknown as AppEnv;
const db = createDb(appEnv);
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe("retention run by the Cron", () => {
  it("names every table it pruned with the rows it lost", async () => {
    const counts = await runRetention(db);
    expect(Object.keys(counts).sort()).toEqual(
      [
        "address_counters",
        "api_key_usage",
        "audit_log",
        "files",
        "notifications",
        "outbound_messages",
        "pass_revocations",
        "price_reports",
        "room_activity",
        "security_events",
        "sessions",
        "sos_deliveries",
        "sos_dead_letters",
        "stripe_events",
        "verifications",
        "webauthn_challenges",
      ].sort(),
    );
  });

  it("forgets codes older than a day, while codes of the last hour still count against the address's limit", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const limit = addressLimit(appEnv, "verificationCodes");
    const code = (createdAt: number, i: number) => ({
      id: newId(),
      phone: `+23480312${String(i).padStart(5, "0")}`,
      codeHash: "h",
      channel: "sms" as const,
      ip,
      createdAt: new Date(createdAt),
      expiresAt: new Date(createdAt + 10 * 60_000),
    });
    const now = Date.now();
    const old = Array.from({ length: 3 }, (_, i) => code(now - 2 * DAY - i * 60_000, i));
    // One short of the limit within the last hour.
    const recent = Array.from({ length: limit - 1 }, (_, i) => code(now - 30 * 60_000 + i * 1000, 100 + i));
    for (let i = 0; i < old.length + recent.length; i += 8) await db.insert(verifications).values([...old, ...recent].slice(i, i + 8));

    await runRetention(db, { now });
    const left = await db
      .select({ id: verifications.id })
      .from(verifications)
      .where(
        inArray(
          verifications.id,
          [...old, ...recent].map((r) => r.id),
        ),
      );
    expect(left.map((r) => r.id).sort()).toEqual(recent.map((r) => r.id).sort());
    expect(await countCodesFromAddress(db, ip, new Date(now - HOUR))).toBe(limit - 1);

    // The address may ask once more, then the limit holds.
    const ask = async () => {
      const person = await anonymousSession();
      return startVerification(appEnv, db, {
        phone: `0803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`,
        channel: "sms",
        ip,
        userId: person.user.id,
      });
    };
    expect((await ask()).ok).toBe(true);
    expect(await ask()).toMatchObject({ ok: false, reason: "ip_limit" });
  });

  it("keeps a live session signed in and drops one expired over a month ago", async () => {
    const person = await anonymousSession();
    const stale = { id: `stale-${newId()}`, userId: person.user.id, expiresAt: new Date(Date.now() - 31 * DAY) };
    await db.insert(sessions).values(stale);

    await runRetention(db);
    expect(await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, stale.id))).toEqual([]);
    const me = await call("/api/me", { cookie: person.cookie });
    expect(me.status).toBe(200);
    expect((await me.json<{ user: { id: string } }>()).user.id).toBe(person.user.id);
  });

  it("keeps each room's activity row, so the room list orders rooms quiet for months; a gone room's row goes", async () => {
    const person = await anonymousSession();
    const userId = person.user.id;
    const now = Date.now();
    const [quiet, older, gone] = [`group:${newId()}`, `group:${newId()}`, `group:${newId()}`];
    await db.insert(rooms).values([
      { id: quiet, kind: "group", name: "Quiet for 2 months" },
      { id: older, kind: "group", name: "Quiet for longer" },
    ]);
    // Joined the room quiet for longer more recently: only its last message puts it below the other.
    await db.insert(roomMembers).values([
      { roomId: quiet, userId, joinedAt: new Date(now - 90 * DAY) },
      { roomId: older, userId, joinedAt: new Date(now - 20 * DAY) },
    ]);
    await db.insert(roomActivity).values([
      { roomId: quiet, lastMessageAt: new Date(now - 60 * DAY), messages: 4, updatedAt: new Date(now - 60 * DAY) },
      { roomId: older, lastMessageAt: new Date(now - 80 * DAY), messages: 2, updatedAt: new Date(now - 80 * DAY) },
      { roomId: gone, lastMessageAt: new Date(now - 2 * DAY), messages: 9, updatedAt: new Date(now - 2 * DAY) },
    ]);

    const counts = await runRetention(db, { now });
    expect(counts.room_activity).toBeGreaterThanOrEqual(1);
    const kept = await db
      .select({ id: roomActivity.roomId })
      .from(roomActivity)
      .where(inArray(roomActivity.roomId, [quiet, older, gone]));
    expect(kept.map((r) => r.id).sort()).toEqual([quiet, older].sort());
    const list = await call("/api/rooms", { cookie: person.cookie });
    expect(list.status).toBe(200);
    const ids = (await list.json<{ rooms: { id: string }[] }>()).rooms.map((r) => r.id).filter((id) => id === quiet || id === older);
    expect(ids).toEqual([quiet, older]);
  });

  it("keeps SOS dead letters on the staff desk until replayed or their SOS is 13 days old, and replayed ones 30 days", async () => {
    const now = Date.now();
    const sos = async () => {
      const s = await anonymousSession();
      const res = await call("/api/emergency/broadcast", {
        method: "POST",
        cookie: s.cookie,
        json: { message: "Flood", emergencyType: "flood", clientRequestId: newId(), location: { latitude: 6.5, longitude: 3.4 } },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const fresh = await sos();
    const old = await sos();
    await db
      .update(emergencyBroadcasts)
      .set({ broadcastedAt: new Date(now - 14 * DAY) })
      .where(eq(emergencyBroadcasts.id, old));
    const letter = (broadcastId: string | null, receivedAt: number, replayedAt: number | null = null) => ({
      id: newId(),
      messageId: newId(),
      broadcastId,
      body: { broadcastId: broadcastId ?? "?", audience: "nearby", userIds: ["someone"] },
      attempts: 6,
      receivedAt: new Date(receivedAt),
      replayedAt: replayedAt === null ? null : new Date(replayedAt),
    });
    const waiting = letter(fresh, now - HOUR);
    const ofOldSos = letter(old, now - HOUR); // arrived late, but its SOS is two weeks old
    const unknownOld = letter(null, now - 14 * DAY);
    const unknownRecent = letter(null, now - 12 * DAY);
    const replayedLongAgo = letter(fresh, now - 40 * DAY, now - 31 * DAY);
    const replayedLately = letter(fresh, now - 40 * DAY, now - 29 * DAY);
    await db.insert(sosDeadLetters).values([waiting, ofOldSos, unknownOld, unknownRecent, replayedLongAgo, replayedLately]);

    const counts = await runRetention(db, { now });
    expect(counts.sos_dead_letters).toBeGreaterThanOrEqual(3);

    // What the staff desk lists: the open letters still worth a replay.
    const admin = await adminSession();
    const staff = await verifiedSession("0906", "Desk");
    await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    const desk = (await (await call("/api/admin/sos", { cookie: staff.cookie })).json()) as { deadLetters: { id: string }[] };
    const shown = new Set(desk.deadLetters.map((d) => d.id));
    expect([waiting, ofOldSos, unknownOld, unknownRecent].filter((l) => shown.has(l.id)).map((l) => l.id)).toEqual(
      [waiting, unknownRecent].map((l) => l.id),
    );
    // A letter that went can no longer be replayed (it would alert people again once the SOS's claims are gone).
    const replay = await call(`/api/admin/sos/dead-letters/${ofOldSos.id}/replay`, { method: "POST", cookie: staff.cookie });
    expect(replay.status).toBe(404);
    const left = await db
      .select({ id: sosDeadLetters.id })
      .from(sosDeadLetters)
      .where(inArray(sosDeadLetters.id, [replayedLongAgo.id, replayedLately.id]));
    expect(left).toEqual([{ id: replayedLately.id }]);
  });
});
