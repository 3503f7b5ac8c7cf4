// Active SOS by area on the staff desk through the real Worker: guards, grouping by area room, resolve by staff.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";

type Areas = { areas: { area: string; geohash: string | null; sos: { id: string; message: string; nickname: string }[] }[] };

async function staffUser() {
  // An admin is made by ADMIN_PHONES at verification (tested in workers/identity); the admin makes staff by API.
  const admin = await adminSession();
  const staff = await verifiedSession("0904", "Helper");
  await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
  return staff;
}

async function sos(locationText: string, message: string) {
  const person = await anonymousSession();
  const res = await call("/api/emergency/broadcast", {
    method: "POST",
    cookie: person.cookie,
    json: { message, emergencyType: "medical", locationText, clientRequestId: newId() },
  });
  expect(res.status).toBe(201);
  return (await res.json<{ id: string }>()).id;
}

describe("active SOS by area", () => {
  it("is for staff only: 401 without a session, 403 for anonymous and verified people", async () => {
    expect((await call("/api/admin/sos")).status).toBe(401);
    expect((await call("/api/admin/sos", { cookie: (await anonymousSession()).cookie })).status).toBe(403);
    const person = await verifiedSession("0904");
    const refused = await call("/api/admin/sos", { cookie: person.cookie });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Staff access required", code: "staff_required" });
  });

  it("groups open SOS by area, busiest first; staff resolve one and it leaves the list, audited", async () => {
    const staff = await staffUser();
    const a = await sos("Ikeja", "Fire on Allen Avenue");
    await sos("Ikeja", "Flooded road near the market");
    await sos("Kano", "Car crash on the bypass");

    const res = await call("/api/admin/sos", { cookie: staff.cookie });
    expect(res.status).toBe(200);
    const { areas } = await res.json<Areas>();
    expect(areas.map((g) => [g.area, g.sos.length])).toEqual([
      ["Ikeja area", 2],
      ["Kano area", 1],
    ]);
    expect(areas[0].sos.map((s) => s.message).sort()).toEqual(["Fire on Allen Avenue", "Flooded road near the market"]);

    const resolved = await call(`/api/emergency/${a}/resolve`, { method: "POST", cookie: staff.cookie });
    expect(resolved.status).toBe(200);
    const after = await (await call("/api/admin/sos", { cookie: staff.cookie })).json<Areas>();
    expect(after.areas.flatMap((g) => g.sos.map((s) => s.id))).not.toContain(a);
    const log = await env.DB.prepare("select actor_id, detail from audit_log where target = ? and action = 'sos.resolved'")
      .bind(a)
      .first<{ actor_id: string; detail: string }>();
    expect(log?.actor_id).toBe(staff.id);
    expect(JSON.parse(log?.detail ?? "{}")).toMatchObject({ before: { status: "active" }, after: { status: "resolved" } });
  });
});
