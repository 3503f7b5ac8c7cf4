import { describe, expect, it } from "vitest";
import { extractAiText, findPremiumKeyword, parseAiCommand, resolveLanguage } from "./ai-command";

describe("extractAiText: the '@ai ' prefix with its trailing space", () => {
  it.each([
    ["@ai translate hello to hausa", "translate hello to hausa"],
    ["  @ai   market rice ", "market rice"],
    ["@AI help", "help"],
    ["@ai ", ""],
    ["@ai", null],
    ["@aimee how are you", null],
    ["hello @ai help", null],
    ["", null],
  ])("%j -> %j", (message, expected) => {
    expect(extractAiText(message)).toBe(expected);
  });
});

describe("parseAiCommand", () => {
  it.each([
    ["translate good morning to hausa", { kind: "translate", text: "good morning", target: "ha" }],
    ["Translate Good Morning to HAUSA", { kind: "translate", text: "Good Morning", target: "ha" }],
    ["translate thank you into yo", { kind: "translate", text: "thank you", target: "yo" }],
    ["translate how are you in Swahili.", { kind: "translate", text: "how are you", target: "sw" }],
    ["translate I want to go to school to french", { kind: "translate", text: "I want to go to school", target: "fr" }],
    ['translate "where is the hospital" to arabic', { kind: "translate", text: "where is the hospital", target: "ar" }],
    ["translate hello to klingon", { kind: "translate-usage", reason: "unknown-language", language: "klingon" }],
    ["translate hello", { kind: "translate-usage", reason: "missing-target" }],
    ["translate", { kind: "translate-usage", reason: "missing-text" }],
    ["market", { kind: "market", query: "" }],
    ["market rice lagos", { kind: "market", query: "rice lagos" }],
    ["Market palm oil Port Harcourt?", { kind: "market", query: "palm oil Port Harcourt" }],
    ["prices maize", { kind: "market", query: "maize" }],
    ["weather", { kind: "weather", place: "" }],
    ["weather in Kano", { kind: "weather", place: "Kano" }],
    ["emergency someone fainted", { kind: "emergency", situation: "someone fainted" }],
    ["EMERGENCY", { kind: "emergency", situation: "" }],
    ["sos fire in the market", { kind: "emergency", situation: "fire in the market" }],
    ["help", { kind: "help" }],
    ["Help?", { kind: "help" }],
    ["help me find a doctor", { kind: "question", question: "help me find a doctor" }],
    ["what is the capital of Nigeria?", { kind: "question", question: "what is the capital of Nigeria?" }],
    ["   ", { kind: "empty" }],
  ])("%j", (input, expected) => {
    expect(parseAiCommand(input)).toEqual(expected);
  });
});

// How people really ask (English and Nigerian Pidgin), from the trials and WhatsApp/USSD wording.
describe("parseAiCommand understands natural wording", () => {
  const market = (query: string) => ({ kind: "market", query });
  const weather = (place: string, day?: "tomorrow") => (day ? { kind: "weather", place, day } : { kind: "weather", place });
  const translate = (text: string, target: string) => ({ kind: "translate", text, target });
  const emergency = (situation: string) => ({ kind: "emergency", situation });
  const question = (q: string) => ({ kind: "question", question: q });
  it.each([
    // prices
    ["what is the price of rice", market("rice")],
    ["price of rice", market("rice")],
    ["how much be rice for kano", market("rice kano")],
    ["wetin be price of garri", market("garri")],
    ["how much is rice in lagos", market("rice lagos")],
    ["how much for tomatoes", market("tomatoes")],
    ["rice price", market("rice")],
    ["rice price in kano", market("rice kano")],
    ["market price of palm oil", market("palm oil")],
    ["prices today", market("")],
    ["how much dem dey sell beans for abuja", market("beans abuja")],
    ["wetin be the price of tomato for ibadan market", market("tomato ibadan")],
    ["cost of yam in enugu", market("yam enugu")],
    ["how much is a bag of maize?", market("maize")],
    ["abeg how much be onions for mile 12 market", market("onions mile 12")],
    ["price of pepper for port harcourt", market("pepper port harcourt")],
    // weather
    ["weather for ibadan tomorrow", weather("ibadan", "tomorrow")],
    ["what's the weather in kano", weather("kano")],
    ["will it rain today", weather("")],
    ["will it rain in lagos tomorrow?", weather("lagos", "tomorrow")],
    ["how the weather be for abuja", weather("abuja")],
    ["rain go fall tomorrow?", weather("", "tomorrow")],
    ["forecast for jos", weather("jos")],
    ["weather today", weather("")],
    ["what is the temperature in abuja", weather("abuja")],
    // translation
    ["translate good morning to hausa", translate("good morning", "ha")],
    ["how do I say thank you in yoruba", translate("thank you", "yo")],
    ["how do you say good night in igbo", translate("good night", "ig")],
    ["how to say welcome in arabic", translate("welcome", "ar")],
    ["what is thank you in hausa", translate("thank you", "ha")],
    ["hausa for thank you", translate("thank you", "ha")],
    ["what does sannu mean", translate("sannu", "en")],
    ["meaning of na gode", translate("na gode", "en")],
    ["how dem dey talk thank you for yoruba", translate("thank you", "yo")],
    ["say good morning in swahili", translate("good morning", "sw")],
    ['how do I say "where is the hospital" in french', translate("where is the hospital", "fr")],
    ["wetin be good morning for igbo", translate("good morning", "ig")],
    // first aid and emergencies
    ["my friend dey bleed", emergency("my friend dey bleed")],
    ["someone fainted", emergency("someone fainted")],
    ["my pikin swallow kerosene", emergency("my pikin swallow kerosene")],
    ["fire for our street", emergency("fire for our street")],
    ["there was an accident on the expressway", emergency("there was an accident on the expressway")],
    ["snake bite my brother", emergency("snake bite my brother")],
    ["first aid for burns", emergency("first aid for burns")],
    ["how do I stop bleeding", emergency("how do I stop bleeding")],
    ["person no dey breathe", emergency("person no dey breathe")],
    ["my wife dey born", emergency("my wife dey born")],
    ["help my child is choking", emergency("help my child is choking")],
    ["abeg flood don enter our house", emergency("flood don enter our house")],
    // help
    ["what can you do", { kind: "help" }],
    ["wetin you fit do", { kind: "help" }],
    ["menu", { kind: "help" }],
    ["how do I use you", { kind: "help" }],
    ["abeg help", { kind: "help" }],
    // questions stay questions: LinkUp's own price, how-to, anything else
    ["how much is premium?", question("how much is premium?")],
    ["how do I send an SOS?", question("how do I send an SOS?")],
    ["who won the match yesterday?", question("who won the match yesterday?")],
    ["hello", question("hello")],
    ["what is the dollar rate today", question("what is the dollar rate today")],
  ])("%j", (input, expected) => {
    expect(parseAiCommand(input)).toEqual(expected);
  });
});

describe("resolveLanguage", () => {
  it.each([
    ["Hausa", "ha"],
    ["ha", "ha"],
    ["IGBO", "ig"],
    ["yo", "yo"],
    ["Kiswahili", "sw"],
    ["french", "fr"],
    ["AR", "ar"],
    ["english", "en"],
    ["german", null],
    ["", null],
  ])("%j -> %j", (input, expected) => {
    expect(resolveLanguage(input)).toBe(expected);
  });
});

describe("findPremiumKeyword", () => {
  it.each([
    ["send a Voice Message to mum", "voice message"],
    // Premium sells no round-the-clock support, so asking for it is no reason to offer Premium.
    ["I want 24/7 support", null],
    ["show me advanced analytics", "advanced analytics"],
    ["what is the weather", null],
  ])("%j -> %j", (input, expected) => {
    expect(findPremiumKeyword(input)).toBe(expected);
  });
});
