// The USSD menu as pure functions (docs/architecture.md §7). Africa's Talking sends every answer of the session so far
// joined by '*'; `parseUssd` replays them from the main menu to find where the caller is, and `renderScreen`
// draws that screen. Nothing here touches the database: the Worker runs the action `parseUssd` returns.
//   '00' goes back one screen; answers are trimmed; an invalid or empty answer keeps the caller on the same
//   screen, which is drawn again with a short error when it was the latest answer.
import { LANGUAGE_CODES, LANGUAGES, type LanguageCode } from "./ai-command";
import { isRecentPrice, priceOrigin } from "./admin-schemas";
import { nairaText, type QuotedGroup, quoteText, unitKey } from "./price-reports";
import {
  CHANNEL_LANGUAGE_NAMES,
  CHANNEL_LANGUAGES,
  type ChannelLanguage,
  type ChannelTexts,
  clipGsm,
  EMERGENCY_CHOICES,
  type EmergencyChoice,
  fill,
  gsmLength,
} from "./ussd-texts";

/** A screen, 'CON ' or 'END ' included, is at most this many GSM 7-bit characters. */
export const USSD_MAX_CHARS = 182;
export const BACK = "00";
/** Commodities per page of the market menu; '9' turns the page. */
export const COMMODITIES_PER_PAGE = 7;
export const MORE = "9";
/** On the market menu: report a price instead of asking for one. */
export const REPORT = "8";
/** Free-text answers (question, place, text to translate) are cut to this length. */
export const FREE_TEXT_MAX = 160;

export type UssdNode =
  | "main"
  | "sosType"
  | "sosPlace"
  | "sosConfirm"
  | "ask"
  | "marketCommodity"
  | "marketPlace"
  | "reportItem"
  | "reportUnit"
  | "reportPrice"
  | "reportMarket"
  | "reportConfirm"
  | "translateText"
  | "translateLang"
  | "account"
  | "verify"
  | "language";

export interface UssdState {
  node: UssdNode;
  page: number;
  emergencyType?: EmergencyChoice;
  /** Typed place; null when skipped. */
  place?: string | null;
  commodity?: string;
  text?: string;
  /** A price report being typed, one answer a screen (docs/decisions/068-market-prices-people-report.md). */
  report?: { item?: string; unit?: string; priceNgn?: number; market?: string };
}

export type UssdAction =
  | { kind: "exit" }
  | { kind: "sos"; emergencyType: EmergencyChoice; place: string | null }
  | { kind: "ask"; question: string }
  | { kind: "market"; commodity: string; place: string | null }
  | { kind: "report"; item: string; unit: string; priceNgn: number; market: string }
  | { kind: "translate"; text: string; target: LanguageCode }
  | { kind: "verify"; code: string };

export type UssdOutcome =
  | { kind: "screen"; state: UssdState; error?: "invalid" | "empty"; setLanguage?: ChannelLanguage }
  | { kind: "action"; action: UssdAction };

/** What the menu needs to know that lives in the database. */
export interface MenuData {
  commodities: string[];
}

type Step =
  | { kind: "next"; state: UssdState; setLanguage?: ChannelLanguage }
  | { kind: "action"; action: UssdAction }
  | { kind: "invalid" };

const MAIN: UssdState = { node: "main", page: 0 };

/** Splits Africa's Talking's `text` into trimmed answers ('' is the session's first request). */
export function splitAnswers(text: string): string[] {
  return text === "" ? [] : text.split("*").map((a) => a.trim());
}

/** Replays every answer from the main menu: the screen the caller is on now, or the action to run. */
export function parseUssd(text: string, data: MenuData): UssdOutcome {
  const answers = splitAnswers(text);
  let state = MAIN;
  let stack: UssdState[] = [];
  let error: "invalid" | "empty" | undefined;
  let setLanguage: ChannelLanguage | undefined;
  for (const answer of answers) {
    setLanguage = undefined;
    error = undefined;
    if (answer === BACK && stack.length > 0) {
      state = stack.pop() ?? MAIN;
      continue;
    }
    if (answer === "") {
      error = "empty";
      continue;
    }
    const step = next(state, answer, data);
    if (step.kind === "action") return step;
    if (step.kind === "invalid") {
      error = "invalid";
      continue;
    }
    if (step.setLanguage) {
      // A saved language starts over at the main menu, now in that language.
      stack = [];
      setLanguage = step.setLanguage;
    } else {
      stack.push(state);
    }
    state = step.state;
  }
  return { kind: "screen", state, error, setLanguage };
}

function pick(answer: string, count: number): number | null {
  if (!/^\d{1,2}$/.test(answer)) return null;
  const n = Number(answer);
  return n >= 1 && n <= count ? n : null;
}

function freeText(answer: string): string {
  return answer.replace(/\s+/g, " ").slice(0, FREE_TEXT_MAX);
}

const onlyDigits = (answer: string) => /^\d+$/.test(answer);

function next(state: UssdState, answer: string, data: MenuData): Step {
  const go = (patch: Partial<UssdState> & { node: UssdNode }): Step => ({ kind: "next", state: { ...state, page: 0, ...patch } });
  switch (state.node) {
    case "main": {
      const routes: Record<string, UssdNode> = { "1": "sosType", "2": "ask", "3": "marketCommodity", "4": "translateText", "5": "account" };
      if (answer === "0") return { kind: "action", action: { kind: "exit" } };
      return routes[answer] ? { kind: "next", state: { node: routes[answer], page: 0 } } : { kind: "invalid" };
    }
    case "sosType": {
      const n = pick(answer, EMERGENCY_CHOICES.length);
      return n ? go({ node: "sosPlace", emergencyType: EMERGENCY_CHOICES[n - 1] }) : { kind: "invalid" };
    }
    case "sosPlace":
      if (answer === "1") return go({ node: "sosConfirm", place: null });
      if (onlyDigits(answer)) return { kind: "invalid" };
      return go({ node: "sosConfirm", place: freeText(answer) });
    case "sosConfirm":
      if (answer !== "1" || !state.emergencyType) return { kind: "invalid" };
      return { kind: "action", action: { kind: "sos", emergencyType: state.emergencyType, place: state.place ?? null } };
    case "ask":
      return { kind: "action", action: { kind: "ask", question: freeText(answer) } };
    case "marketCommodity": {
      const pageItems = data.commodities.slice(state.page * COMMODITIES_PER_PAGE, (state.page + 1) * COMMODITIES_PER_PAGE);
      const hasMore = (state.page + 1) * COMMODITIES_PER_PAGE < data.commodities.length;
      if (answer === MORE && hasMore) return go({ node: "marketCommodity", page: state.page + 1 });
      if (answer === REPORT) return go({ node: "reportItem", report: {} });
      const n = pick(answer, pageItems.length);
      return n ? go({ node: "marketPlace", commodity: pageItems[n - 1] }) : { kind: "invalid" };
    }
    case "marketPlace":
      if (!state.commodity) return { kind: "invalid" };
      if (answer === "1") return { kind: "action", action: { kind: "market", commodity: state.commodity, place: null } };
      if (onlyDigits(answer)) return { kind: "invalid" };
      return { kind: "action", action: { kind: "market", commodity: state.commodity, place: freeText(answer) } };
    case "reportItem": {
      const item = freeText(answer);
      if (onlyDigits(answer) || item.length < 2 || item.length > 40) return { kind: "invalid" };
      return go({ node: "reportUnit", report: { item } });
    }
    case "reportUnit": {
      const unit = unitKey(answer);
      return unit ? go({ node: "reportPrice", report: { ...state.report, unit } }) : { kind: "invalid" };
    }
    case "reportPrice": {
      const n = /^\d{1,3}(,\d{3})*$|^\d{1,9}$/.test(answer) ? Number(answer.replace(/,/g, "")) : 0;
      return n >= 1 && n <= 100_000_000 ? go({ node: "reportMarket", report: { ...state.report, priceNgn: n } }) : { kind: "invalid" };
    }
    case "reportMarket": {
      const market = freeText(answer);
      if (onlyDigits(answer) || market.length < 2 || market.length > 60) return { kind: "invalid" };
      return go({ node: "reportConfirm", report: { ...state.report, market } });
    }
    case "reportConfirm": {
      const r = state.report;
      if (answer !== "1" || !r?.item || !r.unit || !r.priceNgn || !r.market) return { kind: "invalid" };
      return { kind: "action", action: { kind: "report", item: r.item, unit: r.unit, priceNgn: r.priceNgn, market: r.market } };
    }
    case "translateText":
      return go({ node: "translateLang", text: freeText(answer) });
    case "translateLang": {
      const n = pick(answer, LANGUAGE_CODES.length);
      if (!n || !state.text) return { kind: "invalid" };
      return { kind: "action", action: { kind: "translate", text: state.text, target: LANGUAGE_CODES[n - 1] } };
    }
    case "account":
      if (answer === "1") return go({ node: "verify" });
      if (answer === "2") return go({ node: "language" });
      return { kind: "invalid" };
    case "verify":
      return /^\d{6}$/.test(answer) ? { kind: "action", action: { kind: "verify", code: answer } } : { kind: "invalid" };
    case "language": {
      const n = pick(answer, CHANNEL_LANGUAGES.length);
      return n ? { kind: "next", state: MAIN, setLanguage: CHANNEL_LANGUAGES[n - 1] } : { kind: "invalid" };
    }
  }
}

/** What a screen shows that comes from the caller's records. */
export interface ScreenData extends MenuData {
  lastPlace: string | null;
  account: { phone: string; tier: "free" | "premium" | "enterprise"; verified: boolean };
}

/** 'CON …': lines joined, the whole screen cut to the USSD limit. */
export function con(lines: string[]): string {
  return `CON ${fitLines(lines, USSD_MAX_CHARS - 4)}`;
}

/** 'END …': the session's last screen. */
export function end(text: string): string {
  return `END ${clipGsm(text.trim(), USSD_MAX_CHARS - 4).trim()}`;
}

// Drops characters from the first (free) line until the screen fits, so numbered choices are never cut.
function fitLines(lines: string[], max: number): string {
  const joined = lines.join("\n");
  if ((gsmLength(joined) ?? Number.POSITIVE_INFINITY) <= max) return joined;
  const rest = lines.slice(1).join("\n");
  const room = max - (gsmLength(rest) ?? rest.length) - 1;
  if (room < 8) return clipGsm(joined, max);
  return `${clipGsm(lines[0], room)}\n${rest}`;
}

const numbered = (items: string[]) => items.map((item, i) => `${i + 1} ${item}`);

/** Draws the screen a caller is on, in their language, with the error or notice of their latest answer. */
export function renderScreen(outcome: Extract<UssdOutcome, { kind: "screen" }>, t: ChannelTexts, data: ScreenData): string {
  const { state } = outcome;
  const notice = outcome.setLanguage
    ? t.languageSaved
    : outcome.error === "invalid"
      ? t.invalid
      : outcome.error === "empty"
        ? t.empty
        : null;
  const back = `${BACK} ${t.back}`;
  const body = screenLines(state, t, data, back);
  return con(notice ? [`${notice} ${body[0]}`, ...body.slice(1)] : body);
}

function screenLines(state: UssdState, t: ChannelTexts, data: ScreenData, back: string): string[] {
  switch (state.node) {
    case "main":
      return ["LinkUp", ...numbered([t.menu.sos, t.menu.ask, t.menu.market, t.menu.translate, t.menu.account]), `0 ${t.menu.exit}`];
    case "sosType":
      return [t.sosTypePrompt, ...numbered(EMERGENCY_CHOICES.map((c) => t.types[c])), back];
    case "sosPlace":
      return [t.sosPlacePrompt, `1 ${data.lastPlace ? fill(t.lastPlace, { place: clipGsm(data.lastPlace, 30) }) : t.skip}`, back];
    case "sosConfirm": {
      const place = state.place ?? data.lastPlace;
      const type = state.emergencyType ? t.types[state.emergencyType] : t.types.other;
      return [fill(t.sosConfirm, { type, place: place ? ` (${clipGsm(place, 40)})` : "" }), `1 ${t.sendNow}`, back];
    }
    case "ask":
      return [t.askPrompt, back];
    case "marketCommodity": {
      const start = state.page * COMMODITIES_PER_PAGE;
      const items = data.commodities.slice(start, start + COMMODITIES_PER_PAGE).map((c) => clipGsm(c, 18));
      const more = start + COMMODITIES_PER_PAGE < data.commodities.length ? [`${MORE} ${t.more}`] : [];
      return [t.marketPick, ...numbered(items), `${REPORT} ${t.reportOption}`, ...more, back];
    }
    case "reportItem":
      return [t.reportItemPrompt, back];
    case "reportUnit":
      return [t.reportUnitPrompt, back];
    case "reportPrice":
      return [t.reportPricePrompt, back];
    case "reportMarket":
      return [t.reportMarketPrompt, back];
    case "reportConfirm": {
      const r = state.report ?? {};
      const price = nairaText(r.priceNgn ?? 0, "N");
      return [
        fill(t.reportConfirm, { item: clipGsm(r.item ?? "", 30), unit: r.unit ?? "", price, market: clipGsm(r.market ?? "", 40) }),
        `1 ${t.sendNow}`,
        back,
      ];
    }
    case "marketPlace":
      return [fill(t.marketPlacePrompt, { c: clipGsm(state.commodity ?? "", 24) }), back];
    case "translateText":
      return [t.translateTextPrompt, back];
    case "translateLang":
      return [t.translateLangPrompt, ...numbered(LANGUAGE_CODES.map((c) => LANGUAGES[c])), back];
    case "account": {
      const a = data.account;
      return [
        t.account,
        `${t.phone}: ${a.phone}`,
        `${t.tier}: ${t.tiers[a.tier]}`,
        a.verified ? t.verified : t.notVerified,
        `1 ${t.verifyOption}`,
        `2 ${t.languageOption}`,
        back,
      ];
    }
    case "verify":
      return [t.verifyPrompt, back];
    case "language":
      return [t.languagePrompt, ...numbered(CHANNEL_LANGUAGES.map((l) => CHANNEL_LANGUAGE_NAMES[l])), back];
  }
}

/** The SOS result screen: how many were reached and the emergency numbers. */
export function sosSentScreen(t: ChannelTexts, reached: { room: number; push: number; contacts: number }): string {
  return end(fill(t.sosSent, { people: Math.max(reached.room, reached.push), contacts: reached.contacts }));
}

/** An answer that may be longer than a screen: the start on screen, and whether the rest must go by SMS. */
export function answerScreen(t: ChannelTexts, answer: string, smsWillFollow: boolean): { screen: string; needsSms: boolean } {
  const max = USSD_MAX_CHARS - 4;
  const whole = clipGsm(answer, 10_000).trim();
  const fits = (gsmLength(whole) ?? Number.POSITIVE_INFINITY) <= max;
  if (fits && !smsWillFollow) return { screen: end(whole), needsSms: false };
  const note = ` ${t.smsFollows}`;
  const room = max - (gsmLength(note) ?? note.length);
  return { screen: `END ${fits && (gsmLength(whole + note) ?? 999) <= max ? whole : clipGsm(whole, room)}${note}`, needsSms: !fits };
}

export interface PriceRow {
  commodity: string;
  market: string;
  city: string;
  unit: string;
  priceNgn: number;
  source: string;
  updatedAt: Date;
}

/**
 * The prices screen: one line per market, the unit once when all share it, and the source and day last (once
 * when all share them, the day on each line otherwise). Stale prices are not quoted (docs/decisions/026-market-prices.md).
 */
export function marketScreen(t: ChannelTexts, commodity: string, place: string | null, all: PriceRow[], now = new Date()): string {
  const none = fill(t.marketNone, { c: commodity, p: place ?? "Nigeria" });
  const rows = all.filter((r) => isRecentPrice(r, now));
  if (rows.length === 0) {
    if (all.length === 0) return end(none);
    const last = all.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
    return end(`${clipGsm(none, 100)}\n${clipGsm(priceOrigin(last), 60)}`);
  }
  const units = new Set(rows.map((r) => r.unit));
  const sameUnit = units.size === 1;
  const head = sameUnit ? `${commodity}, ${rows[0].unit}:` : `${commodity}:`;
  const naira = (n: number) => `N${n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
  const day = (r: PriceRow) => r.updatedAt.toISOString().slice(0, 10);
  const oneOrigin = new Set(rows.map(priceOrigin)).size === 1;
  const lines = rows.map(
    (r) => `${place ? r.market : r.city} ${naira(r.priceNgn)}${sameUnit ? "" : `/${r.unit}`}${oneOrigin ? "" : ` ${day(r)}`}`,
  );
  const footer = clipGsm(oneOrigin ? priceOrigin(rows[0]) : [...new Set(rows.map((r) => r.source))].join("/"), 60);
  // Whole lines only: a price cut in half would be a wrong price.
  const max = USSD_MAX_CHARS - 4 - (gsmLength(`\n${footer}`) ?? footer.length + 1);
  let text = clipGsm(head, 60);
  for (const line of lines) {
    const candidate = `${text}\n${clipGsm(line, 60)}`;
    if ((gsmLength(candidate) ?? Number.POSITIVE_INFINITY) > max) break;
    text = candidate;
  }
  return `END ${text}\n${footer}`;
}

const SOS_NODES: readonly UssdNode[] = ["sosType", "sosPlace", "sosConfirm"];

/**
 * What a suspended phone sees instead of `outcome`, or null to let it through: the main menu offers only SOS,
 * the SOS screens and the SOS itself stay open (an emergency is never refused, docs/decisions/025-bans.md),
 * anything else ends with the suspension text.
 */
export function suspendedScreen(outcome: UssdOutcome, t: ChannelTexts): string | null {
  if (outcome.kind === "action") return outcome.action.kind === "sos" || outcome.action.kind === "exit" ? null : end(t.suspended);
  if (outcome.state.node === "main") return con([t.suspendedMenu, `1 ${t.menu.sos}`, `0 ${t.menu.exit}`]);
  return SOS_NODES.includes(outcome.state.node) ? null : end(t.suspended);
}

/**
 * The reported prices of one item: a line per market (the median, its count and days), whole lines only, within
 * one screen (docs/decisions/068-market-prices-people-report.md).
 */
export function reportedScreen(t: ChannelTexts, quotes: QuotedGroup[]): string {
  let text = "";
  for (const g of quotes) {
    const line = clipGsm(quoteText(t, g, "N", "-"), 120);
    const candidate = text ? `${text}\n${line}` : line;
    if ((gsmLength(candidate) ?? Number.POSITIVE_INFINITY) > USSD_MAX_CHARS - 4) break;
    text = candidate;
  }
  return end(text);
}
