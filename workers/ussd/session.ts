// One USSD request: find the caller's screen from the pure menu (core/ussd-menu.ts), run the action the last
// answer asked for through the same modules as the web (sos, assistant, identity, market prices), and answer
// within well under a second. Anything slow (the online assistant, SMS) goes to waitUntil.
import { LANGUAGES } from "../../core/ai-command";
import type { Tier } from "../../core/constants";
import {
  answerScreen,
  end,
  marketScreen,
  parseUssd,
  reportedScreen,
  renderScreen,
  sosSentScreen,
  splitAnswers,
  suspendedScreen,
  type UssdAction,
} from "../../core/ussd-menu";
import type { UssdRequest } from "../../core/ussd-schemas";
import { CHANNEL_TEXTS, type ChannelTexts, channelTexts, fill, sosRefusalText } from "../../core/ussd-texts";
import { itemKey, quoteText } from "../../core/price-reports";
import { quoteReports, recentItems, reportPrice } from "../prices";
import type { Db } from "../../db";
import { findMarketPrices, listCommodities } from "../../db/queries/content";
import { countTrouble } from "../analytics";
import { runAiCommand } from "../assistant";
import {
  getPhoneChannel,
  lastPlaceLabel,
  type PhoneChannel,
  phoneSuspended,
  setChannelLanguage,
  setChannelLocation,
  userForPhone,
} from "../channels";
import { type AppEnv, isDevelopment, servicesStatus } from "../env";
import { DomainError } from "../../core/domain-error";
import { confirmPhoneChannel } from "../identity/verification";
import { sendMessage } from "../services/messaging";
import { broadcastSos } from "../sos";

type WaitUntil = (p: Promise<unknown>) => void;

/**
 * How long the SOS screen waits for the reach counts. Past it the screen says the SOS is on its way, the
 * broadcast finishes in waitUntil and the counts follow by SMS: slow channels never hold the screen.
 */
export const SOS_SCREEN_BUDGET_MS = 800;
/** What an SOS from a basic phone says in the area room (the caller types no message on USSD). */
export const USSD_SOS_MESSAGE = "Help needed now (sent by USSD from a basic phone)";

export async function answerUssd(env: AppEnv, db: Db, input: UssdRequest, phone: string, waitUntil: WaitUntil): Promise<string> {
  // The market menu is the only one that needs the commodity list; other sessions skip the query.
  const commodities = splitAnswers(input.text).includes("3") ? await marketItems(env, db) : [];
  const outcome = parseUssd(input.text, { commodities });
  const channel = await getPhoneChannel(db, phone);
  let t = channelTexts(channel.language);
  // A suspended phone keeps SOS and nothing else (docs/decisions/025-bans.md).
  if (await phoneSuspended(db, phone)) {
    const refusal = suspendedScreen(outcome, t);
    if (refusal) return refusal;
  }

  if (outcome.kind === "screen") {
    if (outcome.setLanguage) {
      await setChannelLanguage(db, phone, outcome.setLanguage);
      t = CHANNEL_TEXTS[outcome.setLanguage];
    }
    let account: { phone: string; tier: Tier; verified: boolean } = { phone, tier: "free", verified: false };
    if (outcome.state.node === "account") {
      const user = await userForPhone(db, phone);
      account = { phone, tier: user.subscriptionTier, verified: user.authMode === "verified" };
    }
    return renderScreen(outcome, t, { commodities, lastPlace: lastPlaceLabel(channel), account });
  }
  return runAction(env, db, { action: outcome.action, input, phone, channel, t, waitUntil });
}

interface ActionContext {
  action: UssdAction;
  input: UssdRequest;
  phone: string;
  channel: PhoneChannel;
  t: ChannelTexts;
  waitUntil: WaitUntil;
}

async function runAction(env: AppEnv, db: Db, ctx: ActionContext): Promise<string> {
  const { action, phone, t } = ctx;
  switch (action.kind) {
    case "exit":
      return end(t.goodbye);
    case "sos":
      return sendSos(env, db, ctx, action);
    case "ask":
      return assistantAnswer(env, db, ctx, action.question);
    case "translate":
      return assistantAnswer(env, db, ctx, `translate ${action.text} to ${LANGUAGES[action.target]}`);
    case "report":
      return reportByUssd(db, ctx, action);
    case "market": {
      // Prices people reported first: the median of the last 14 days (docs/decisions/068-market-prices-people-report.md).
      const reported = await quoteReports(db, { itemNamed: action.commodity, place: action.place ?? undefined });
      if (reported.length) return reportedScreen(t, reported);
      const rows = await findMarketPrices(db, {
        commodity: action.commodity,
        place: action.place ?? undefined,
        limit: 8,
        examples: isDevelopment(env),
      });
      return marketScreen(t, action.commodity, action.place, rows);
    }
    case "verify": {
      // Links this phone's USSD channel only, never a web session (docs/decisions/011-a-code-proves-the-browser-that-typed-it.md).
      const result = await confirmPhoneChannel(env, db, { phone, code: action.code, channel: "ussd", waitUntil: ctx.waitUntil });
      if (result.ok) return end(t.verifyDone);
      return end(result.error);
    }
  }
}

/** The market menu's items: staff figures (and development's examples), then items people reported lately. */
async function marketItems(env: AppEnv, db: Db): Promise<string[]> {
  const [listed, reported] = await Promise.all([listCommodities(db, { examples: isDevelopment(env) }), recentItems(db)]);
  const keys = new Set(listed.map(itemKey));
  return [...listed, ...reported.filter((r) => !keys.has(r.itemKey)).map((r) => r.item)];
}

/** A price typed on the menu, reported by the calling phone through the same module as the web's. */
async function reportByUssd(db: Db, ctx: ActionContext, a: Extract<UssdAction, { kind: "report" }>): Promise<string> {
  const { phone, t } = ctx;
  const user = await userForPhone(db, phone);
  try {
    const done = await reportPrice(db, { userId: user.id, channel: "ussd" }, a);
    const sent = fill(t.reportSent, { quote: quoteText(t, done.quote, "N", "-") });
    return end(done.points ? `${sent}. ${fill(t.reportPoints, { points: done.points })}` : sent);
  } catch (e) {
    if (e instanceof DomainError && e.kind === "rate_limited") return end(t.reportTooMany);
    throw e;
  }
}

async function sendSos(env: AppEnv, db: Db, ctx: ActionContext, action: Extract<UssdAction, { kind: "sos" }>): Promise<string> {
  const { phone, channel, t, waitUntil } = ctx;
  const user = await userForPhone(db, phone);
  let location: { latitude: number; longitude: number } | undefined;
  let locationText: string | undefined;
  if (action.place) {
    // The place the caller typed, kept as words: the SOS finds its area room from them (core/places.ts).
    locationText = action.place;
    waitUntil(
      setChannelLocation(db, phone, { latitude: null, longitude: null, locationText }).catch((e) => {
        console.error("ussd: saving place", e);
        return countTrouble(db, "d1_write_failed");
      }),
    );
  } else if (channel.latitude != null && channel.longitude != null) {
    location = { latitude: channel.latitude, longitude: channel.longitude };
    locationText = channel.locationText ?? undefined;
  }
  const sos = broadcastSos(
    env,
    db,
    {
      userId: user.id,
      message: USSD_SOS_MESSAGE,
      emergencyType: action.emergencyType,
      location,
      locationText,
      // One SOS per USSD session, however often the gateway repeats the last request.
      clientRequestId: `ussd-${ctx.input.sessionId}`.slice(0, 64),
      channel: "ussd",
    },
    waitUntil,
  );
  waitUntil(
    sos.catch((e) => {
      if (!(e instanceof DomainError)) console.error("ussd: sos failed", e);
    }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = await Promise.race([sos, new Promise<null>((r) => (timer = setTimeout(() => r(null), SOS_SCREEN_BUDGET_MS)))]);
    if (result) return sosSentScreen(t, result.reached);
    // The screen did not wait for slow channels (SMS to contacts, push): the counts follow by SMS.
    if (!channel.optedOut) {
      waitUntil(
        sos
          .then((done) => sendMessage(env, db, { to: phone, channel: "sms", body: sosSentScreen(t, done.reached).slice("END ".length) }))
          .catch(() => undefined),
      );
    }
    return end(t.sosSentPending);
  } catch (e) {
    // A refusal the sos module names (e.g. too many SOS in an hour) is said in the caller's language.
    return end(e instanceof DomainError ? sosRefusalText(t, e.kind) : `${t.busy} 112 / 199`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The offline assistant answers on screen at once (and counts the command once). When the answer is longer
 * than a screen it follows in full by SMS; with Workers AI configured, the online answer follows by SMS.
 * Phones that opted out (STOP on WhatsApp) get no SMS.
 */
async function assistantAnswer(env: AppEnv, db: Db, ctx: ActionContext, text: string): Promise<string> {
  const { phone, t, waitUntil } = ctx;
  const user = await userForPhone(db, phone);
  // The town typed for an earlier SOS or price check is where the caller is, when no place is named.
  const area = { latitude: ctx.channel.latitude, longitude: ctx.channel.longitude, text: ctx.channel.locationText };
  const quick = await runAiCommand(env, db, { userId: user.id, text, channel: "ussd", mode: "offline", area });
  if (!quick.ok) return end(quick.body.error);
  // A phone that sent STOP gets no SMS either: the screen shows what fits and promises nothing more.
  if (ctx.channel.optedOut) return end(quick.message);
  const online = servicesStatus(env).workersAi;
  const { screen, needsSms } = answerScreen(t, quick.message, online);
  if (online || needsSms) {
    waitUntil(
      (async () => {
        let body = quick.message;
        if (online) {
          const full = await runAiCommand(env, db, {
            userId: user.id,
            text,
            channel: "ussd",
            mode: "auto",
            // Counted once: here only when the screen's offline answer was not (it said the online one was needed).
            countUsage: !quick.counted,
            area,
          });
          if (full.ok) body = full.message;
        }
        await sendMessage(env, db, { to: phone, channel: "sms", body });
      })().catch((e) => console.error("ussd: answer by SMS", e)),
    );
  }
  return screen;
}
