// Reserved and look-alike nicknames (issue 27 finding 10) and the name others see in anonymous mode (finding 9).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  anonymousName,
  cleanNickname,
  EMPTY_NAME_MESSAGE,
  isReservedName,
  nameForOthers,
  nicknameProblem,
  RESERVED_NAME_MESSAGE,
} from "./names";
import { NicknameSchema } from "./schemas";

const RESERVED = ["LinkUp Support", "LIA", "System", "SOS Alert 🚨", "Admin", "Moderator", "LinkUp"];

/** The same name as a person could dress it up: case, spaces, punctuation, emoji, invisible characters. */
const dressed = (name: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }),
      fc.constantFrom("", " ", "  ", ".", "_", "-", "\u200B", "\u200D", "\u2060", "\u202E", "\u00AD"),
      fc.constantFrom("", "🚨", "✅", "⭐", "!", " 🛡️", "™", "®"),
      fc.constantFrom("", "🚨", "✅", "Official ", "The ", "*"),
    )
    .map(([upper, gap, tail, head]) => {
      const letters = [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase()));
      return `${head}${letters.join(gap)}${tail}`;
    });

describe("reserved nicknames", () => {
  it.each(RESERVED)("refuses %s as written", (name) => {
    expect(isReservedName(name)).toBe(true);
    expect(nicknameProblem(cleanNickname(name))).toBe(RESERVED_NAME_MESSAGE);
  });

  it("refuses every reserved name however it is cased, spaced, punctuated or decorated", () => {
    fc.assert(
      fc.property(fc.constantFrom(...RESERVED).chain(dressed), (name) => {
        expect(isReservedName(name), JSON.stringify(name)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ["Cyrillic а, о, е", "LinkUp Suppоrt"],
    ["Cyrillic І and а", "LІА"],
    ["Cyrillic е and у", "Sуstеm"],
    ["Greek ο", "Mοderatοr"],
    ["digits for letters", "L1nkUp"],
    ["digits for letters", "4dm1n"],
    ["signs for letters", "@dmin"],
    ["zero-width space", "Link\u200BUp"],
    ["full-width letters", "ＬｉｎｋＵｐ"],
    ["mathematical bold", "𝐀𝐝𝐦𝐢𝐧"],
    ["circled letters", "Ⓐⓓⓜⓘⓝ"],
    ["accents", "Àdmîn"],
    ["rn for m", "Adrnin"],
    ["l for I", "LlA"],
    ["a title around it", "Admin Team"],
    ["a number after it", "Admin 2"],
    ["the brand inside", "Official LinkUp Help"],
    ["a generated anonymous name", "Anonymous 7KQ2"],
    ["the alert alone", "🚨 SOS 🚨"],
  ])("refuses a look-alike (%s): %s", (_, name) => {
    expect(isReservedName(name)).toBe(true);
  });

  it.each([
    "Adébáyọ̀",
    "Ngozi",
    "Chukwuemeka O.",
    "Calm Baobab 4821",
    "Amelia",
    "Julia",
    "Modupe",
    "Badminton Queen",
    "Fatima Bello",
    "Oluwaseun 🇳🇬",
    "Ifeoma Nwachukwu-Okafor",
    "Aisha",
    "Mallam Sani",
    "عائشة",
    "User 4567",
  ])("accepts an ordinary name: %s", (name) => {
    expect(isReservedName(name)).toBe(false);
    expect(nicknameProblem(cleanNickname(name))).toBeNull();
  });

  it("keeps accents and scripts as typed (composed), dropping only invisible controls", () => {
    expect(cleanNickname("Ade\u0301ba\u0301yo\u0323\u0300")).toBe("Adébáyọ̀".normalize("NFC"));
    expect(cleanNickname("  Ngozi\u200B \u202E ")).toBe("Ngozi");
    expect(NicknameSchema.parse("  Chukwuemeka   O.  ")).toBe("Chukwuemeka O.");
  });

  it("refuses a name that is only invisible characters or signs", () => {
    for (const name of ["\u200B\u200B", "...", " - "]) expect(nicknameProblem(cleanNickname(name))).toBe(EMPTY_NAME_MESSAGE);
    const parsed = NicknameSchema.safeParse("LIA");
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ message: RESERVED_NAME_MESSAGE, params: { code: "reserved_name" } });
  });
});

describe("the name others see", () => {
  const ada = { id: "u-ada", nickname: "Ada", anonymousMode: false };
  const hidden = { ...ada, anonymousMode: true };

  it("is the nickname unless anonymous mode is on", () => {
    for (const room of [undefined, "nearby:s1v0g", "dm:a:b", "group:x"]) expect(nameForOthers(ada, room)).toBe("Ada");
  });

  it("in anonymous mode is the generated name everywhere but the groups the person joined", () => {
    for (const room of [undefined, "nearby:s1v0g", "dm:a:u-ada"]) expect(nameForOthers(hidden, room)).toBe(anonymousName("u-ada"));
    expect(nameForOthers(hidden, "group:x")).toBe("Ada");
    expect(anonymousName("u-ada")).toMatch(/^Anonymous [0-9A-Z]{1,4}$/);
  });

  it("never shows a reserved nickname taken before the rule, in any room", () => {
    const old = { id: "u-old", nickname: "LinkUp Support", anonymousMode: false };
    for (const room of [undefined, "nearby:s1v0g", "dm:a:u-old", "group:x"]) expect(nameForOthers(old, room)).toBe(anonymousName("u-old"));
  });
});
