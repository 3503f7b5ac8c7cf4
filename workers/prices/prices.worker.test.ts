// Market prices people report, end to end in workerd (docs/decisions/068-market-prices-people-report.md): the web
// API, WhatsApp's PRICE command (signed as Twilio signs it), the USSD menu and the assistant all report into and
// quote from the same table; outliers are left out and earn nothing; the day's limits and the retention hold.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids";
import { PRICE_REPORT_POINTS, PRICE_REPORTS_PER_DAY, PRICE_REPORTS_REWARDED_PER_DAY } from "../../core/price-reports";
import { createDb } from "../../db";
import { prunePriceReports } from "../../db/queries/retention";
import { auditLog, pointEvents, priceReports } from "../../db/schema";
import { adminSession, anonymousSession, call, ORIGIN, verifiedSession } from "../../tests/workers/helpers";
import { userForPhone } from "../channels";
import { inProcessApi } from "../in-process-api";
import { createServer } from "../server";
import { itemsInQuestion, reportPrice } from ".";
import { whatsappMessage } from "../../tests/workers/whatsapp";
import { bareCtx, countedEnv, statementsOf } from "../../tests/workers/statements";

const db = createDb(env);
let n = 0;
const newPhone = () => `+234814${String(Date.now() % 1e5).padStart(5, "0")}${String(n++).padStart(2, "0")}`;
const report = (cookie: string, json: Record<string, unknown>) => call("/api/market/reports", { method: "POST", cookie, json });
const DAY = 86_400_000;

async function whatsapp(phone: string, Body: string) {
  const answer = await whatsappMessage(phone, { Body });
  expect(answer.status).toBe(200);
  return answer.reply ?? "";
}

async function dial(phone: string, text: string, sessionId = `ATUid_${newId(8)}`) {
  const res = await SELF.fetch(`${ORIGIN}/ussd`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sessionId, serviceCode: "*384*1234#", phoneNumber: phone, networkCode: "62130", text }),
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** The menu answers that pick `item` on the market menu (turning pages with 9), as a caller would find it. */
async function pickOnMarketMenu(phone: string, item: string): Promise<string> {
  const path = ["3"];
  for (let page = 0; page < 20; page++) {
    const screen = await dial(phone, path.join("*"));
    const line = screen.split("\n").find((l) => l.replace(/^\d+ /, "").toLowerCase() === item);
    if (line) return [...path, line.split(" ")[0]].join("*");
    path.push("9");
  }
  throw new Error(`${item} is not on the market menu`);
}

async function quotes(query: string) {
  const res = await call(`/api/market/reports?${query}`);
  expect(res.status).toBe(200);
  return (await res.json<{ quotes: { item: string; unit: string; market: string; kind: string; medianNgn?: number; count: number }[] }>())
    .quotes;
}

describe("reporting a price on the web", () => {
  it("quotes the median of three people's reports with their count, and says no recent price before that", async () => {
    const [a, b, c] = [await verifiedSession("0803", "Ada"), await verifiedSession("0803", "Bayo"), await verifiedSession("0803", "Chi")];
    const first = await report(a.cookie, { item: "Garri", unit: "50kg", priceNgn: 52_000, market: "Oyingbo Market" });
    expect(first.status).toBe(201);
    expect((await first.json<{ quote: { kind: string; count: number } }>()).quote).toMatchObject({ kind: "none", count: 1 });
    expect(await quotes("item=garri")).toEqual([expect.objectContaining({ kind: "none", count: 1 })]);

    await report(b.cookie, { item: "garri", unit: "50 KG", priceNgn: "50000", market: "Oyingbo" });
    const third = await report(c.cookie, { item: "garri", unit: "50kg", priceNgn: 55_000, market: "Oyingbo" });
    expect((await third.json<{ quote: unknown }>()).quote).toMatchObject({ kind: "price", medianNgn: 52_000, count: 3, unit: "50 kg" });
    expect(await quotes("item=Garri&market=Oyingbo market")).toEqual([
      expect.objectContaining({ item: "garri", unit: "50 kg", market: "Oyingbo", kind: "price", medianNgn: 52_000, count: 3 }),
    ]);

    // A person's newer report replaces their older one: the count stays 3.
    await report(a.cookie, { item: "garri", unit: "50kg", priceNgn: 53_000, market: "Oyingbo" });
    expect(await quotes("item=garri")).toEqual([expect.objectContaining({ medianNgn: 53_000, count: 3 })]);
  });

  it("refuses a person without a verified phone, and a report missing its unit or price, in words", async () => {
    const anon = await anonymousSession();
    expect((await report(anon.cookie, { item: "rice", unit: "50kg", priceNgn: 78_000, market: "Mile 12" })).status).toBe(403);
    const person = await verifiedSession("0803");
    const bad = await report(person.cookie, { item: "rice", unit: "lots", priceNgn: 78_000, market: "Mile 12" });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: string }>()).error).toContain("Give a unit such as 50kg");
    expect((await report(person.cookie, { item: "rice", unit: "bag", priceNgn: -5, market: "Mile 12" })).status).toBe(400);
  });

  it("leaves an outlier out of the median, and only reports that are no outlier earn points", async () => {
    const people = await Promise.all(["Ade", "Bisi", "Chidi", "Dayo", "Ebere"].map((name) => verifiedSession("0806", name)));
    const prices = [30_000, 31_000, 29_500, 30_500, 300_000];
    for (const [i, p] of people.entries()) {
      expect((await report(p.cookie, { item: "beans", unit: "bag", priceNgn: prices[i], market: "Bodija" })).status).toBe(201);
    }
    expect(await quotes("item=beans&market=bodija")).toEqual([expect.objectContaining({ medianNgn: 30_250, count: 4 })]);
    const pointsOf = async (userId: string) =>
      (await db.select().from(pointEvents).where(eq(pointEvents.userId, userId))).filter((e) => e.kind === "price_report");
    // The first two were judged once a third report came in; each honest reporter earned, the outlier did not.
    for (const p of people.slice(0, 4)) expect(await pointsOf(p.id)).toEqual([expect.objectContaining({ points: PRICE_REPORT_POINTS })]);
    expect(await pointsOf(people[4].id)).toEqual([]);
  });

  it("limits reports a day per person (429), and points to a few reports a day", async () => {
    const [me, other1, other2] = [await verifiedSession("0807"), await verifiedSession("0807"), await verifiedSession("0807")];
    const items = Array.from({ length: PRICE_REPORTS_PER_DAY }, (_, i) => `item${String.fromCharCode(97 + i)}`);
    for (const item of items.slice(0, PRICE_REPORTS_REWARDED_PER_DAY + 2)) {
      await report(other1.cookie, { item, unit: "kg", priceNgn: 1000, market: "Wuse" });
      await report(other2.cookie, { item, unit: "kg", priceNgn: 1000, market: "Wuse" });
    }
    for (const item of items) expect((await report(me.cookie, { item, unit: "kg", priceNgn: 1000, market: "Wuse" })).status).toBe(201);
    const refused = await report(me.cookie, { item: "onions", unit: "kg", priceNgn: 1000, market: "Wuse" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const mine = await db.select().from(pointEvents).where(eq(pointEvents.userId, me.id));
    expect(mine.filter((e) => e.kind === "price_report")).toHaveLength(PRICE_REPORTS_REWARDED_PER_DAY);
  });
});

describe("reporting on WhatsApp and USSD", () => {
  it("a price reported over WhatsApp is quoted on USSD with its count and days", async () => {
    const phones = [newPhone(), newPhone(), newPhone()];
    expect(await whatsapp(phones[0], "PRICE ofada rice 50kg 78000 Mile 12")).toContain(
      "No recent price for 50 kg ofada rice at Mile 12: 3 reports in 14 days are needed, so far 1.",
    );
    expect(await whatsapp(phones[1], "@ai price ofada rice 50kg ₦80,000 at Mile 12")).toMatch(/^✅ Thank you, your price is in\./);
    const third = await whatsapp(phones[2], "price Ofada rice 50 kg 77k Mile 12 market");
    const today = new Date();
    const day = `${today.getUTCDate()} ${today.toUTCString().slice(8, 11)}`;
    expect(third).toBe(
      `✅ Thank you, your price is in. Now: ₦78,000 for 50 kg ofada rice at Mile 12, median of 3 reports, ${day}. You earned ${PRICE_REPORT_POINTS} points.`,
    );

    const caller = newPhone();
    const screen = await dial(caller, `${await pickOnMarketMenu(caller, "ofada rice")}*1`);
    expect(screen).toBe(`END N78,000 for 50 kg ofada rice at Mile 12, median of 3 reports, ${day}`);
    // The same by place: the market typed on the menu.
    expect(await dial(caller, `${await pickOnMarketMenu(caller, "ofada rice")}*mile 12`)).toBe(screen);
  });

  it("answers a WhatsApp report it cannot read with the command's form", async () => {
    expect(await whatsapp(newPhone(), "PRICE rice 50kg Mile 12")).toContain("e.g. PRICE rice 50kg 78000 Mile 12");
    expect(await whatsapp(newPhone(), "PRICE")).toContain("e.g. PRICE rice 50kg 78000 Mile 12");
    expect(await whatsapp(newPhone(), "HELP")).toContain("PRICE <item> <unit> <price> <market>");
  });

  it("the USSD menu takes a report one answer a screen, confirms it and says what the item is quoted at", async () => {
    const phone = newPhone();
    expect(await dial(phone, "3")).toContain("8 Report a price");
    expect(await dial(phone, "3*8")).toBe("CON Report a price. Type the item (e.g. rice):\n00 Back");
    expect(await dial(phone, "3*8*Yam")).toContain("Type the unit");
    expect(await dial(phone, "3*8*Yam*lots")).toMatch(/^CON Invalid choice, try again\. Type the unit/);
    expect(await dial(phone, "3*8*Yam*tuber*2,500")).toContain("Type the market or area");
    expect(await dial(phone, "3*8*Yam*tuber*2,500*Bodija Market")).toBe(
      "CON Yam, tuber, N2,500 at Bodija Market. Send?\n1 Send now\n00 Back",
    );
    expect(await dial(phone, "3*8*Yam*tuber*2,500*Bodija Market*1")).toBe(
      "END Thank you, your price is in. Now: No recent price for tuber yam at Bodija Market: 3 reports in 14 days are needed, so far 1.",
    );
    const owner = await userForPhone(db, phone);
    expect(await db.select().from(priceReports).where(eq(priceReports.userId, owner.id))).toEqual([
      expect.objectContaining({ item: "Yam", unit: "tuber", priceNgn: 2500, market: "Bodija Market", channel: "ussd" }),
    ]);
  });
});

describe("the assistant and the window", () => {
  it("'@ai price of <item>' quotes the median with its count and the days of the reports, over the last 14 days only", async () => {
    const now = Date.now();
    const people = await Promise.all([1, 2, 3, 4].map(() => verifiedSession("0809")));
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
    await reportPrice(
      db,
      { userId: people[0].id, channel: "web" },
      { item: "millet", unit: "bag", priceNgn: 40_000, market: "Dawanau" },
      at(20),
    );
    await reportPrice(
      db,
      { userId: people[1].id, channel: "web" },
      { item: "millet", unit: "bag", priceNgn: 41_000, market: "Dawanau" },
      at(10),
    );
    await reportPrice(
      db,
      { userId: people[2].id, channel: "web" },
      { item: "millet", unit: "bag", priceNgn: 43_000, market: "Dawanau" },
      at(5),
    );
    const asker = await anonymousSession();
    const ask = async () => {
      const res = await call("/api/ai/chat", {
        method: "POST",
        cookie: asker.cookie,
        json: {
          message: "@ai price of millet",
          userId: "x",
          context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" },
        },
      });
      return (await res.json<{ message: string }>()).message;
    };
    // A report typed to the assistant is pointed to where reports go.
    const res = await call("/api/ai/chat", {
      method: "POST",
      cookie: asker.cookie,
      json: {
        message: "@ai price millet 50kg 41000 Dawanau",
        userId: "x",
        context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" },
      },
    });
    expect((await res.json<{ message: string }>()).message).toContain("Report it on the Market prices page (/market-prices)");
    // The report of 20 days ago is out of the window: two are not enough.
    expect(await ask()).toContain("no recent price (2 reports in 14 days, 3 needed)");
    await reportPrice(
      db,
      { userId: people[3].id, channel: "web" },
      { item: "millet", unit: "bag", priceNgn: 42_000, market: "Dawanau" },
      at(0),
    );
    const fmt = (d: Date) => `${d.getUTCDate()} ${d.toUTCString().slice(8, 11)}`;
    const first = at(10);
    const last = at(0);
    const range = first.getUTCMonth() === last.getUTCMonth() ? `${first.getUTCDate()}–${fmt(last)}` : `${fmt(first)}–${fmt(last)}`;
    expect(await ask()).toContain(`₦42,000 for bag millet at Dawanau, median of 3 reports, ${range}`);

    // The Cron's retention deletes what the window no longer quotes.
    await prunePriceReports(db, { now });
    const left = await db.select().from(priceReports).where(eq(priceReports.itemKey, "millet"));
    expect(left.map((r) => r.priceNgn).sort()).toEqual([41_000, 42_000, 43_000]);
  });
});

describe("finding a reported item by its everyday name", () => {
  it("a question's word finds the items it is a word of, and the rest is the place", () => {
    const items = [{ itemKey: "rice" }, { itemKey: "ofada rice" }, { itemKey: "palm oil" }, { itemKey: "garri" }];
    expect(itemsInQuestion("rice mile 12", items)).toEqual({ itemKeys: ["rice", "ofada rice"], place: "mile 12" });
    expect(itemsInQuestion("ofada rice Bodija", items)).toEqual({ itemKeys: ["ofada rice"], place: "bodija" });
    expect(itemsInQuestion("oil", items)).toEqual({ itemKeys: ["palm oil"], place: "" });
    expect(itemsInQuestion("ice at Bodija", [{ itemKey: "ofada rice" }])).toEqual({ itemKeys: [], place: "ice at bodija" });
  });

  it("asking for rice quotes the reported ofada rice, on the screen's API and from the assistant", async () => {
    const people = await Promise.all([1, 2, 3].map(() => verifiedSession("0810")));
    for (const [i, priceNgn] of [81_000, 83_000, 85_000].entries()) {
      await reportPrice(db, { userId: people[i].id, channel: "web" }, { item: "Ofada rice", unit: "50kg", priceNgn, market: "Bodija" });
    }
    expect(await quotes("item=Rice&market=Bodija")).toEqual([
      expect.objectContaining({ item: "ofada rice", unit: "50 kg", market: "Bodija", kind: "price", medianNgn: 83_000, count: 3 }),
    ]);
    expect(await quotes("item=ice&market=Bodija")).toEqual([]);
    const asker = await anonymousSession();
    const res = await call("/api/ai/chat", {
      method: "POST",
      cookie: asker.cookie,
      json: {
        message: "@ai price of rice at Bodija",
        userId: "x",
        context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" },
      },
    });
    expect((await res.json<{ message: string }>()).message).toContain("₦83,000 for 50 kg ofada rice at Bodija, median of 3 reports");
  });
});

describe("the reported-price answer in the asker's language", () => {
  it("says the words around the figures in Hausa and French; the figures, item and market stay as reported", async () => {
    const people = await Promise.all([1, 2, 3].map(() => verifiedSession("0811")));
    for (const [i, priceNgn] of [90_000, 92_000, 94_000].entries()) {
      await reportPrice(db, { userId: people[i].id, channel: "web" }, { item: "Ofada rice", unit: "50kg", priceNgn, market: "Oje" });
    }
    await reportPrice(db, { userId: people[0].id, channel: "web" }, { item: "Ofada rice", unit: "bag", priceNgn: 95_000, market: "Oje" });
    const asker = await anonymousSession();
    const ask = async (message: string) => {
      const res = await call("/api/ai/chat", {
        method: "POST",
        cookie: asker.cookie,
        json: { message, userId: "x", context: { messageHistory: [], userLocation: "mesh-network", meshStatus: "connected" } },
      });
      return (await res.json<{ message: string }>()).message;
    };
    const hausa = await ask("@ai farashin shinkafa a Oje?");
    expect(hausa).toMatch(/^📊 Farashin da mutane suka bayar a kwanaki 14 na ƙarshe:\n/);
    expect(hausa).toContain("• ₦92,000 na 50 kg ofada rice a Oje, tsakiyar rahotanni 3, ");
    expect(hausa).toContain("• bag ofada rice a Oje: babu sabon farashi (rahotanni 1 cikin kwana 14, ana bukatar 3)");
    const french = await ask("@ai prix du riz a Oje");
    expect(french).toMatch(/^📊 Prix signalés par les gens ces 14 derniers jours :\n/);
    expect(french).toContain("• ₦92,000 pour 50 kg ofada rice à Oje, médiane de 3 signalements, ");
    // A report typed to the assistant is pointed to where reports go, in the asker's words; the command stays.
    expect(await ask("@ai farashin shinkafa 50kg 78000 Oje")).toBe(
      "Kamar farashin da ka gani ne. Ka bayar da shi a shafin farashin kasuwa (/market-prices), a WhatsApp da PRICE rice 50kg 78000 Mile 12, ko a menu na USSD.",
    );
  });
});

describe("the words about prices", () => {
  it("the market-prices article says answers are the median of what people reported, and how to report", async () => {
    const { articles } = await (await call("/api/content/blog")).json<{ articles: { id: string; content: string }[] }>();
    const content = articles.find((a) => a.id === "market-prices-by-text")?.content;
    expect(content).toContain("the median of the prices people reported there in the last 14 days");
    expect(content).toContain("PRICE maize bag 45000 Dawanau on WhatsApp");
    expect(content).not.toContain("its source and the day it was seen");
  });
});

describe("what a report and a look cost in D1 statements", () => {
  const server = createServer(async () => new Response("page"));

  it("the same few statements however many reports a market has", async () => {
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => verifiedSession("0802")));
    for (const p of people.slice(0, 5)) await report(p.cookie, { item: "sorghum", unit: "bag", priceNgn: 38_000, market: "Dawanau" });
    const page = new Request(`${ORIGIN}/market-prices`, { method: "POST", headers: { cookie: people[5].cookie, origin: ORIGIN } });
    const api = inProcessApi(server.fetch, page, countedEnv, bareCtx);
    const send = () =>
      api("/api/market/reports", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ item: "sorghum", unit: "bag", priceNgn: 39_000, market: "Dawanau" }),
      });
    // Session, the inserted row, the market's window and the day's points; the insert, the points and the settling.
    expect(await statementsOf(send)).toEqual({ reads: 4, writes: 3 });
    const look = inProcessApi(
      server.fetch,
      new Request(`${ORIGIN}/market-prices`, { headers: { cookie: people[0].cookie } }),
      countedEnv,
      bareCtx,
    );
    expect(await statementsOf(() => look("/api/market/reports?item=sorghum"))).toEqual({ reads: 2, writes: 0 });
  });
});

describe("staff and reported prices", () => {
  it("staff see the outlier first with its reporter and remove it; others may not", async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => verifiedSession("0805")));
    for (const [i, p] of people.entries()) {
      await report(p.cookie, { item: "cassava", unit: "basket", priceNgn: i === 3 ? 250_000 : 25_000 + i * 100, market: "Ogbete" });
    }
    expect((await call("/api/admin/price-reports", { cookie: people[0].cookie })).status).toBe(403);
    const admin = await adminSession();
    const listed = await (await call("/api/admin/price-reports", { cookie: admin.cookie })).json<{
      reports: { id: string; reporterId: string; priceNgn: number; standing: string }[];
    }>();
    const cassava = listed.reports.filter((r) => [25_000, 25_100, 25_200, 250_000].includes(r.priceNgn));
    expect(cassava[0]).toMatchObject({ priceNgn: 250_000, standing: "outlier", reporterId: people[3].id });
    expect(cassava.slice(1).map((r) => r.standing)).toEqual(["counted", "counted", "counted"]);

    expect((await call(`/api/admin/price-reports/${cassava[0].id}`, { method: "DELETE", cookie: people[0].cookie })).status).toBe(403);
    const removed = await call(`/api/admin/price-reports/${cassava[0].id}`, { method: "DELETE", cookie: admin.cookie });
    expect(removed.status).toBe(200);
    expect(await db.select().from(priceReports).where(eq(priceReports.id, cassava[0].id))).toEqual([]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.target, cassava[0].id));
    expect(audit.map((a) => a.action)).toEqual(["market.report_removed"]);
    expect((await call(`/api/admin/price-reports/${cassava[0].id}`, { method: "DELETE", cookie: admin.cookie })).status).toBe(404);
  });
});
