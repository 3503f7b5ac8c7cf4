import { afterEach, describe, expect, it, vi } from "vitest";
import { LANGUAGE_CODES } from "../../core/ai-command";
import { matchCommodities } from "./market";
import { classifyOffline, emergencyGuidance, emergencyGuidanceIn, offlineAnswer, offlineProvider, offlineSmartReplies } from "./offline";
import { lookupPhrase, normalizePhrase, PHRASEBOOK } from "./phrasebook";
import { forecast } from "./weather";
import { weatherWords } from "./wording";

describe("phrasebook", () => {
  it("has every phrase in all eight languages (the seven translation languages and Nigerian Pidgin)", () => {
    for (const entry of PHRASEBOOK) for (const code of LANGUAGE_CODES) expect(entry[code]?.trim(), `${entry.en} in ${code}`).toBeTruthy();
  });

  it.each([
    ["good morning", "ha", "Barka da safiya"],
    ["Good Morning!", "yo", "Ẹ káàárọ̀"],
    ["thank you", "ig", "Daalụ"],
    ["how are you", "sw", "Habari yako?"],
    ["help", "fr", "Au secours"],
    ["where is the hospital", "ar", "أين المستشفى؟"],
    ["Ẹ káàárọ̀", "en", "Good morning"],
    ["e kaaro", "ha", "Barka da safiya"],
    ["asante", "en", "Thank you"],
    ["How are you?", "pcm", "How you dey?"],
    ["thank you", "pcm", "Tank you well well"],
    ["abeg help me", "yo", "Ẹ ràn mí lọ́wọ́"],
    ["where hospital dey", "ha", "Ina asibiti yake?"],
  ] as const)("%j to %s is %j", (text, target, expected) => {
    expect(lookupPhrase(text, target)?.translatedText).toBe(expected);
  });

  it("matches without tone marks or punctuation", () => {
    expect(normalizePhrase("Ẹ ṣé!")).toBe("e se");
  });

  it("says offline translation of unknown text needs the online assistant", async () => {
    await expect(offlineProvider().translate("my goats escaped again", "ha")).rejects.toThrow("needs the online assistant");
  });
});

describe("offline answers", () => {
  it("gives first-aid steps in the asker's language, saying they await a native speaker's review", async () => {
    const hausa = await emergencyGuidanceIn("hausa", "jini yana zuba");
    expect(hausa).toContain("Danna rauni da ƙarfi");
    expect(hausa).not.toContain("Press firmly on the wound");
    expect(hausa).toContain("mai jin harshen Hausa na asali");
    const french = await emergencyGuidanceIn("french", "il y a un serpent, morsure");
    expect(french).toContain("Morsure de serpent");
    expect(french).toContain("en attente de relecture par un locuteur natif");
    // English is the checked text itself: no such line.
    expect(await emergencyGuidance("bleeding")).not.toContain("machine-assisted");
  });

  it("gives first aid for the situation, always with 112 and 199", async () => {
    const burn = await emergencyGuidance("my child got a burn from hot oil");
    expect(burn).toContain("Call 112 (or 199)");
    expect(burn).toContain("Cool a burn under clean running water for 20 minutes");
    expect(await emergencyGuidance("")).toContain("Tell me what happened");
  });

  it("answers what it knows and says when a question needs the online assistant", async () => {
    expect(await offlineAnswer("how much is premium?")).toContain("₦2,500 a month");
    expect(await offlineAnswer("who won the match yesterday?")).toContain("needs the online assistant");
  });

  it("suggests replies by what the message says", () => {
    expect(offlineSmartReplies("There is a fire at the market!")).toEqual(["Are you safe?", "I'm on my way", "Call 112 now"]);
    expect(offlineSmartReplies("ok")).toEqual(["Got it", "Thank you", "Okay, talk soon"]);
  });

  it.each([
    ["I want a refund of my subscription payment", "pricing", true],
    ["app crash when I login", "technical", true],
    ["hello", "greeting", true],
    ["asdf", "features", false],
  ] as const)("classifies %j as %s", (message, category, matched) => {
    expect(classifyOffline(message)).toEqual({ category, matched });
  });
});

describe("market query", () => {
  const commodities = ["Beans (brown)", "Maize", "Palm oil", "Rice (foreign)", "Rice (local)", "Tomatoes"];
  it.each([
    ["rice lagos", ["Rice (foreign)", "Rice (local)"], "lagos"],
    ["palm oil Port Harcourt", ["Palm oil"], "Port Harcourt"],
    ["tomato", ["Tomatoes"], ""],
    ["kano", [], "kano"],
    ["beans maize abuja", ["Beans (brown)", "Maize"], "abuja"],
  ])("%j", (query, expected, place) => {
    expect(matchCommodities(query, commodities)).toEqual({ commodities: expected, place });
  });
});

describe("weather when online (Open-Meteo faked at fetch)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("geocodes the place and reports today's range and rain chance", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      if (url.includes("geocoding"))
        return Response.json({ results: [{ name: "Kano", latitude: 12.0, longitude: 8.5, country: "Nigeria" }] });
      return Response.json({
        daily: { time: ["2026-11-23"], temperature_2m_max: [33.4], temperature_2m_min: [19.6], precipitation_probability_max: [10] },
      });
    });
    expect(await forecast("kano", null, 1000)).toBe(
      "🌤️ Weather for Kano today (2026-11-23): 20-33°C, 10% chance of rain. Forecast by Open-Meteo.",
    );
    expect(urls[1]).toContain("latitude=12&longitude=8.5");
  });

  it("gives tomorrow's forecast for the asker's own area when no place is named", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      urls.push(url);
      return Response.json({
        daily: {
          time: ["2026-11-23", "2026-11-24"],
          temperature_2m_max: [33.4, 31.2],
          temperature_2m_min: [19.6, 21.4],
          precipitation_probability_max: [10, 60],
        },
      });
    });
    expect(await forecast("", { name: "Ikeja", latitude: 6.6, longitude: 3.35 }, 1000, "tomorrow")).toBe(
      "🌤️ Weather for Ikeja tomorrow (2026-11-24): 21-31°C, 60% chance of rain. Forecast by Open-Meteo.",
    );
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain("forecast_days=2");
  });

  it("words the forecast in the asker's language around the same figures", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({
        daily: {
          time: ["2026-11-23", "2026-11-24"],
          temperature_2m_max: [33.4, 31.2],
          temperature_2m_min: [19.6, 21.4],
          precipitation_probability_max: [10, 60],
        },
      }),
    );
    const ikeja = { name: "Ikeja", latitude: 6.6, longitude: 3.35 };
    expect(await forecast("", ikeja, 1000, "tomorrow", weatherWords("hausa"))).toBe(
      "🌤️ Yanayi a Ikeja gobe (2026-11-24): 21-31°C, yiwuwar ruwan sama 60%. Hasashen Open-Meteo.",
    );
    expect(await forecast("", ikeja, 1000, "today", weatherWords("french"))).toBe(
      "🌤️ Météo à Ikeja aujourd'hui (2026-11-23) : 20-33 °C, 10 % de risque de pluie. Prévisions Open-Meteo.",
    );
  });

  it("says when it cannot find the place", async () => {
    vi.stubGlobal("fetch", async () => Response.json({}));
    expect(await forecast("nowhereville", null, 1000)).toContain("couldn't find a place called nowhereville");
  });
});
