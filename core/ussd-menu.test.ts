import { describe, expect, it } from "vitest";
import {
  answerScreen,
  COMMODITIES_PER_PAGE,
  marketScreen,
  parseUssd,
  renderScreen,
  type ScreenData,
  sosSentScreen,
  USSD_MAX_CHARS,
  type UssdOutcome,
} from "./ussd-menu";
import { placeFromText } from "./places";
import { CHANNEL_LANGUAGES, CHANNEL_TEXTS, clipGsm, gsmLength, resolveChannelLanguage, toGsm } from "./ussd-texts";

const COMMODITIES = [
  "Beans (brown)",
  "Cassava",
  "Garri (white)",
  "Groundnut",
  "Maize",
  "Onions",
  "Palm oil",
  "Pepper (tatashe)",
  "Rice (foreign)",
  "Rice (local)",
  "Sorghum",
  "Tomatoes",
  "Yam",
];
const data = { commodities: COMMODITIES };
const screenData = (over: Partial<ScreenData> = {}): ScreenData => ({
  commodities: COMMODITIES,
  lastPlace: "Opposite the big mosque, Dawanau Market road, Kano municipal",
  account: { phone: "+2348031234567", tier: "enterprise", verified: false },
  ...over,
});
const en = CHANNEL_TEXTS.english;

function screen(text: string) {
  const outcome = parseUssd(text, data);
  if (outcome.kind !== "screen") throw new Error(`expected a screen for '${text}', got ${JSON.stringify(outcome)}`);
  return outcome;
}
const show = (text: string) => renderScreen(screen(text), en, screenData());

function expectFits(rendered: string) {
  expect(rendered).toMatch(/^(CON|END) /);
  const n = gsmLength(rendered);
  expect(n, `not GSM 7-bit: ${rendered}`).not.toBeNull();
  expect(n, rendered).toBeLessThanOrEqual(USSD_MAX_CHARS);
}

describe("USSD menu paths", () => {
  it("starts at the main menu with the five services and Exit", () => {
    expect(show("")).toBe("CON LinkUp\n1 Send SOS\n2 Ask assistant\n3 Market prices\n4 Translate\n5 My account\n0 Exit");
  });

  it("walks SOS: type, place, confirm, then asks for the broadcast", () => {
    expect(show("1")).toContain("1 Medical\n2 Fire\n3 Security\n4 Accident\n5 Flood\n6 Other\n00 Back");
    expect(show("1*2")).toMatch(/^CON Where are you\?/);
    expect(show("1*2*Ikeja bus stop")).toContain("Send Fire SOS (Ikeja bus stop)?");
    expect(parseUssd("1*2*Ikeja bus stop*1", data)).toEqual({
      kind: "action",
      action: { kind: "sos", emergencyType: "fire", place: "Ikeja bus stop" },
    });
  });

  it("lets SOS skip the place, offering the last known place", () => {
    expect(show("1*1")).toContain("1 Use last place: Opposite the big mosque");
    expect(renderScreen(screen("1*1"), en, screenData({ lastPlace: null }))).toContain("1 Skip");
    expect(show("1*1*1")).toContain("Send Medical SOS (Opposite the big mosque");
    expect(renderScreen(screen("1*1*1"), en, screenData({ lastPlace: null }))).toContain("Send Medical SOS?");
    expect(parseUssd("1*1*1*1", data)).toEqual({ kind: "action", action: { kind: "sos", emergencyType: "medical", place: null } });
  });

  it("asks the assistant with the typed question", () => {
    expect(show("2")).toBe("CON Type your question:\n00 Back");
    expect(parseUssd("2*  how do I treat a burn?  ", data)).toEqual({
      kind: "action",
      action: { kind: "ask", question: "how do I treat a burn?" },
    });
  });

  it("pages through commodities, then asks for a place, then prices", () => {
    const first = show("3");
    expect(first).toContain(`1 ${COMMODITIES[0]}`);
    expect(first).toContain(`${COMMODITIES_PER_PAGE} ${COMMODITIES[COMMODITIES_PER_PAGE - 1]}`);
    expect(first).toContain("9 More");
    const second = show("3*9");
    expect(second).toContain(`1 ${COMMODITIES[COMMODITIES_PER_PAGE]}`);
    expect(second).not.toContain("9 More");
    expect(show("3*9*3")).toContain("Rice (local): type town or market, or 1 for all places.");
    expect(parseUssd("3*9*3*Kano", data)).toEqual({ kind: "action", action: { kind: "market", commodity: "Rice (local)", place: "Kano" } });
    expect(parseUssd("3*2*1", data)).toEqual({ kind: "action", action: { kind: "market", commodity: "Cassava", place: null } });
  });

  it("translates typed text into one of the eight languages, Nigerian Pidgin among them", () => {
    expect(show("4")).toBe("CON Type the text to translate:\n00 Back");
    expect(show("4*good morning")).toBe(
      "CON Translate to:\n1 English\n2 Hausa\n3 Igbo\n4 Yoruba\n5 Swahili\n6 French\n7 Arabic\n8 Nigerian Pidgin\n00 Back",
    );
    expect(parseUssd("4*good morning*8", data)).toEqual({
      kind: "action",
      action: { kind: "translate", text: "good morning", target: "pcm" },
    });
    expect(parseUssd("4*good morning*2", data)).toEqual({
      kind: "action",
      action: { kind: "translate", text: "good morning", target: "ha" },
    });
  });

  it("shows the account with tier and verification, verifies a code and saves a language", () => {
    expect(show("5")).toBe(
      "CON My account\nPhone: +2348031234567\nTier: Enterprise\nNot verified for web\n1 Confirm phone with code\n2 Language\n00 Back",
    );
    expect(renderScreen(screen("5"), en, screenData({ account: { phone: "+234803", tier: "free", verified: true } }))).toContain(
      "Tier: Free\nVerified for web",
    );
    expect(show("5*1")).toMatch(/6-digit code/);
    expect(parseUssd("5*1*123456", data)).toEqual({ kind: "action", action: { kind: "verify", code: "123456" } });
    expect(show("5*2")).toContain("1 English\n2 Hausa\n3 Yoruba\n4 Igbo\n5 Pidgin");
    const saved = screen("5*2*2");
    expect(saved).toMatchObject({ setLanguage: "hausa", state: { node: "main" } });
    expect(renderScreen(saved, CHANNEL_TEXTS.hausa, screenData())).toMatch(/^CON An ajiye harshe\. LinkUp\n1 Aika SOS/);
    // Carrying on after the save replays without saving again.
    expect(screen("5*2*2*1")).toMatchObject({ state: { node: "sosType" }, setLanguage: undefined });
  });

  it("exits with 0", () => {
    expect(parseUssd("0", data)).toEqual({ kind: "action", action: { kind: "exit" } });
  });

  it("goes back with 00, screen by screen", () => {
    expect(screen("1*00").state.node).toBe("main");
    expect(screen("1*3*00").state.node).toBe("sosType");
    expect(screen("1*3*Yaba*00").state).toMatchObject({ node: "sosPlace", emergencyType: "security" });
    expect(screen("3*9*00").state).toMatchObject({ node: "marketCommodity", page: 0 });
    expect(screen("1*00*2").state.node).toBe("ask");
    expect(screen("5*1*00*00").state.node).toBe("main");
  });

  it("trims answers", () => {
    expect(parseUssd(" 1 * 2 *  Ikeja *  1 ", data)).toEqual({
      kind: "action",
      action: { kind: "sos", emergencyType: "fire", place: "Ikeja" },
    });
  });
});

describe("USSD invalid and empty answers repeat the screen with a short error", () => {
  const cases: [string, string][] = [
    ["7", "main"],
    ["abc", "main"],
    ["00", "main"],
    ["1*9", "sosType"],
    ["1*0", "sosType"],
    ["1*help", "sosType"],
    ["1*2*5", "sosPlace"],
    ["1*2*Ikeja*2", "sosConfirm"],
    ["1*2*Ikeja*yes", "sosConfirm"],
    ["3*0", "marketCommodity"],
    ["3*8*rice*lots", "reportUnit"],
    ["3*8*rice*50kg*cheap", "reportPrice"],
    ["3*8*rice*50kg*78000*12", "reportMarket"],
    ["3*8*rice*50kg*78000*Mile 12*2", "reportConfirm"],
    ["3*9*9", "marketCommodity"],
    ["3*9*7", "marketCommodity"],
    ["3*1*4", "marketPlace"],
    ["4*hello*9", "translateLang"],
    ["4*hello*0", "translateLang"],
    ["5*3", "account"],
    ["5*1*12345", "verify"],
    ["5*1*abcdef", "verify"],
    ["5*1*1234567", "verify"],
    ["5*2*6", "language"],
  ];
  it.each(cases)("'%s' stays on %s with 'Invalid choice'", (text, node) => {
    const outcome = screen(text);
    expect(outcome.state.node).toBe(node);
    expect(outcome.error).toBe("invalid");
    expect(renderScreen(outcome, en, screenData())).toMatch(/^CON Invalid choice, try again\. /);
  });

  it.each(["1*", "2*", "3*", "4*", "4*hi*", "5*", "5*1*", "1*1*", "1*1*1*", "3*1*", "5*2*", "*"])(
    "empty answer '%s' asks for an answer on the same screen",
    (text) => {
      const before = screen(text.slice(0, -1));
      const outcome = screen(text);
      expect(outcome.state).toEqual(before.state);
      expect(outcome.error).toBe("empty");
      expect(renderScreen(outcome, en, screenData())).toMatch(/^CON Please type an answer\. /);
    },
  );

  it("forgets an error once a later answer is valid", () => {
    const outcome = screen("9*1");
    expect(outcome).toMatchObject({ state: { node: "sosType" }, error: undefined });
  });
});

// Every distinct screen (and action) reachable with what callers type: a walk over states, not paths.
function walkAll(): { text: string; outcome: UssdOutcome }[] {
  const answers = ["", "00", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "99", "x", "123456", "Ikeja market road", "50kg"];
  const found: { text: string; outcome: UssdOutcome }[] = [{ text: "", outcome: parseUssd("", data) }];
  const seen = new Set([JSON.stringify(found[0].outcome)]);
  let frontier = [""];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const text of frontier) {
      for (const a of answers) {
        const t = text === "" ? a : `${text}*${a}`;
        if (t === "") continue;
        const outcome = parseUssd(t, data);
        const key = JSON.stringify(outcome);
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ text: t, outcome });
        if (outcome.kind === "screen") next.push(t);
      }
    }
    frontier = next;
  }
  return found;
}

describe("every USSD screen fits 182 GSM 7-bit characters", () => {
  const walked = walkAll();

  it("reaches every screen of every menu", () => {
    const nodes = new Set(walked.flatMap((w) => (w.outcome.kind === "screen" ? [w.outcome.state.node] : [])));
    expect([...nodes].sort()).toEqual(
      [
        "main",
        "sosType",
        "sosPlace",
        "sosConfirm",
        "ask",
        "marketCommodity",
        "marketPlace",
        "reportItem",
        "reportUnit",
        "reportPrice",
        "reportMarket",
        "reportConfirm",
        "translateText",
        "translateLang",
        "account",
        "verify",
        "language",
      ].sort(),
    );
    const actions = new Set(walked.flatMap((w) => (w.outcome.kind === "action" ? [w.outcome.action.kind] : [])));
    expect([...actions].sort()).toEqual(["ask", "exit", "market", "report", "sos", "translate", "verify"]);
  });

  it.each(CHANNEL_LANGUAGES)("in %s, with errors, notices and the longest data", (lang) => {
    const t = CHANNEL_TEXTS[lang];
    const longCommodities = COMMODITIES.map((c) => `${c} extra long commodity name`);
    for (const { outcome } of walked) {
      if (outcome.kind !== "screen") continue;
      for (const variant of [outcome, { ...outcome, error: "invalid" as const }, { ...outcome, error: "empty" as const }]) {
        expectFits(renderScreen(variant, t, screenData()));
        expectFits(renderScreen(variant, t, screenData({ commodities: longCommodities, lastPlace: "x".repeat(300) })));
        expectFits(renderScreen(variant, t, screenData({ lastPlace: null })));
      }
    }
    expectFits(renderScreen({ kind: "screen", state: { node: "main", page: 0 }, setLanguage: lang }, t, screenData()));
    expectFits(
      renderScreen(
        { kind: "screen", state: { node: "sosConfirm", page: 0, emergencyType: "accident", place: "y".repeat(160) }, error: "invalid" },
        t,
        screenData(),
      ),
    );
  });

  it.each(CHANNEL_LANGUAGES)("and so does every last screen in %s", (lang) => {
    const t = CHANNEL_TEXTS[lang];
    expectFits(sosSentScreen(t, { room: 123456, push: 99999, contacts: 10 }));
    for (const s of [t.goodbye, t.verifyDone, t.sosSentPending, `${t.busy} 112 / 199`]) expectFits(`END ${clipGsm(s, 178)}`);
    const long = "Apply cool running water to the burn for 20 minutes. ".repeat(10);
    expectFits(answerScreen(t, long, false).screen);
    expectFits(answerScreen(t, long, true).screen);
    expectFits(answerScreen(t, "Short answer.", true).screen);
    const rows = Array.from({ length: 8 }, (_, i) => ({
      commodity: "Rice (local)",
      market: `Very Long Market Name Number ${i}`,
      city: "Port Harcourt",
      unit: i % 2 ? "50kg bag" : "100kg bag",
      priceNgn: 1_234_567,
      source: `Lagos State Ministry of Agriculture price desk ${i}`,
      updatedAt: new Date(Date.now() - i * 86_400_000),
    }));
    expectFits(marketScreen(t, "Rice (local)", "Port Harcourt", rows));
    expectFits(marketScreen(t, "Rice (local)", null, rows));
    expectFits(marketScreen(t, "Rice (local) ".repeat(10), "Kano ".repeat(30), []));
  });
});

describe("USSD answers and prices", () => {
  it("says how many were reached and the emergency numbers", () => {
    expect(sosSentScreen(en, { room: 3, push: 5, contacts: 2 })).toBe(
      "END SOS sent. Nearby with LinkUp open or by push alert: 5. Contacts reached: 2. Call 112 or 199 now.",
    );
  });

  it("shows a short answer whole, and a long one cut with the SMS note", () => {
    expect(answerScreen(en, "Drink clean water.", false)).toEqual({ screen: "END Drink clean water.", needsSms: false });
    const long = answerScreen(en, "Word ".repeat(100), false);
    expect(long.needsSms).toBe(true);
    expect(long.screen).toMatch(/\.\. Full answer by SMS\.$/);
    expect(answerScreen(en, "Drink clean water.", true).screen).toBe("END Drink clean water. Full answer by SMS.");
  });

  it("lists prices in naira, whole lines only, with their source and day", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    const seen = new Date("2026-11-20T12:00:00Z");
    const rows = [
      {
        commodity: "Rice (local)",
        market: "Dawanau Market",
        city: "Kano",
        unit: "50kg bag",
        priceNgn: 70200,
        source: "Market survey",
        updatedAt: seen,
      },
      {
        commodity: "Rice (local)",
        market: "Mile 12 Market",
        city: "Lagos",
        unit: "50kg bag",
        priceNgn: 82700,
        source: "Market survey",
        updatedAt: seen,
      },
    ];
    expect(marketScreen(en, "Rice (local)", null, rows, now)).toBe(
      "END Rice (local), 50kg bag:\nKano N70,200\nLagos N82,700\nMarket survey, 2026-11-20",
    );
    const mixed = [rows[0], { ...rows[1], source: "Traders' union", updatedAt: new Date("2026-11-22T12:00:00Z") }];
    expect(marketScreen(en, "Rice (local)", null, mixed, now)).toBe(
      "END Rice (local), 50kg bag:\nKano N70,200 2026-11-20\nLagos N82,700 2026-11-22\nMarket survey/Traders' union",
    );
    expect(marketScreen(en, "Yam", "Jos", [], now)).toBe("END No prices found for Yam in Jos.");
  });

  it("quotes no stale price: it says there is none and how old the last one is", () => {
    const old = { commodity: "Yam", market: "Bodija Market", city: "Ibadan", unit: "tuber", priceNgn: 2500, source: "Market survey" };
    const screen = marketScreen(
      en,
      "Yam",
      "Ibadan",
      [{ ...old, updatedAt: new Date("2026-09-01T12:00:00Z") }],
      new Date("2026-11-23T10:00:00Z"),
    );
    expect(screen).toBe("END No prices found for Yam in Ibadan.\nMarket survey, 2026-09-01");
    expect(screen).not.toContain("2,500");
  });
});

describe("GSM text and places", () => {
  it("turns any text into GSM 7-bit", () => {
    expect(toGsm("🌍 Yorùbá: Ẹ káàárọ̀ — ₦2,500 “ok”")).toBe(' Yoruba: E kaaaro - N2,500 "ok"');
    expect(gsmLength("a{b")).toBe(4);
    expect(gsmLength("ẹ")).toBeNull();
    expect(clipGsm("one two three four five", 12)).toBe("one two..");
  });

  it("understands language names people type", () => {
    expect(resolveChannelLanguage("Naija")).toBe("pidgin");
    expect(resolveChannelLanguage(" HAUSA ")).toBe("hausa");
    expect(resolveChannelLanguage("klingon")).toBeNull();
  });

  it("finds the most specific known place in what a caller types", () => {
    expect(placeFromText("near ikeja under bridge")?.name).toBe("Ikeja");
    expect(placeFromText("Victoria Island, Lagos")?.name).toBe("Victoria Island");
    expect(placeFromText("PORT HARCOURT")?.name).toBe("Port Harcourt");
    expect(placeFromText("my village")).toBeNull();
    expect(placeFromText("Kanopy street")).toBeNull();
  });
});
