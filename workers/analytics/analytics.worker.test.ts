// Analytics from real events through the real Worker: admins only, and every figure moves by exactly the
// events a test produces (sign-ups, verifications, messages per room kind, SOS, AI commands, checkouts).
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { newId } from "../../core/ids";
import { adminSession, anonymousSession, call, setTier, verifiedSession } from "../../tests/workers/helpers";
import { flushRoom, mustOpen, textEnvelope } from "../../tests/workers/room-socket";
import { createDb } from "../../db";
import { RETENTION_RULES } from "../../db/queries/retention";
import { runRetention } from "../retention";
import { countTrouble } from ".";

type Metrics = Record<string, number | null> & {
  byKind: Record<string, number>;
  since: string;
  unit: "hour" | "day";
  messagesOverTime: { at: string; count: number }[];
};

const adminUser = adminSession;

const metricsOf = async (cookie: string, range = "24h") =>
  (await call(`/api/analytics/metrics?range=${range}`, { cookie })).json<Metrics>();

describe("analytics", () => {
  it("is for admins only: 401 without a session, 403 for anonymous, verified people and staff; a bad range is a 400", async () => {
    expect((await call("/api/analytics/metrics")).status).toBe(401);
    expect((await call("/api/analytics/ai-usage", { cookie: (await anonymousSession()).cookie })).status).toBe(403);
    const person = await verifiedSession("0906");
    expect((await call("/api/analytics/metrics", { cookie: person.cookie })).status).toBe(403);
    const admin = await adminUser();
    await call(`/api/admin/people/${person.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    const staff = await call("/api/analytics/metrics", { cookie: person.cookie });
    expect(staff.status).toBe(403);
    expect(await staff.json()).toEqual({ error: "Admin access required", code: "admin_required" });
    expect((await call("/api/analytics/metrics?range=5y", { cookie: admin.cookie })).status).toBe(400);
    expect((await call("/api/analytics/metrics?range=7d", { cookie: admin.cookie })).status).toBe(200);
  });

  it("counts exactly the events that happened, with no personal data kept", async () => {
    const admin = await adminUser();
    const before = await metricsOf(admin.cookie);
    const aiBefore = await (await call("/api/analytics/ai-usage?range=24h", { cookie: admin.cookie })).json<Record<string, number>>();

    // Two sign-ups, one of them verified; an SOS; two AI commands; three messages in an area room, one resent.
    const a = await anonymousSession();
    const b = await verifiedSession("0906", "Chidi");
    const sos = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: a.cookie,
      json: { message: "Smoke on our street", emergencyType: "fire", locationText: "Ikeja", clientRequestId: newId() },
    });
    expect(sos.status).toBe(201);
    for (const message of ["@ai market rice lagos", "@ai translate good morning to hausa"]) {
      const res = await call("/api/ai/chat", {
        method: "POST",
        cookie: a.cookie,
        json: { message, userId: "x", context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" } },
      });
      expect(res.status).toBe(200);
    }
    const room = "nearby:s14ck";
    const socket = await mustOpen(room, a.cookie);
    const first = textEnvelope(room, a.user.id, "hello");
    for (const envelope of [first, textEnvelope(room, a.user.id, "two"), textEnvelope(room, a.user.id, "three"), first]) {
      socket.send({ type: "send", envelope });
    }
    await socket.waitFor(() => socket.of("ack").length === 4);
    // The room counts its messages in D1 in its once-a-minute batch (docs/decisions/056-…): its minute passes here.
    await flushRoom(room);
    const checkout = await call("/api/create-subscription", {
      method: "POST",
      cookie: b.cookie,
      json: { priceId: "price_premium_monthly" },
    });
    expect(checkout.status).toBe(200);

    await vi.waitFor(async () => expect((await metricsOf(admin.cookie)).messageVolume).toBe(Number(before.messageVolume) + 3), {
      timeout: 3000,
    });
    // An SOS counts once its job has finished, after the queue has read its area (docs/decisions/054).
    await vi.waitFor(async () => expect((await metricsOf(admin.cookie)).emergencyAlerts).toBe(Number(before.emergencyAlerts) + 1), {
      timeout: 5000,
    });
    const after = await metricsOf(admin.cookie);
    expect(after.byKind["message.nearby"] ?? 0).toBe((before.byKind["message.nearby"] ?? 0) + 3);
    // a and b (who verified the anonymous identity she started with): two new people, one verification.
    expect(after.signups).toBe(Number(before.signups) + 2);
    expect(after.verifications).toBe(Number(before.verifications) + 1);
    expect(after.totalUsers).toBe(Number(before.totalUsers) + 2);
    expect(after.emergencyAlerts).toBe(Number(before.emergencyAlerts) + 1);
    expect(after.aiInteractions).toBe(Number(before.aiInteractions) + 2);
    expect(after.checkouts).toBe(Number(before.checkouts) + 1);
    expect(after.networkHealth).toBeNull();
    expect(after.unit).toBe("hour");
    expect(after.messagesOverTime.reduce((n, d) => n + d.count, 0)).toBe(after.messageVolume);
    const ai = await (await call("/api/analytics/ai-usage?range=24h", { cookie: admin.cookie })).json<Record<string, number | null>>();
    expect(ai).toMatchObject({
      translations: aiBefore.translations + 1,
      marketAnalysis: aiBefore.marketAnalysis + 1,
      smartReplies: null,
      networkOptimization: null,
    });

    // The roll-up holds days, kinds, coarse areas and counts: no ids, phones or texts.
    const { results } = await env.DB.prepare("select * from analytics_daily").all<Record<string, unknown>>();
    for (const row of results) {
      expect(Object.keys(row).sort()).toEqual(["area", "count", "day", "kind"]);
      expect(String(row.area).length).toBeLessThanOrEqual(3);
    }
    expect(results.find((r) => r.kind === "message.nearby")?.area).toBe("s14");
    socket.close();
  });

  it("counts real hours in the 1h range: what happened now is there, the hourly roll-up says from which hour", async () => {
    const admin = await adminUser();
    const before = await metricsOf(admin.cookie, "1h");
    expect(before.unit).toBe("hour");
    const since = new Date(before.since).getTime();
    expect(Date.now() - since).toBeGreaterThanOrEqual(3600_000);
    expect(Date.now() - since).toBeLessThan(2 * 3600_000);
    const a = await anonymousSession();
    const sos = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: a.cookie,
      json: { message: "Flood at the junction", emergencyType: "flood", locationText: "Lekki", clientRequestId: newId() },
    });
    expect(sos.status).toBe(201);
    await vi.waitFor(async () => expect((await metricsOf(admin.cookie, "1h")).emergencyAlerts).toBe(Number(before.emergencyAlerts) + 1), {
      timeout: 5000,
    });
    const after = await metricsOf(admin.cookie, "1h");
    expect(after.signups).toBe(Number(before.signups) + 1);
    // An event 3 hours ago counts in 24h but not in 1h.
    await env.DB.prepare("insert into analytics_hourly (hour, kind, area, count) values (?, 'sos.ussd', '', 5)")
      .bind(new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 13))
      .run();
    expect((await metricsOf(admin.cookie, "1h")).emergencyAlerts).toBe(after.emergencyAlerts);
    const day = await metricsOf(admin.cookie, "24h");
    expect(day.byKind["sos.ussd"]).toBeGreaterThanOrEqual(5);
  });
});

describe("trouble for the operator", () => {
  type Trouble = Record<"queue_retried" | "dead_lettered" | "d1_write_failed" | "sos_unfinished" | "webhook_failed", number>;
  const troubleOf = async (cookie: string, range = "24h") => (await metricsOf(cookie, range)).trouble as unknown as Trouble;

  it("names every counter for the range, moves by exactly what was counted, and keeps ops.* out of people's events", async () => {
    const admin = await adminUser();
    const before = await troubleOf(admin.cookie);
    expect(Object.keys(before).sort()).toEqual(["d1_write_failed", "dead_lettered", "queue_retried", "sos_unfinished", "webhook_failed"]);
    const db = createDb(env);
    await countTrouble(db, "queue_retried", 3);
    await countTrouble(db, "dead_lettered");
    await countTrouble(db, "webhook_failed", 2);
    const after = await troubleOf(admin.cookie);
    expect(after).toEqual({
      ...before,
      queue_retried: before.queue_retried + 3,
      dead_lettered: before.dead_lettered + 1,
      webhook_failed: before.webhook_failed + 2,
    });
    expect((await troubleOf(admin.cookie, "1h")).queue_retried).toBeGreaterThanOrEqual(3);
    expect(Object.keys((await metricsOf(admin.cookie)).byKind).filter((k) => k.startsWith("ops."))).toEqual([]);
  });

  it("counts a failed retention delete as a failed D1 write, and the other rules still run", async () => {
    const admin = await adminUser();
    const before = await troubleOf(admin.cookie);
    vi.spyOn(RETENTION_RULES, "sessions").mockRejectedValueOnce(new Error("D1_ERROR: database is locked"));
    const counts = await runRetention(createDb(env));
    expect(counts.sessions).toBeUndefined();
    expect(counts.room_activity).toEqual(expect.any(Number));
    expect((await troubleOf(admin.cookie)).d1_write_failed).toBe(before.d1_write_failed + 1);
    vi.restoreAllMocks();
  });

  it("is never in a person's own figures", async () => {
    const person = await verifiedSession("0907");
    await setTier(person.id, "premium");
    const res = await call("/api/analytics/metrics?scope=me&range=24h", { cookie: person.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty("trouble");
  });
});

describe("a person's own analytics", () => {
  const mine = async (cookie: string, range = "24h") => call(`/api/analytics/metrics?scope=me&range=${range}`, { cookie });

  it("is Premium: 401 without a session, 403 with the upgrade message for a free person, 200 once granted", async () => {
    expect((await mine("")).status).toBe(401);
    const person = await verifiedSession("0907", "Ngozi");
    const refused = await mine(person.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining("Premium feature"), code: "premium_required" });
    await setTier(person.id, "premium");
    expect((await mine(person.cookie)).status).toBe(200);
    // The whole-service view stays for admins.
    expect((await call("/api/analytics/metrics?scope=service", { cookie: person.cookie })).status).toBe(403);
  });

  it("counts exactly what this person did: their messages, AI commands by kind, SOS and files, nothing of others", async () => {
    const me = await verifiedSession("0907", "Emeka");
    const other = await verifiedSession("0907", "Bisi");
    await setTier(me.id, "premium");
    const ask = (cookie: string, message: string) =>
      call("/api/ai/chat", {
        method: "POST",
        cookie,
        json: { message, userId: "x", context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" } },
      });
    for (const m of ["@ai market rice lagos", "@ai market beans kano", "@ai translate thank you to yoruba"])
      expect((await ask(me.cookie, m)).status).toBe(200);
    expect((await ask(other.cookie, "@ai market yam abuja")).status).toBe(200);
    for (const who of [me, other]) {
      const sos = await call("/api/emergency/broadcast", {
        method: "POST",
        cookie: who.cookie,
        json: { message: "Help at the market", emergencyType: "medical", locationText: "Ikeja", clientRequestId: newId() },
      });
      expect(sos.status).toBe(201);
    }
    const room = "nearby:s14ck";
    const mySocket = await mustOpen(room, me.cookie);
    const otherSocket = await mustOpen(room, other.cookie);
    const first = textEnvelope(room, me.id, "one");
    for (const envelope of [first, textEnvelope(room, me.id, "two"), first]) mySocket.send({ type: "send", envelope });
    otherSocket.send({ type: "send", envelope: textEnvelope(room, other.id, "not mine") });
    await mySocket.waitFor(() => mySocket.of("ack").length === 3);
    await otherSocket.waitFor(() => otherSocket.of("ack").length === 1);
    await flushRoom(room);

    await vi.waitFor(async () => expect((await (await mine(me.cookie, "1h")).json<Record<string, number>>()).messagesSent).toBe(2), {
      timeout: 3000,
    });
    // The SOS counts once its job has finished, after the queue has read its area (docs/decisions/054).
    await vi.waitFor(async () => expect((await (await mine(me.cookie, "1h")).json<Record<string, number>>()).sosSent).toBe(1), {
      timeout: 5000,
    });
    const figures = await (await mine(me.cookie, "1h")).json<Record<string, unknown>>();
    expect(figures).toMatchObject({
      scope: "me",
      messagesSent: 2,
      aiCommands: 3,
      aiByKind: { market: 2, translate: 1 },
      sosSent: 1,
      files: 0,
    });
    mySocket.close();
    otherSocket.close();
  });
});
