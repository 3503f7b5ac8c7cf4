// The SOS banner's data on every page load (issue 32, docs/decisions/062): /api/me names the newest fresh, active SOS
// in the person's area from someone else until they answer it, read in the session's own statement.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { SOS_ALARM_MS, type SosBanner } from "../../core/sos";
import { createDb } from "../../db";
import { emergencyBroadcasts } from "../../db/schema";
import { anonymousSession, call } from "../../tests/workers/helpers";
import { PASS_COOKIE } from "../auth/session-pass";

const db = createDb(env);

async function personAt(at: { latitude: number; longitude: number }, nickname: string) {
  const s = await anonymousSession();
  expect((await call("/api/me", { method: "PATCH", cookie: s.cookie, json: { nickname } })).status).toBe(200);
  expect((await call("/api/me/location", { method: "PUT", cookie: s.cookie, json: at })).status).toBe(200);
  return s;
}

async function sos(cookie: string, at: { latitude: number; longitude: number }, message: string) {
  const res = await call("/api/emergency/broadcast", {
    method: "POST",
    cookie,
    json: { message, emergencyType: "medical", location: at, clientRequestId: newId() },
  });
  expect(res.ok).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

async function banner(cookie: string) {
  const res = await call("/api/me", { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sosNearby: SosBanner | null }).sosNearby;
}

const somewhere = () => ({ latitude: 4 + Math.random() * 8, longitude: 3 + Math.random() * 9 });

describe("the SOS banner in /api/me", () => {
  it("names a nearby SOS from someone else, with its area room, until the person answers it", async () => {
    const at = somewhere();
    const sender = await personAt(at, "Chidi");
    const helper = await personAt(at, "Dayo");
    expect(await banner(helper.cookie)).toBeNull();
    const id = await sos(sender.cookie, at, "My mother fell down the stairs");

    const shown = await banner(helper.cookie);
    expect(shown).toMatchObject({ id, senderName: "Chidi", message: "My mother fell down the stairs", emergencyType: "medical" });
    expect(shown?.room).toMatch(/^nearby:/);
    // Never one's own SOS.
    expect(await banner(sender.cookie)).toBeNull();

    const answered = await call(`/api/emergency/${encodeURIComponent(id)}/respond`, { method: "POST", cookie: helper.cookie });
    expect(answered.ok).toBe(true);
    expect(await banner(helper.cookie)).toBeNull();
  });

  it("shows none from another area, none once resolved, and none once older than an alarm", async () => {
    const at = somewhere();
    const far = { latitude: at.latitude + 1, longitude: at.longitude };
    const sender = await personAt(at, "Emeka");
    const neighbour = await personAt(at, "Funke");
    const elsewhere = await personAt(far, "Gbenga");
    const id = await sos(sender.cookie, at, "Fire at the junction");
    expect((await banner(neighbour.cookie))?.id).toBe(id);
    expect(await banner(elsewhere.cookie)).toBeNull();

    // Older than the alarm window: history, not a banner (the /emergency list still has it).
    await db
      .update(emergencyBroadcasts)
      .set({ broadcastedAt: new Date(Date.now() - SOS_ALARM_MS - 60_000) })
      .where(eq(emergencyBroadcasts.id, id));
    expect(await banner(neighbour.cookie)).toBeNull();

    const again = await sos(sender.cookie, at, "Still burning");
    expect((await banner(neighbour.cookie))?.id).toBe(again);
    expect((await call(`/api/emergency/${encodeURIComponent(again)}/resolve`, { method: "POST", cookie: sender.cookie })).ok).toBe(true);
    expect(await banner(neighbour.cookie)).toBeNull();
  });

  it("still shows it when the page's session came from a pass (no session read), and not after answering", async () => {
    const at = somewhere();
    const sender = await personAt(at, "Hauwa");
    const helper = await personAt(at, "Ifeoma");
    // A GET hands out the pass; later hot reads with it read no session statement (docs/decisions/065).
    const first = await call("/api/me", { cookie: helper.cookie });
    const pass = first.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${PASS_COOKIE}=`))
      ?.split(";")[0];
    expect(pass).toBeDefined();
    const withPass = `${helper.cookie}; ${pass}`;
    expect(await banner(withPass)).toBeNull();
    const id = await sos(sender.cookie, at, "Flood water in the house");
    expect(await banner(withPass)).toMatchObject({ id, senderName: "Hauwa", message: "Flood water in the house" });
    expect((await call(`/api/emergency/${encodeURIComponent(id)}/respond`, { method: "POST", cookie: helper.cookie })).ok).toBe(true);
    expect(await banner(withPass)).toBeNull();
  });
});
