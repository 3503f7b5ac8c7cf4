// Every word the USSD menu and the WhatsApp bot say, in the five channel languages. Written without
// diacritics on purpose: USSD screens and SMS travel in the GSM 7-bit alphabet, which has no ẹ, ọ, ṣ, ɗ or ƙ.

import type { ErrorKind } from "./domain-error";
// The languages themselves live apart (./channel-language.ts), so code that only names a language does not load
// every text below (docs/decisions/082-a-worker-that-starts-small.md).
import { type ChannelLanguage, resolveChannelLanguage } from "./channel-language";

export { CHANNEL_LANGUAGE_NAMES, CHANNEL_LANGUAGES, type ChannelLanguage, fill, resolveChannelLanguage } from "./channel-language";

export const EMERGENCY_CHOICES = ["medical", "fire", "security", "accident", "flood", "other"] as const;
export type EmergencyChoice = (typeof EMERGENCY_CHOICES)[number];

export interface ChannelTexts {
  menu: { sos: string; ask: string; market: string; translate: string; account: string; exit: string };
  back: string;
  more: string;
  invalid: string;
  empty: string;
  sosTypePrompt: string;
  types: Record<EmergencyChoice, string>;
  sosPlacePrompt: string;
  skip: string;
  /** {place} */
  lastPlace: string;
  /** {type} {place} */
  sosConfirm: string;
  sendNow: string;
  /** {people} {contacts} */
  sosSent: string;
  /** When the counts are not in yet: the SOS goes on in the background. */
  sosSentPending: string;
  askPrompt: string;
  smsFollows: string;
  marketPick: string;
  /** {c} */
  marketPlacePrompt: string;
  /** {c} {p} */
  marketNone: string;
  translateTextPrompt: string;
  translateLangPrompt: string;
  account: string;
  phone: string;
  tier: string;
  verified: string;
  notVerified: string;
  verifyOption: string;
  languageOption: string;
  verifyPrompt: string;
  verifyDone: string;
  languagePrompt: string;
  languageSaved: string;
  goodbye: string;
  busy: string;
  /** A domain refusal (docs/decisions/045-domain-errors.md): too many SOS in an hour. */
  sosTooMany: string;
  /** Any other domain refusal. */
  refused: string;
  /** A suspended phone's main menu heading: only SOS stays open (docs/decisions/025-bans.md). */
  suspendedMenu: string;
  /** END for a suspended phone choosing anything but SOS. */
  suspended: string;
  tiers: { free: string; premium: string; enterprise: string };
  /** To an emergency contact by WhatsApp or SMS: {name} {phone} {type} {message} {where} */
  sosContact: string;
  /** Prices people report (docs/decisions/068-market-prices-people-report.md): {price} {unit} {item} {market} {count} {days} */
  priceQuote: string;
  /** {unit} {item} {market} {count} {min} {days} */
  priceNoRecent: string;
  reportOption: string;
  reportItemPrompt: string;
  reportUnitPrompt: string;
  reportPricePrompt: string;
  reportMarketPrompt: string;
  /** {item} {unit} {price} {market} */
  reportConfirm: string;
  /** {quote} */
  reportSent: string;
  /** {points} */
  reportPoints: string;
  reportTooMany: string;
  /** {place} */
  sosContactWhere: string;
}

const english: ChannelTexts = {
  menu: { sos: "Send SOS", ask: "Ask assistant", market: "Market prices", translate: "Translate", account: "My account", exit: "Exit" },
  back: "Back",
  more: "More",
  invalid: "Invalid choice, try again.",
  empty: "Please type an answer.",
  sosTypePrompt: "Type of emergency:",
  types: { medical: "Medical", fire: "Fire", security: "Security", accident: "Accident", flood: "Flood", other: "Other" },
  sosPlacePrompt: "Where are you? Type town, street or landmark.",
  skip: "Skip",
  lastPlace: "Use last place: {place}",
  sosConfirm: "Send {type} SOS{place}? People nearby and your contacts will be alerted.",
  sendNow: "Send now",
  sosSent: "SOS sent. Nearby with LinkUp open or by push alert: {people}. Contacts reached: {contacts}. Call 112 or 199 now.",
  sosSentPending: "SOS sent. People nearby and your contacts are being alerted. Call 112 or 199 now.",
  askPrompt: "Type your question:",
  smsFollows: "Full answer by SMS.",
  marketPick: "Market prices. Choose:",
  marketPlacePrompt: "{c}: type town or market, or 1 for all places.",
  marketNone: "No prices found for {c} in {p}.",
  translateTextPrompt: "Type the text to translate:",
  translateLangPrompt: "Translate to:",
  account: "My account",
  phone: "Phone",
  tier: "Tier",
  verified: "Verified for web",
  notVerified: "Not verified for web",
  verifyOption: "Confirm phone with code",
  languageOption: "Language",
  verifyPrompt: "Type the 6-digit code LinkUp sent to this phone:",
  verifyDone:
    "Phone confirmed for LinkUp on USSD. Nobody was signed in on the web: the code works there only in the browser that asked for it.",
  languagePrompt: "Choose language:",
  languageSaved: "Language saved.",
  goodbye: "Thank you for using LinkUp. Stay safe.",
  busy: "Service busy. Please try again.",
  sosTooMany: "Too many SOS from you in the last hour. If you are in danger, call 112 or 199.",
  refused: "LinkUp could not do this for you. In danger? Call 112 or 199.",
  suspendedMenu: "Account suspended. Only SOS is open.",
  suspended:
    "Your LinkUp account is suspended. Contact LinkUp support if you think this is a mistake. SOS stays open: dial again and choose 1. In danger? Call 112 or 199.",
  tiers: { free: "Free", premium: "Premium", enterprise: "Enterprise" },
  sosContact: "LinkUp SOS from {name}{phone} - {type}: {message}.{where} Call 112 or 199 if they need help.",
  priceQuote: "{price} for {unit} {item} at {market}, median of {count} reports, {days}",
  priceNoRecent: "No recent price for {unit} {item} at {market}: {min} reports in {days} days are needed, so far {count}.",
  reportOption: "Report a price",
  reportItemPrompt: "Report a price. Type the item (e.g. rice):",
  reportUnitPrompt: "Type the unit (e.g. 50kg, bag, tuber, litre):",
  reportPricePrompt: "Type the price in naira (numbers only):",
  reportMarketPrompt: "Type the market or area:",
  reportConfirm: "{item}, {unit}, {price} at {market}. Send?",
  reportSent: "Thank you, your price is in. Now: {quote}",
  reportPoints: "+{points} points.",
  reportTooMany: "You have reported the most prices for today. Try again tomorrow.",
  sosContactWhere: " Location: {place}.",
};

const hausa: ChannelTexts = {
  menu: { sos: "Aika SOS", ask: "Tambayi mataimaki", market: "Farashin kasuwa", translate: "Fassara", account: "Asusuna", exit: "Fita" },
  back: "Koma",
  more: "Kari",
  invalid: "Zabi ba daidai ba, sake gwadawa.",
  empty: "Da fatan a rubuta amsa.",
  sosTypePrompt: "Irin gaggawa:",
  types: { medical: "Lafiya", fire: "Gobara", security: "Tsaro", accident: "Hatsari", flood: "Ambaliya", other: "Wani" },
  sosPlacePrompt: "Ina kake? Rubuta gari, titi ko sananne wuri.",
  skip: "Tsallake",
  lastPlace: "Wurin karshe: {place}",
  sosConfirm: "Aika SOS na {type}{place}? Za a sanar da mutanen kusa da abokan huldarka.",
  sendNow: "Aika yanzu",
  sosSent: "An aika SOS. Na kusa masu LinkUp a bude ko sanarwar push: {people}. Abokan hulda: {contacts}. Kira 112 ko 199 yanzu.",
  sosSentPending: "An aika SOS. Ana sanar da mutanen kusa da abokan huldarka. Kira 112 ko 199 yanzu.",
  askPrompt: "Rubuta tambayarka:",
  smsFollows: "Cikakkiyar amsa ta SMS.",
  marketPick: "Farashin kasuwa. Zabi:",
  marketPlacePrompt: "{c}: rubuta gari ko kasuwa, ko 1 don duka.",
  marketNone: "Babu farashin {c} a {p}.",
  translateTextPrompt: "Rubuta abin da za a fassara:",
  translateLangPrompt: "Fassara zuwa:",
  account: "Asusuna",
  phone: "Waya",
  tier: "Mataki",
  verified: "An tabbatar don yanar gizo",
  notVerified: "Ba a tabbatar ba tukuna",
  verifyOption: "Tabbatar da waya da lamba",
  languageOption: "Harshe",
  verifyPrompt: "Rubuta lambar mai lamba 6 da LinkUp ya aiko wa wannan waya:",
  verifyDone: "An tabbatar da wayarka don USSD. Ba a shigar da kowa a yanar gizo ba: lambar tana aiki ne kawai a burauzar da ta nema.",
  languagePrompt: "Zabi harshe:",
  languageSaved: "An ajiye harshe.",
  goodbye: "Mun gode da amfani da LinkUp. A zauna lafiya.",
  busy: "Ana aiki sosai. Sake gwadawa.",
  sosTooMany: "Ka aika SOS da yawa a cikin awa daya da ta wuce. Idan kana cikin hadari, kira 112 ko 199.",
  refused: "LinkUp ba zai iya yi maka wannan ba. Kana cikin hadari? Kira 112 ko 199.",
  suspendedMenu: "An dakatar da asusu. SOS kadai ke aiki.",
  suspended:
    "An dakatar da asusunka na LinkUp. Tuntubi tallafin LinkUp idan kana ganin kuskure ne. SOS yana aiki: sake kira ka zabi 1. Kana cikin hadari? Kira 112 ko 199.",
  tiers: { free: "Kyauta", premium: "Premium", enterprise: "Enterprise" },
  sosContact: "SOS na LinkUp daga {name}{phone} - {type}: {message}.{where} Kira 112 ko 199 idan suna bukatar taimako.",
  priceQuote: "{price} na {unit} {item} a {market}, tsakiyar rahotanni {count}, {days}",
  priceNoRecent: "Babu sabon farashin {unit} {item} a {market}: ana bukatar rahotanni {min} cikin kwana {days}, akwai {count} yanzu.",
  reportOption: "Bada farashi",
  reportItemPrompt: "Bada farashi. Rubuta kayan (misali rice):",
  reportUnitPrompt: "Rubuta ma'auni (misali 50kg, bag, tuber, litre):",
  reportPricePrompt: "Rubuta farashi a naira (lambobi kawai):",
  reportMarketPrompt: "Rubuta kasuwa ko unguwa:",
  reportConfirm: "{item}, {unit}, {price} a {market}. A aika?",
  reportSent: "Na gode, an karbi farashinka. Yanzu: {quote}",
  reportPoints: "+maki {points}.",
  reportTooMany: "Ka kai iyakar farashin da za ka bayar yau. Gwada gobe.",
  sosContactWhere: " Wuri: {place}.",
};

const yoruba: ChannelTexts = {
  menu: { sos: "Fi SOS ranse", ask: "Bi oluranlowo", market: "Owo oja", translate: "Tumo ede", account: "Akanti mi", exit: "Jade" },
  back: "Pada",
  more: "Siwaju",
  invalid: "Asayan ko to, tun gbiyanju.",
  empty: "Jowo ko idahun.",
  sosTypePrompt: "Iru pajawiri:",
  types: { medical: "Ilera", fire: "Ina", security: "Aabo", accident: "Ijamba", flood: "Omiyale", other: "Omiiran" },
  sosPlacePrompt: "Nibo lo wa? Ko ilu, opopona tabi ami-ile.",
  skip: "Fo o",
  lastPlace: "Ibi to koja: {place}",
  sosConfirm: "Fi SOS {type} ranse{place}? A o so fun awon to wa nitosi ati awon olubasoro re.",
  sendNow: "Fi ranse bayi",
  sosSent: "SOS ti lo. Awon nitosi ti LinkUp won si sile tabi ti o gba push: {people}. Olubasoro: {contacts}. Pe 112 tabi 199 bayi.",
  sosSentPending: "SOS ti lo. A n so fun awon to wa nitosi ati olubasoro re. Pe 112 tabi 199 bayi.",
  askPrompt: "Ko ibeere re:",
  smsFollows: "Idahun kikun nipa SMS.",
  marketPick: "Owo oja. Yan:",
  marketPlacePrompt: "{c}: ko ilu tabi oja, tabi 1 fun gbogbo.",
  marketNone: "Ko si owo {c} ni {p}.",
  translateTextPrompt: "Ko oro ti o fe tumo:",
  translateLangPrompt: "Tumo si:",
  account: "Akanti mi",
  phone: "Foonu",
  tier: "Ipele",
  verified: "A ti jerisi fun web",
  notVerified: "A ko tii jerisi fun web",
  verifyOption: "Jerisi foonu pelu koodu",
  languageOption: "Ede",
  verifyPrompt: "Ko koodu oninomba 6 ti LinkUp fi ranse si foonu yii:",
  verifyDone: "A ti jerisi foonu re fun USSD. Ko si eni ti o wole lori web: koodu n sise nikan ninu burausa ti o beere fun un.",
  languagePrompt: "Yan ede:",
  languageSaved: "A ti fi ede pamo.",
  goodbye: "E se fun lilo LinkUp. E ku aabo.",
  busy: "Ero n sise lowo. Tun gbiyanju.",
  sosTooMany: "O ti fi SOS ranse ju ni wakati kan seyin. Ti o ba wa ninu ewu, pe 112 tabi 199.",
  refused: "LinkUp ko le se eyi fun o. O wa ninu ewu? Pe 112 tabi 199.",
  suspendedMenu: "A ti da akanti duro. SOS nikan lo si sile.",
  suspended:
    "A ti da akanti LinkUp re duro. Kan si atileyin LinkUp ti o ba ro pe asise ni. SOS si n sise: pe pada ki o yan 1. Ninu ewu? Pe 112 tabi 199.",
  tiers: { free: "Ofe", premium: "Premium", enterprise: "Enterprise" },
  sosContact: "SOS LinkUp lati odo {name}{phone} - {type}: {message}.{where} Pe 112 tabi 199 ti won ba nilo iranlowo.",
  priceQuote: "{price} fun {unit} {item} ni {market}, aarin iroyin {count}, {days}",
  priceNoRecent: "Ko si owo tuntun fun {unit} {item} ni {market}: a nilo iroyin {min} ni ojo {days}, {count} lo wa bayi.",
  reportOption: "So owo oja",
  reportItemPrompt: "So owo oja. Ko oja naa (apere rice):",
  reportUnitPrompt: "Ko iwon (apere 50kg, bag, tuber, litre):",
  reportPricePrompt: "Ko owo ni naira (nomba nikan):",
  reportMarketPrompt: "Ko oja nla tabi agbegbe:",
  reportConfirm: "{item}, {unit}, {price} ni {market}. Fi ranse?",
  reportSent: "E se, a ti gba owo ti o so. Bayi: {quote}",
  reportPoints: "+ami {points}.",
  reportTooMany: "O ti so owo to po julo fun oni. Gbiyanju lola.",
  sosContactWhere: " Ibi: {place}.",
};

const igbo: ChannelTexts = {
  menu: { sos: "Ziga SOS", ask: "Juo onye enyemaka", market: "Onu ahia", translate: "Tughari asusu", account: "Akaunti m", exit: "Puo" },
  back: "Laghachi",
  more: "Ndi ozo",
  invalid: "Nhoro ezighi ezi, nwaa ozo.",
  empty: "Biko dee aziza.",
  sosTypePrompt: "Udi mberede:",
  types: { medical: "Ahuike", fire: "Oku", security: "Nchekwa", accident: "Ihe mberede uzo", flood: "Idei mmiri", other: "Ozo" },
  sosPlacePrompt: "Ebee ka i no? Dee obodo, okporo uzo ma o bu ebe a ma ama.",
  skip: "Wufe",
  lastPlace: "Ebe ikpeazu: {place}",
  sosConfirm: "Ziga SOS {type}{place}? A ga-agwa ndi no nso na ndi enyi gi.",
  sendNow: "Ziga ugbu a",
  sosSent: "E zigara SOS. Ndi no nso meghere LinkUp ma o bu nwetara push: {people}. Ndi enyi: {contacts}. Kpoo 112 ma o bu 199 ugbu a.",
  sosSentPending: "E zigara SOS. A na-agwa ndi no nso na ndi enyi gi. Kpoo 112 ma o bu 199 ugbu a.",
  askPrompt: "Dee ajuju gi:",
  smsFollows: "Aziza zuru oke site na SMS.",
  marketPick: "Onu ahia. Hoputa:",
  marketPlacePrompt: "{c}: dee obodo ma o bu ahia, ma o bu 1 maka ha nile.",
  marketNone: "Enweghi onu {c} na {p}.",
  translateTextPrompt: "Dee ihe i choro itughari:",
  translateLangPrompt: "Tughari gaa na:",
  account: "Akaunti m",
  phone: "Ekwenti",
  tier: "Ogo",
  verified: "Akwadoro maka web",
  notVerified: "Akwadobeghi maka web",
  verifyOption: "Kwado ekwenti ji koodu",
  languageOption: "Asusu",
  verifyPrompt: "Dee koodu onu ogugu 6 LinkUp zitere ekwenti a:",
  verifyDone: "Akwadoro ekwenti gi maka USSD. Onweghi onye banyere na web: koodu na-aru naani na ihe nchogha nke rioro ya.",
  languagePrompt: "Hoputa asusu:",
  languageSaved: "Echekwara asusu.",
  goodbye: "Daalu maka iji LinkUp. Nodu na nchekwa.",
  busy: "Oru di ukwuu ugbu a. Nwaa ozo.",
  sosTooMany: "I zigala SOS kari oke n'ime otu awa gara aga. O buru na i no n'ihe egwu, kpoo 112 ma o bu 199.",
  refused: "LinkUp enweghi ike imere gi nke a. I no n'ihe egwu? Kpoo 112 ma o bu 199.",
  suspendedMenu: "Akwusitela akaunti. Naani SOS ka meghere.",
  suspended:
    "Akwusitela akaunti LinkUp gi. Kpoturu nkwado LinkUp ma i chere na o bu njehie. SOS ka na-aru oru: kpoo ozo ma hoo 1. I no na nsogbu? Kpoo 112 ma o bu 199.",
  tiers: { free: "Efu", premium: "Premium", enterprise: "Enterprise" },
  sosContact: "SOS LinkUp site n'aka {name}{phone} - {type}: {message}.{where} Kpoo 112 ma o bu 199 ma o buru na ha choro enyemaka.",
  priceQuote: "{price} maka {unit} {item} na {market}, etiti akuko {count}, {days}",
  priceNoRecent: "Enweghi onu ohuru maka {unit} {item} na {market}: a choro akuko {min} n'ubochi {days}, e nwere {count} ugbu a.",
  reportOption: "Kowaa onu ahia",
  reportItemPrompt: "Kowaa onu ahia. Dee ngwa ahu (dika rice):",
  reportUnitPrompt: "Dee otu (dika 50kg, bag, tuber, litre):",
  reportPricePrompt: "Dee ego na naira (onu ogugu naani):",
  reportMarketPrompt: "Dee ahia ma o bu ebe:",
  reportConfirm: "{item}, {unit}, {price} na {market}. Ziga?",
  reportSent: "Daalu, anabatara onu ahia gi. Ugbu a: {quote}",
  reportPoints: "+akara {points}.",
  reportTooMany: "I kowaala onu ahia kacha nke taa. Nwaa echi.",
  sosContactWhere: " Ebe: {place}.",
};

const pidgin: ChannelTexts = {
  menu: { sos: "Send SOS", ask: "Ask di helper", market: "Market price", translate: "Translate", account: "My account", exit: "Comot" },
  back: "Go back",
  more: "More",
  invalid: "Dat choice no correct, try again.",
  empty: "Abeg type answer.",
  sosTypePrompt: "Wetin happen?",
  types: { medical: "Sickness/wound", fire: "Fire", security: "Thief/wahala", accident: "Accident", flood: "Flood", other: "Oda tin" },
  sosPlacePrompt: "Where you dey? Type town, street or landmark.",
  skip: "Skip",
  lastPlace: "Last place: {place}",
  sosConfirm: "Make we send {type} SOS{place}? People wey dey near and your contacts go hear.",
  sendNow: "Send am now",
  sosSent: "SOS don go. People wey dey near wey open LinkUp or get push: {people}. Contacts: {contacts}. Call 112 or 199 now now.",
  sosSentPending: "SOS don go. We dey tell people wey dey near and your contacts. Call 112 or 199 now now.",
  askPrompt: "Type your question:",
  smsFollows: "Full answer go come by SMS.",
  marketPick: "Market price. Choose:",
  marketPlacePrompt: "{c}: type town or market, or 1 for everywhere.",
  marketNone: "No price for {c} for {p}.",
  translateTextPrompt: "Type wetin you wan translate:",
  translateLangPrompt: "Translate am to:",
  account: "My account",
  phone: "Phone",
  tier: "Level",
  verified: "E don verify for web",
  notVerified: "E never verify for web",
  verifyOption: "Confirm phone wit code",
  languageOption: "Language",
  verifyPrompt: "Type di 6-digit code wey LinkUp send to dis phone:",
  verifyDone: "Your phone don confirm for LinkUp USSD. Nobody sign in for web: di code dey work only for di browser wey ask for am.",
  languagePrompt: "Choose language:",
  languageSaved: "Language don save.",
  goodbye: "Tank you for using LinkUp. Stay safe.",
  busy: "System busy. Abeg try again.",
  sosTooMany: "You don send too many SOS for the last one hour. If you dey danger, call 112 or 199.",
  refused: "LinkUp no fit do am for you. You dey danger? Call 112 or 199.",
  suspendedMenu: "Account suspended. Na only SOS dey open.",
  suspended:
    "Dem don suspend your LinkUp account. Contact LinkUp support if you think say na mistake. SOS still dey work: dial again, choose 1. You dey danger? Call 112 or 199.",
  tiers: { free: "Free", premium: "Premium", enterprise: "Enterprise" },
  sosContact: "LinkUp SOS from {name}{phone} - {type}: {message}.{where} Call 112 or 199 if dem need help.",
  priceQuote: "{price} for {unit} {item} for {market}, middle of {count} reports, {days}",
  priceNoRecent: "No new price for {unit} {item} for {market}: we need {min} reports for {days} days, na {count} dey now.",
  reportOption: "Report price",
  reportItemPrompt: "Report price. Type di item (like rice):",
  reportUnitPrompt: "Type di unit (like 50kg, bag, tuber, litre):",
  reportPricePrompt: "Type di price for naira (number only):",
  reportMarketPrompt: "Type di market or area:",
  reportConfirm: "{item}, {unit}, {price} for {market}. Send?",
  reportSent: "Thank you, your price don enter. Now: {quote}",
  reportPoints: "+{points} points.",
  reportTooMany: "You don report di most price for today. Try again tomorrow.",
  sosContactWhere: " Where: {place}.",
};

export const CHANNEL_TEXTS: Record<ChannelLanguage, ChannelTexts> = { english, hausa, yoruba, igbo, pidgin };

export function channelTexts(language: string | null | undefined): ChannelTexts {
  return CHANNEL_TEXTS[(resolveChannelLanguage(language) ?? "english") as ChannelLanguage];
}

/** What a phone channel says when an SOS is refused, in the person's language (docs/decisions/045-domain-errors.md). */
export function sosRefusalText(t: ChannelTexts, kind: ErrorKind): string {
  if (kind === "rate_limited") return t.sosTooMany;
  if (kind === "suspended") return t.suspended;
  return t.refused;
}

// GSM 03.38 basic character set plus its extension table (each extension character costs two septets).
const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENDED = "^{}\\[~]|€";

/** Septets a text takes in GSM 7-bit, or null when a character is outside the alphabet. */
export function gsmLength(text: string): number | null {
  let n = 0;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) n += 1;
    else if (GSM_EXTENDED.includes(ch)) n += 2;
    else return null;
  }
  return n;
}

const REPLACEMENTS: Record<string, string> = {
  "‘": "'",
  "’": "'",
  "“": '"',
  "”": '"',
  "–": "-",
  "—": "-",
  "…": "...",
  "₦": "N",
  "•": "-",
  "\t": " ",
};

/** Makes any text safe for GSM 7-bit: curly quotes straightened, accents dropped, ₦ as N, the rest (emoji) removed. */
export function toGsm(text: string): string {
  let out = "";
  for (const raw of text) {
    const ch = REPLACEMENTS[raw] ?? raw;
    // Accents go first, so a Yoruba word loses all its tone marks rather than only the ones GSM lacks.
    const plain = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    if (plain && gsmLength(plain) !== null) out += plain;
    else if (gsmLength(ch) !== null) out += ch;
  }
  return out;
}

/** Cuts a text to at most `max` GSM septets, ending on a word with '..' when it had to cut. */
export function clipGsm(text: string, max: number): string {
  const safe = toGsm(text);
  if ((gsmLength(safe) ?? Number.POSITIVE_INFINITY) <= max) return safe;
  let out = "";
  for (const ch of safe) {
    if ((gsmLength(out + ch) ?? 0) > max - 2) break;
    out += ch;
  }
  const space = out.lastIndexOf(" ");
  if (space > max / 2) out = out.slice(0, space);
  return `${out.trimEnd()}..`;
}
