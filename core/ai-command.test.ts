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
    ["Help?", { kind: "question", question: "Help?" }],
    ["help me find a doctor", { kind: "question", question: "help me find a doctor" }],
    ["what is the capital of Nigeria?", { kind: "question", question: "what is the capital of Nigeria?" }],
    ["   ", { kind: "empty" }],
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
    ["I want 24/7 support", "24/7 support"],
    ["show me advanced analytics", "advanced analytics"],
    ["what is the weather", null],
  ])("%j -> %j", (input, expected) => {
    expect(findPremiumKeyword(input)).toBe(expected);
  });
});
