// Market prices kept by staff through the real Worker: guards, audit, and the assistant and USSD quoting each
// price with its source and day, and refusing to quote a stale one.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { createDb } from "../../db";
import { listCommodities } from "../../db/queries/content";
import { adminSession, anonymousSession, call, ORIGIN, verifiedSession } from "../../tests/workers/helpers";

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function staffUser() {
  // An admin is made by ADMIN_PHONES at verification (tested in workers/identity); the admin makes staff by API.
  const admin = await adminSession();
  const staff = await verifiedSession("0905", "Helper");
  await call(`/api/admin/people/${staff.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
  return staff;
}

const price = (over: Record<string, unknown>) => ({
  commodity: "Yam",
  market: "Bodija Market",
  city: "Ibadan",
  unit: "tuber (medium)",
  priceNgn: 3100,
  source: "Oyo State price desk",
  date: daysAgo(3),
  ...over,
});

async function ask(message: string) {
  const { cookie } = await anonymousSession();
  const res = await call("/api/ai/chat", {
    method: "POST",
    cookie,
    json: { message, userId: "x", context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" } },
  });
  return (await res.json<{ message: string }>()).message;
}

async function dialMarket(commodity: string, place: string) {
  // The Worker tests run in development, where the USSD menu lists the example figures too.
  const commodities = await listCommodities(createDb(env), { examples: true });
  const index = commodities.indexOf(commodity);
  const path = [...Array(Math.floor(index / 7)).fill("9"), String((index % 7) + 1)].join("*");
  const res = await SELF.fetch(`${ORIGIN}/ussd`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      sessionId: `ATUid_${newId(8)}`,
      serviceCode: "*384*1234#",
      phoneNumber: "+2348031234599",
      networkCode: "62130",
      text: `3*${path}*${place}`,
    }),
  });
  return res.text();
}

describe("market prices kept by staff", () => {
  it("only staff edit them: 401 without a session, 403 for anonymous and verified people; bad input is a 400", async () => {
    const post = (cookie?: string, json: unknown = price({})) => call("/api/admin/market-prices", { method: "POST", cookie, json });
    expect((await post()).status).toBe(401);
    expect((await post((await anonymousSession()).cookie)).status).toBe(403);
    const person = await verifiedSession("0905");
    expect((await post(person.cookie)).status).toBe(403);
    expect((await call("/api/admin/market-prices", { cookie: person.cookie })).status).toBe(403);
    const staff = await staffUser();
    const future = await post(staff.cookie, price({ date: "2999-01-01" }));
    expect(future.status).toBe(400);
    expect((await future.json<{ error: string }>()).error).toContain("date");
    expect((await post(staff.cookie, price({ priceNgn: -5 }))).status).toBe(400);
    expect((await post(staff.cookie, price({ source: "" }))).status).toBe(400);
  });

  it("a price staff set is quoted by the assistant and USSD with its source and day, and audited", async () => {
    const staff = await staffUser();
    const set = await call("/api/admin/market-prices", { method: "POST", cookie: staff.cookie, json: price({}) });
    expect(set.status).toBe(200);
    const { price: row } = await set.json<{ price: { id: string } }>();

    const answer = await ask("@ai market yam bodija");
    expect(answer).toContain("Yam, Bodija Market (Ibadan): ₦3,100 per tuber (medium)");
    expect(answer).toContain(`Oyo State price desk, ${daysAgo(3)}`);
    const ussd = await dialMarket("Yam", "Bodija");
    expect(ussd).toContain("Bodija Market N3,100");
    expect(ussd).toContain(`Oyo State price desk, ${daysAgo(3)}`);

    const log = await env.DB.prepare("select actor_id, detail from audit_log where target = ? and action = 'market.price_set'")
      .bind(row.id)
      .first<{ actor_id: string; detail: string }>();
    expect(log?.actor_id).toBe(staff.id);
    expect(JSON.parse(log?.detail ?? "{}")).toMatchObject({
      before: { priceNgn: 2500, source: "example" },
      after: { priceNgn: 3100, source: "Oyo State price desk", date: daysAgo(3) },
    });
    const listed = await (await call("/api/admin/market-prices", { cookie: staff.cookie })).json<{ prices: { id: string }[] }>();
    expect(listed.prices.filter((p) => p.id === row.id)).toHaveLength(1);
  });

  it("a stale price is not quoted: the assistant and USSD say there is no recent one and how old the last is", async () => {
    const staff = await staffUser();
    const json = price({
      commodity: "Maize",
      market: "Dawanau Market",
      city: "Kano",
      unit: "100kg bag",
      priceNgn: 47700,
      source: "Kano traders",
      date: daysAgo(40),
    });
    expect((await call("/api/admin/market-prices", { method: "POST", cookie: staff.cookie, json })).status).toBe(200);

    const answer = await ask("@ai market maize kano");
    expect(answer).toBe(
      `I have no recent price for Maize in Kano: the last one I have (Kano traders, ${daysAgo(40)}) is more than 30 days old.`,
    );
    const ussd = await dialMarket("Maize", "Kano");
    expect(ussd).toBe(`END No prices found for Maize in Kano.\nKano traders, ${daysAgo(40)}`);

    const { price: row } = await (
      await call("/api/admin/market-prices", { method: "POST", cookie: staff.cookie, json: { ...json, date: daysAgo(1), priceNgn: 50100 } })
    ).json<{ price: { id: string } }>();
    expect(await ask("@ai market maize kano")).toContain("₦50,100");
    const gone = await call(`/api/admin/market-prices/${row.id}`, { method: "DELETE", cookie: staff.cookie });
    expect(gone.status).toBe(200);
    expect(
      await env.DB.prepare("select count(*) as n from audit_log where target = ? and action = 'market.price_deleted'")
        .bind(row.id)
        .first("n"),
    ).toBe(1);
  });
});
