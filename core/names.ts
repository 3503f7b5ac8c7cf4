// The names people go by (docs/decisions/049-abuse-bans-claims-and-names.md): which nicknames are refused because
// they pass for LinkUp, its staff, its assistant LIA or its alerts, and the name others see of a person (their
// nickname, or a generated one in anonymous mode). Pure, for the server and the screens alike.
import { roomKind } from "./room-ids";

export const RESERVED_NAME_MESSAGE =
  "This nickname is reserved: names that look like LinkUp, its staff, LIA or its alerts cannot be used. Please choose another.";
export const EMPTY_NAME_MESSAGE = "Please enter a nickname for your profile";

// Letters of other scripts that look like Latin ones, after lower-casing and removing accents (Unicode's
// confusables for the letters a reserved name uses, and the common ones besides).
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: "a",
  б: "b",
  в: "b",
  г: "r",
  д: "d",
  е: "e",
  ё: "e",
  з: "3",
  и: "u",
  к: "k",
  л: "n",
  м: "m",
  н: "h",
  о: "o",
  п: "n",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ь: "b",
  ѕ: "s",
  і: "i",
  ї: "i",
  ј: "j",
  ӏ: "l",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  һ: "h",
  ү: "y",
  // Greek
  α: "a",
  β: "b",
  γ: "y",
  δ: "d",
  ε: "e",
  ζ: "z",
  η: "n",
  ι: "i",
  κ: "k",
  μ: "u",
  ν: "v",
  ο: "o",
  π: "n",
  ρ: "p",
  σ: "o",
  ς: "c",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  // Latin look-alikes NFKC keeps apart
  ı: "i",
  ȷ: "j",
  ł: "l",
  ø: "o",
  ɑ: "a",
  ɡ: "g",
  ɩ: "i",
  ʟ: "l",
  ꞁ: "l",
  ſ: "s",
  đ: "d",
  ħ: "h",
  ŧ: "t",
  // Digits and signs written for letters ("L1nkUp", "@dmin", "$upport")
  "0": "o",
  "1": "l",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g",
  "@": "a",
  $: "s",
  "!": "i",
  "|": "l",
  "€": "e",
};

/**
 * What a name looks like, for comparing only: compatibility forms folded (ｌｉｎｋｕｐ, 𝐋𝐢𝐧𝐤𝐔𝐩), lower case, accents and
 * other marks dropped, look-alike letters and digits made Latin, then only a–z kept (so spaces, punctuation,
 * emoji and zero-width characters fall away), with the shapes that read alike merged: i and l, rn and m, vv and w.
 * `digits: "drop"` drops digits and the signs written for letters instead: "Admin 2" and "Admin!" read "admin".
 */
export function nameSkeleton(name: string, digits: "letters" | "drop" = "letters"): string {
  // Per character, so a sign that compatibility spells out (™ → "TM") is dropped while Ⓐ still reads "A".
  let s = [...name]
    .map((ch) => {
      const k = ch.normalize("NFKC");
      return k.length > 1 && /\p{So}/u.test(ch) ? "" : k;
    })
    .join("")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "");
  if (digits === "drop") s = s.replace(/[\p{Nd}@$!|€]/gu, "");
  s = [...s].map((ch) => CONFUSABLES[ch] ?? ch).join("");
  return s
    .replace(/[^a-z]/g, "")
    .replace(/i/g, "l")
    .replace(/rn/g, "m")
    .replace(/vv/g, "w");
}

const sk = (words: string[]) => new Set(words.map((w) => nameSkeleton(w)));

/** Names that are refused outright, and with any of the AFFIXES around them ("Admin Team", "Official LIA"). */
const RESERVED = sk([
  "LIA",
  "System",
  "Admin",
  "Administrator",
  "Moderator",
  "Mod",
  "Staff",
  "Support",
  "SOS",
  "SOS Alert",
  "Emergency",
  "Emergency Alert",
  "Alert",
  "Help Desk",
  "Customer Support",
  "Customer Service",
  "Customer Care",
  "Official",
  "Security",
  "Root",
  "Bot",
  "Assistant",
  "AI",
  "Verified",
  "Staff Desk",
]);
const AFFIXES = [
  ...sk([
    "the",
    "official",
    "real",
    "team",
    "staff",
    "support",
    "help",
    "desk",
    "service",
    "care",
    "bot",
    "ai",
    "account",
    "alert",
    "alerts",
    "center",
    "centre",
    "hq",
    "nigeria",
    "naija",
  ]),
].sort((a, b) => b.length - a.length);
/** Anywhere in a name: the brand, the staff titles, the SOS alert, the generated anonymous names. */
const CONTAINED = sk(["LinkUp", "Link Up", "Moderator", "Administrator", "SOS Alert"]);

/** True when `skeleton`, with known words peeled off either end, is a reserved name. */
function reservedAfterAffixes(skeleton: string): boolean {
  const seen = new Set<string>();
  const queue = [skeleton];
  while (queue.length) {
    const s = queue.pop() as string;
    if (!s || seen.has(s)) continue;
    seen.add(s);
    if (RESERVED.has(s)) return true;
    for (const a of AFFIXES) {
      if (s.length > a.length && s.startsWith(a)) queue.push(s.slice(a.length));
      if (s.length > a.length && s.endsWith(a)) queue.push(s.slice(0, -a.length));
    }
  }
  return false;
}

/** True when the name passes for LinkUp, its staff, LIA, its alerts or a generated anonymous name. */
export function isReservedName(name: string): boolean {
  for (const skeleton of new Set([nameSkeleton(name), nameSkeleton(name, "drop")])) {
    if (!skeleton) continue;
    if ([...CONTAINED].some((c) => skeleton.includes(c))) return true;
    // "Anonymous 7KQ2" is what anonymous mode shows; a chosen one would pass for someone else's.
    if (skeleton.startsWith(nameSkeleton("Anonymous"))) return true;
    if (reservedAfterAffixes(skeleton)) return true;
  }
  return false;
}

// Invisible characters that only hide or reorder what is shown: zero-width space, word joiner, byte-order mark,
// soft hyphen, and the bidirectional controls that can turn a name around. Joiners that emoji and scripts need
// (U+200C, U+200D) stay.
const INVISIBLE = /[\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** The nickname as it is kept: composed (NFC), without invisible controls, spaces trimmed and runs of them made one. */
export function cleanNickname(name: string): string {
  return name.normalize("NFC").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
}

/** Why a nickname cannot be used (the message the person sees), or null when it can. Give it cleaned. */
export function nicknameProblem(name: string): string | null {
  if (!name || !/[\p{L}\p{N}\p{So}]/u.test(name)) return EMPTY_NAME_MESSAGE;
  return isReservedName(name) ? RESERVED_NAME_MESSAGE : null;
}

/** The generated name anonymous mode shows: made from the user id, so it is stable and a conversation stays readable. */
export function anonymousName(userId: string): string {
  let h = 2166136261;
  for (const ch of userId) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return `Anonymous ${h.toString(36).slice(0, 4).toUpperCase()}`;
}

/**
 * The name others see of a person, in a room or anywhere else (direct chats, calls, SOS alerts, the nearby SOS
 * list, the leaderboard). Anonymous mode shows the generated name everywhere except groups the person joined,
 * whose members they accepted; without a room (`roomId` omitted) it is the name strangers see. A nickname taken
 * before reserved names were refused is not shown either.
 */
export function nameForOthers(user: { id: string; nickname: string; anonymousMode: boolean }, roomId?: string): string {
  if (isReservedName(user.nickname)) return anonymousName(user.id);
  if (!user.anonymousMode) return user.nickname;
  return roomId !== undefined && roomKind(roomId) === "group" ? user.nickname : anonymousName(user.id);
}
