// Every claim true (docs/decisions/060-every-claim-true.md): Contact Sales reaches staff, the support bot sells
// only what Enterprise gives, production shows no placeholder support line or USSD code, and the seeded example
// prices are quoted only in development.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TEAM_SEATS } from "../../core/teams";
import { createDb } from "../../db";
import { adminSession, anonymousSession, call, ORIGIN } from "../../tests/workers/helpers";
import { EXAMPLE_SUPPORT_PHONE, EXAMPLE_USSD_CODE, supportPhone, ussdCode } from "../contact-config";
import { type AppEnv, publicEnv } from "../env";
import { installInfo } from "../install";
import { createServer } from "../server";
import { marketAnswer } from "./market";
import { supportQuery } from "./support";

const development = env as unknown as AppEnv;
// As wrangler hands a deployed Worker its bindings: ENVIRONMENT unset, SUPPORT_PHONE and USSD_CODE empty.
const production = { ...development, ENVIRONMENT: undefined, SUPPORT_PHONE: "", USSD_CODE: "" } as unknown as AppEnv;
const server = createServer(async () => new Response("page"));

describe("Contact Sales", () => {
  it("sends an enquiry that staff see in their call-back queue, and says who will call whom", async () => {
    const { cookie } = await anonymousSession();
    const res = await call("/api/support/sales", {
      method: "POST",
      cookie,
      json: { phone: "0803 555 0101", message: "A cooperative of 40 farmers in Kano" },
    });
    expect(res.status).toBe(200);
    const sent = await res.json<{ ticketId: string; phone: string }>();
    expect(sent.phone).toBe("+2348035550101");

    const staff = await adminSession();
    const queue = await (await call("/api/support/tickets", { cookie: staff.cookie })).json<{
      tickets: { id: string; phone: string; category: string; message: string }[];
    }>();
    expect(queue.tickets).toContainEqual(
      expect.objectContaining({
        id: sent.ticketId,
        phone: "+2348035550101",
        category: "business",
        message: "Sales enquiry (Enterprise): A cooperative of 40 farmers in Kano",
      }),
    );
  });

  it("refuses an enquiry without a phone staff can call, or without words", async () => {
    const { cookie } = await anonymousSession();
    const noPhone = await call("/api/support/sales", { method: "POST", cookie, json: { phone: "12", message: "Hello" } });
    expect(noPhone.status).toBe(400);
    const noWords = await call("/api/support/sales", { method: "POST", cookie, json: { phone: "08035550102", message: " " } });
    expect(noWords.status).toBe(400);
  });
});

describe("the support bot", () => {
  it("says what Enterprise gives: the uncapped limits and a team of as many people as it seats", async () => {
    const answer = await supportQuery(development, createDb(env), { message: "business enterprise for my company", user: null });
    expect(answer.category).toBe("business");
    expect(answer.response).toContain(`a team of up to ${TEAM_SEATS} people`);
    expect(answer.response).not.toMatch(/custom configuration|24\/7/i);
  });

  it("names no support line in production when none is configured, and offers the call-back instead", async () => {
    const answer = await supportQuery(production, createDb(env), { message: "my app is not working, it crashes", user: null });
    expect(answer.category).toBe("technical");
    expect(answer.response).not.toContain(EXAMPLE_SUPPORT_PHONE);
    expect(answer.response).not.toMatch(/call \(|call ,|on \./);
    expect(answer.response).toContain("leave your phone number");
  });
});

describe("the support line and the USSD code", () => {
  it("come from configuration, with example values only in development", () => {
    expect(supportPhone(development)).toBe(EXAMPLE_SUPPORT_PHONE);
    expect(ussdCode(development)).toBe(EXAMPLE_USSD_CODE);
    expect(supportPhone(production)).toBe("");
    expect(ussdCode(production)).toBeNull();
    expect(publicEnv(production).SUPPORT_PHONE).toBe("");
    expect(installInfo(production, "https://linkup.example/download").ussdCode).toBeNull();
    const configured = { ...production, SUPPORT_PHONE: " +2348012345678 ", USSD_CODE: "*347*88#" } as AppEnv;
    expect(supportPhone(configured)).toBe("+2348012345678");
    expect(ussdCode(configured)).toBe("*347*88#");
  });
});

describe("the seeded market prices", () => {
  it("are labelled examples in development and never quoted in production", async () => {
    const db = createDb(env);
    const dev = await marketAnswer(db, "rice kano", null, 8, new Date(), true);
    expect(dev).toContain("example, not observed");
    expect(await marketAnswer(db, "rice kano", null, 8, new Date(), false)).toBe("I have no recent market price yet.");
  });

  it("are served by the prices API labelled examples in development, and not at all in production", async () => {
    const res = await call("/api/market/prices?commodity=rice");
    const { prices } = await res.json<{ prices: { source: string }[] }>();
    expect(prices.length).toBeGreaterThan(0);
    expect(new Set(prices.map((p) => p.source))).toEqual(new Set(["example"]));

    const ctx = createExecutionContext();
    const inProduction = await server.fetch(new Request(`${ORIGIN}/api/market/prices?commodity=rice`), production, ctx);
    await waitOnExecutionContext(ctx);
    expect(await inProduction.json()).toEqual({ prices: [] });
  });
});

describe("the seeded words", () => {
  it("FAQ 1 says the local mesh is tabs of one browser, in English and in the reader's language", async () => {
    type Faq = { items: { id: string; answer: string }[] };
    const english = await (await call("/api/content/faq")).json<Faq>();
    const first = english.items.find((f) => f.id === "faq-1")?.answer;
    expect(first).toContain("another tab of the same browser on this device");
    expect(first).not.toContain("or device");
    const french = await (await call("/api/content/faq", { headers: { "accept-language": "fr" } })).json<Faq>();
    expect(french.items.find((f) => f.id === "faq-1")?.answer).toContain("un autre onglet du même navigateur");
  });

  it("the market-prices article is labelled an illustrative example and follows the real USSD menu", async () => {
    const { articles } = await (await call("/api/content/blog")).json<{
      articles: { id: string; description: string; content: string }[];
    }>();
    const article = articles.find((a) => a.id === "market-prices-by-text");
    expect(article?.description).toContain("illustrative example");
    expect(article?.content).toContain("not a real user's story");
    expect(article?.content).toContain("the USSD menu's Market prices");
    expect(article?.content).not.toContain("Kano and Ibadan");
  });
});
