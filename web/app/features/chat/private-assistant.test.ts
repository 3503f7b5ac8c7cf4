import { describe, expect, it } from "vitest";
import { en, type MessageKey } from "../../../../core/i18n/en";
import { onDeviceReplies as repliesIn } from "./on-device-replies";

const onDeviceReplies = (message: string) => repliesIn(message, (key: MessageKey) => en[key] as string);
import { assistantContext } from "./private-assistant";

const lines = [{ text: "one" }, { text: null }, { text: "two" }, { text: "three" }, { text: "four" }, { text: "five" }, { text: "six" }];

describe("what the assistant sees of a chat", () => {
  it("gets no lines of a direct chat or a group as context", () => {
    expect(assistantContext("dm:a:b", lines)).toEqual([]);
    expect(assistantContext("group:g1", lines)).toEqual([]);
  });
  it("gets the last five lines of a public area room", () => {
    expect(assistantContext("nearby:s1v0g", lines)).toEqual(["two", "three", "four", "five", "six"]);
  });
});

describe("on-device smart replies", () => {
  it("answers a greeting, a question and thanks without any request", () => {
    expect(onDeviceReplies("Hello there").map((r) => r.text)).toContain("Hello!");
    expect(onDeviceReplies("Are you coming tonight?").map((r) => r.text)).toEqual(["Yes", "No", "Let me check"]);
    expect(onDeviceReplies("thanks a lot").map((r) => r.text)).toContain("You're welcome");
  });
  it("offers nothing for an empty message and at most three replies otherwise", () => {
    expect(onDeviceReplies("  ")).toEqual([]);
    expect(onDeviceReplies("the bus left").length).toBe(3);
  });
});
