// The words around the figures of market-price and weather answers, in the asker's language (issue 32): the
// figures, names of markets, commodities and units stay as the data has them. Written by the team, not yet by native
// speakers (docs/i18n-review.md); English is the wording the answers always had.
import { EXAMPLE_PRICE_SOURCE } from "../../core/admin-schemas";
import type { UiLanguage } from "../../core/i18n/languages";

export interface MarketWords {
  noneYet: string;
  noneFor: (what: string, where: string, places: string) => string;
  noneNamed: (rest: string, all: string, places: string) => string;
  askFor: (all: string, places: string) => string;
  nearest: (near: string, market: string) => string;
  noneRecent: (what: string, where: string, origin: string, days: number) => string;
  /** " in Lagos": where a place was named. */
  inPlace: (place: string) => string;
  that: string;
  perUnit: (price: string, unit: string) => string;
  more: (n: number) => string;
  heading: (intro: string, sources: string) => string;
  oneSource: (origin: string) => string;
  eachLine: string;
  example: string;
  /** Prices people reported (docs/decisions/068-market-prices-people-report.md): the words around the figures. */
  reported: ReportedWords;
}

export interface ReportedWords {
  heading: (days: number) => string;
  /** '₦78,000 for 50 kg rice at Mile 12, median of 6 reports, 12–26 Nov'. */
  quote: (v: { price: string; unit: string; item: string; market: string; count: number; days: string }) => string;
  /** Fewer than `min` reports after outliers: no figure, and how many there are. */
  none: (v: { unit: string; item: string; market: string; count: number; min: number; days: number }) => string;
  more: (n: number) => string;
  /** A report typed to the assistant: where reports go (the command stays as the bot reads it). */
  reportIt: string;
}

export interface WeatherWords {
  forecast: (place: string, tomorrow: boolean, date: string, low: number, high: number, rain: number | null) => string;
  notFound: (place: string) => string;
  tellPlace: string;
  yourArea: string;
}

const MARKET: Record<UiLanguage, MarketWords> = {
  english: {
    noneYet: "I have no recent market price yet.",
    noneFor: (what, where, places) => `I have no prices for ${what}${where}. I have prices for ${places}.`,
    noneNamed: (rest, all, places) => `I have no prices for "${rest}". I have prices for ${all} in ${places}.`,
    askFor: (all, places) => `Ask for a commodity and a place, e.g. '@ai market rice lagos'. I have prices for ${all} in ${places}.`,
    nearest: (near, market) => ` (nearest market to ${near}: ${market})`,
    noneRecent: (what, where, origin, days) =>
      `I have no recent price for ${what}${where}: the last one I have (${origin}) is more than ${days} days old.`,
    inPlace: (place) => ` in ${place}`,
    that: "that",
    perUnit: (price, unit) => `${price} per ${unit}`,
    more: (n) => `…and ${n} more; add a place to narrow it down.`,
    heading: (intro, sources) => `📊 Market prices${intro} (${sources}):`,
    oneSource: (origin) => `source: ${origin}`,
    eachLine: "source and date on each line",
    example: "example, not observed",
    reported: {
      heading: (days) => `📊 Prices people reported in the last ${days} days:`,
      quote: (v) => `${v.price} for ${v.unit} ${v.item} at ${v.market}, median of ${v.count} reports, ${v.days}`,
      none: (v) =>
        `${v.unit} ${v.item} at ${v.market}: no recent price (${v.count} report${v.count === 1 ? "" : "s"} in ${v.days} days, ${v.min} needed)`,
      more: (n) => `…and ${n} more; add a market to narrow it down.`,
      reportIt:
        "That looks like a price you saw. Report it on the Market prices page (/market-prices), on WhatsApp with PRICE rice 50kg 78000 Mile 12, or on the USSD menu: Market prices, then Report a price.",
    },
  },
  pidgin: {
    noneYet: "I never get market price wey fresh.",
    noneFor: (what, where, places) => `I no get price for ${what}${where}. I get price for ${places}.`,
    noneNamed: (rest, all, places) => `I no get price for "${rest}". I get price for ${all} for ${places}.`,
    askFor: (all, places) => `Ask for one market item and place, like '@ai market rice lagos'. I get price for ${all} for ${places}.`,
    nearest: (near, market) => ` (market wey near ${near} pass: ${market})`,
    noneRecent: (what, where, origin, days) =>
      `I no get fresh price for ${what}${where}: the last one wey I get (${origin}) don pass ${days} days.`,
    inPlace: (place) => ` for ${place}`,
    that: "am",
    perUnit: (price, unit) => `${price} for one ${unit}`,
    more: (n) => `…and ${n} more; add place make e short.`,
    heading: (intro, sources) => `📊 Market price${intro} (${sources}):`,
    oneSource: (origin) => `who talk am: ${origin}`,
    eachLine: "who talk am and the date dey each line",
    example: "na example, nobody see am for market",
    reported: {
      heading: (days) => `📊 Price wey people report for the last ${days} days:`,
      quote: (v) => `${v.price} for ${v.unit} ${v.item} for ${v.market}, middle of ${v.count} reports, ${v.days}`,
      none: (v) => `${v.unit} ${v.item} for ${v.market}: no new price (na ${v.count} report dey for ${v.days} days, we need ${v.min})`,
      more: (n) => `…and ${n} more; add market make e short.`,
      reportIt:
        "E be like say na price wey you see. Report am for the Market prices page (/market-prices), for WhatsApp with PRICE rice 50kg 78000 Mile 12, or for the USSD menu.",
    },
  },
  hausa: {
    noneYet: "Ba ni da farashin kasuwa na kwanan nan tukuna.",
    noneFor: (what, where, places) => `Ba ni da farashin ${what}${where}. Ina da farashi na ${places}.`,
    noneNamed: (rest, all, places) => `Ba ni da farashin "${rest}". Ina da farashin ${all} a ${places}.`,
    askFor: (all, places) => `Ka tambayi kaya da wuri, misali '@ai market rice lagos'. Ina da farashin ${all} a ${places}.`,
    nearest: (near, market) => ` (kasuwa mafi kusa da ${near}: ${market})`,
    noneRecent: (what, where, origin, days) =>
      `Ba ni da sabon farashin ${what}${where}: na ƙarshe da nake da shi (${origin}) ya wuce kwana ${days}.`,
    inPlace: (place) => ` a ${place}`,
    that: "wannan",
    perUnit: (price, unit) => `${price} kan ${unit}`,
    more: (n) => `…da ƙarin ${n}; ƙara wuri don taƙaita su.`,
    heading: (intro, sources) => `📊 Farashin kasuwa${intro} (${sources}):`,
    oneSource: (origin) => `majiya: ${origin}`,
    eachLine: "majiya da rana a kowane layi",
    example: "misali ne, ba a gani a kasuwa ba",
    reported: {
      heading: (days) => `📊 Farashin da mutane suka bayar a kwanaki ${days} na ƙarshe:`,
      quote: (v) => `${v.price} na ${v.unit} ${v.item} a ${v.market}, tsakiyar rahotanni ${v.count}, ${v.days}`,
      none: (v) =>
        `${v.unit} ${v.item} a ${v.market}: babu sabon farashi (rahotanni ${v.count} cikin kwana ${v.days}, ana bukatar ${v.min})`,
      more: (n) => `…da ƙarin ${n}; ƙara kasuwa don taƙaita su.`,
      reportIt:
        "Kamar farashin da ka gani ne. Ka bayar da shi a shafin farashin kasuwa (/market-prices), a WhatsApp da PRICE rice 50kg 78000 Mile 12, ko a menu na USSD.",
    },
  },
  yoruba: {
    noneYet: "N kò tíì ní iye ọjà tuntun.",
    noneFor: (what, where, places) => `N kò ní iye ${what}${where}. Mo ní iye ọjà fún ${places}.`,
    noneNamed: (rest, all, places) => `N kò ní iye "${rest}". Mo ní iye ${all} ní ${places}.`,
    askFor: (all, places) => `Béèrè ọjà kan àti ibì kan, bí '@ai market rice lagos'. Mo ní iye ${all} ní ${places}.`,
    nearest: (near, market) => ` (ọjà tó súnmọ́ ${near} jù: ${market})`,
    noneRecent: (what, where, origin, days) =>
      `N kò ní iye tuntun fún ${what}${where}: èyí tó kẹ́yìn tí mo ní (${origin}) ti ju ọjọ́ ${days} lọ.`,
    inPlace: (place) => ` ní ${place}`,
    that: "ìyẹn",
    perUnit: (price, unit) => `${price} fún ${unit} kan`,
    more: (n) => `…àti ${n} míì; fi ibì kan kún un láti dín in kù.`,
    heading: (intro, sources) => `📊 Iye ọjà${intro} (${sources}):`,
    oneSource: (origin) => `orísun: ${origin}`,
    eachLine: "orísun àti ọjọ́ wà ní ìlà kọ̀ọ̀kan",
    example: "àpẹẹrẹ ni, a kò rí i ní ọjà",
    reported: {
      heading: (days) => `📊 Iye tí àwọn ènìyàn ròyìn ní ọjọ́ ${days} tó kọjá:`,
      quote: (v) => `${v.price} fún ${v.unit} ${v.item} ní ${v.market}, àárín ìròyìn ${v.count}, ${v.days}`,
      none: (v) => `${v.unit} ${v.item} ní ${v.market}: kò sí iye tuntun (ìròyìn ${v.count} ní ọjọ́ ${v.days}, a nílò ${v.min})`,
      more: (n) => `…àti ${n} míì; fi ọjà kan kún un láti dín in kù.`,
      reportIt:
        "Ó dàbí iye tí o rí. Ròyìn rẹ̀ lórí ojú-ìwé iye ọjà (/market-prices), lórí WhatsApp pẹ̀lú PRICE rice 50kg 78000 Mile 12, tàbí lórí àtòjọ USSD.",
    },
  },
  igbo: {
    noneYet: "Enweghị m ọnụ ahịa ọhụrụ ugbu a.",
    noneFor: (what, where, places) => `Enweghị m ọnụ ahịa ${what}${where}. Enwere m ọnụ ahịa maka ${places}.`,
    noneNamed: (rest, all, places) => `Enweghị m ọnụ ahịa "${rest}". Enwere m ọnụ ahịa ${all} na ${places}.`,
    askFor: (all, places) => `Jụọ maka ngwa ahịa na ebe, dịka '@ai market rice lagos'. Enwere m ọnụ ahịa ${all} na ${places}.`,
    nearest: (near, market) => ` (ahịa kacha nso ${near}: ${market})`,
    noneRecent: (what, where, origin, days) =>
      `Enweghị m ọnụ ahịa ọhụrụ maka ${what}${where}: nke ikpeazụ m nwere (${origin}) karịrị ụbọchị ${days}.`,
    inPlace: (place) => ` na ${place}`,
    that: "nke ahụ",
    perUnit: (price, unit) => `${price} maka otu ${unit}`,
    more: (n) => `…na ${n} ọzọ; tinye ebe ka o belata.`,
    heading: (intro, sources) => `📊 Ọnụ ahịa${intro} (${sources}):`,
    oneSource: (origin) => `ebe o si: ${origin}`,
    eachLine: "ebe o si na ụbọchị dị n'ahịrị ọ bụla",
    example: "ihe atụ, a hụghị ya n'ahịa",
    reported: {
      heading: (days) => `📊 Ọnụ ahịa ndị mmadụ kọrọ n'ụbọchị ${days} gara aga:`,
      quote: (v) => `${v.price} maka ${v.unit} ${v.item} na ${v.market}, etiti akụkọ ${v.count}, ${v.days}`,
      none: (v) => `${v.unit} ${v.item} na ${v.market}: enweghị ọnụ ahịa ọhụrụ (akụkọ ${v.count} n'ụbọchị ${v.days}, a chọrọ ${v.min})`,
      more: (n) => `…na ${n} ọzọ; tinye ahịa ka o belata.`,
      reportIt:
        "O yiri ọnụ ahịa ị hụrụ. Kọọ ya na peeji ọnụ ahịa (/market-prices), na WhatsApp site PRICE rice 50kg 78000 Mile 12, ma ọ bụ na menu USSD.",
    },
  },
  french: {
    noneYet: "Je n'ai pas encore de prix récent du marché.",
    noneFor: (what, where, places) => `Je n'ai pas de prix pour ${what}${where}. J'ai des prix pour ${places}.`,
    noneNamed: (rest, all, places) => `Je n'ai pas de prix pour « ${rest} ». J'ai des prix pour ${all} à ${places}.`,
    askFor: (all, places) => `Demandez un produit et un lieu, par ex. '@ai market rice lagos'. J'ai des prix pour ${all} à ${places}.`,
    nearest: (near, market) => ` (marché le plus proche de ${near} : ${market})`,
    noneRecent: (what, where, origin, days) =>
      `Je n'ai pas de prix récent pour ${what}${where} : le dernier que j'ai (${origin}) date de plus de ${days} jours.`,
    inPlace: (place) => ` à ${place}`,
    that: "cela",
    perUnit: (price, unit) => `${price} le ${unit}`,
    more: (n) => `…et ${n} de plus ; ajoutez un lieu pour préciser.`,
    heading: (intro, sources) => `📊 Prix du marché${intro} (${sources}) :`,
    oneSource: (origin) => `source : ${origin}`,
    eachLine: "source et date sur chaque ligne",
    example: "exemple, non observé",
    reported: {
      heading: (days) => `📊 Prix signalés par les gens ces ${days} derniers jours :`,
      quote: (v) => `${v.price} pour ${v.unit} ${v.item} à ${v.market}, médiane de ${v.count} signalements, ${v.days}`,
      none: (v) =>
        `${v.unit} ${v.item} à ${v.market} : pas de prix récent (${v.count} signalement${v.count > 1 ? "s" : ""} en ${v.days} jours, ${v.min} nécessaires)`,
      more: (n) => `…et ${n} de plus ; ajoutez un marché pour préciser.`,
      reportIt:
        "Cela ressemble à un prix que vous avez vu. Signalez-le sur la page Prix du marché (/market-prices), sur WhatsApp avec PRICE rice 50kg 78000 Mile 12, ou dans le menu USSD.",
    },
  },
  arabic: {
    noneYet: "ليس لدي سعر سوق حديث بعد.",
    noneFor: (what, where, places) => `ليس لدي أسعار لـ${what}${where}. لدي أسعار لـ${places}.`,
    noneNamed: (rest, all, places) => `ليس لدي أسعار لـ«${rest}». لدي أسعار ${all} في ${places}.`,
    askFor: (all, places) => `اسأل عن سلعة ومكان، مثل '@ai market rice lagos'. لدي أسعار ${all} في ${places}.`,
    nearest: (near, market) => ` (أقرب سوق إلى ${near}: ${market})`,
    noneRecent: (what, where, origin, days) => `ليس لدي سعر حديث لـ${what}${where}: آخر سعر لدي (${origin}) أقدم من ${days} يوما.`,
    inPlace: (place) => ` في ${place}`,
    that: "ذلك",
    perUnit: (price, unit) => `${price} لكل ${unit}`,
    more: (n) => `…و${n} أخرى؛ أضف مكانا لتضييق النتائج.`,
    heading: (intro, sources) => `📊 أسعار السوق${intro} (${sources}):`,
    oneSource: (origin) => `المصدر: ${origin}`,
    eachLine: "المصدر والتاريخ في كل سطر",
    example: "مثال، لم يُرصد",
    reported: {
      heading: (days) => `📊 أسعار أبلغ عنها الناس في آخر ${days} يوما:`,
      quote: (v) => `${v.price} مقابل ${v.unit} ${v.item} في ${v.market}، وسيط ${v.count} بلاغات، ${v.days}`,
      none: (v) => `${v.unit} ${v.item} في ${v.market}: لا سعر حديث (${v.count} بلاغ في ${v.days} يوما، المطلوب ${v.min})`,
      more: (n) => `…و${n} أخرى؛ أضف سوقا لتضييق النتائج.`,
      reportIt:
        "يبدو هذا سعرا رأيته. أبلغ عنه في صفحة أسعار السوق (/market-prices)، أو على واتساب بـ PRICE rice 50kg 78000 Mile 12، أو في قائمة USSD.",
    },
  },
};

const WEATHER: Record<UiLanguage, WeatherWords> = {
  english: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ Weather for ${place} ${tomorrow ? "tomorrow" : "today"} (${date}): ${low}-${high}°C${rain === null ? "" : `, ${rain}% chance of rain`}. Forecast by Open-Meteo.`,
    notFound: (place) => `I couldn't find a place called ${place}. Try a town or city name, e.g. '@ai weather kano'.`,
    tellPlace: "Tell me the place, e.g. '@ai weather lagos', or share your location in the chat.",
    yourArea: "your area",
  },
  pidgin: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ Weather for ${place} ${tomorrow ? "tomorrow" : "today"} (${date}): ${low}-${high}°C${rain === null ? "" : `, rain fit fall: ${rain}%`}. Na Open-Meteo talk am.`,
    notFound: (place) => `I no fit find place wey dem dey call ${place}. Try town or city name, like '@ai weather kano'.`,
    tellPlace: "Tell me the place, like '@ai weather lagos', or share your location for the chat.",
    yourArea: "your area",
  },
  hausa: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ Yanayi a ${place} ${tomorrow ? "gobe" : "yau"} (${date}): ${low}-${high}°C${rain === null ? "" : `, yiwuwar ruwan sama ${rain}%`}. Hasashen Open-Meteo.`,
    notFound: (place) => `Ban sami wurin da ake kira ${place} ba. Gwada sunan gari ko birni, misali '@ai weather kano'.`,
    tellPlace: "Faɗa mini wurin, misali '@ai weather lagos', ko ka raba wurinka a hira.",
    yourArea: "yankinka",
  },
  yoruba: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ Ojú ọjọ́ ní ${place} ${tomorrow ? "lọ́la" : "lónìí"} (${date}): ${low}-${high}°C${rain === null ? "" : `, àǹfààní òjò ${rain}%`}. Àsọtẹ́lẹ̀ Open-Meteo.`,
    notFound: (place) => `N kò rí ibì kan tí a ń pè ní ${place}. Gbìyànjú orúkọ ìlú, bí '@ai weather kano'.`,
    tellPlace: "Sọ ibi náà fún mi, bí '@ai weather lagos', tàbí pín ibi tí o wà nínú ìjíròrò.",
    yourArea: "agbègbè rẹ",
  },
  igbo: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ Ihu igwe na ${place} ${tomorrow ? "echi" : "taa"} (${date}): ${low}-${high}°C${rain === null ? "" : `, ohere mmiri ozuzo ${rain}%`}. Amụma Open-Meteo.`,
    notFound: (place) => `Achọtaghị m ebe a na-akpọ ${place}. Nwaa aha obodo, dịka '@ai weather kano'.`,
    tellPlace: "Gwa m ebe ahụ, dịka '@ai weather lagos', ma ọ bụ kesaa ebe ị nọ na nkata.",
    yourArea: "mpaghara gị",
  },
  french: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ Météo à ${place} ${tomorrow ? "demain" : "aujourd'hui"} (${date}) : ${low}-${high} °C${rain === null ? "" : `, ${rain} % de risque de pluie`}. Prévisions Open-Meteo.`,
    notFound: (place) => `Je n'ai pas trouvé de lieu appelé ${place}. Essayez un nom de ville, par ex. '@ai weather kano'.`,
    tellPlace: "Dites-moi le lieu, par ex. '@ai weather lagos', ou partagez votre position dans le chat.",
    yourArea: "votre zone",
  },
  arabic: {
    forecast: (place, tomorrow, date, low, high, rain) =>
      `🌤️ الطقس في ${place} ${tomorrow ? "غدا" : "اليوم"} (${date}): ${low}-${high}°C${rain === null ? "" : `، احتمال المطر ${rain}%`}. توقعات Open-Meteo.`,
    notFound: (place) => `لم أجد مكانا اسمه ${place}. جرّب اسم بلدة أو مدينة، مثل '@ai weather kano'.`,
    tellPlace: "أخبرني بالمكان، مثل '@ai weather lagos'، أو شارك موقعك في المحادثة.",
    yourArea: "منطقتك",
  },
};

export const marketWords = (language: UiLanguage = "english"): MarketWords => MARKET[language];
export const weatherWords = (language: UiLanguage = "english"): WeatherWords => WEATHER[language];

/** Who reported a price and the day, as people read it next to the price (core/admin-schemas priceOrigin's shape). */
export function originIn(words: MarketWords, row: { source: string; updatedAt: Date }): string {
  const source = row.source === EXAMPLE_PRICE_SOURCE ? words.example : row.source;
  return `${source}, ${row.updatedAt.toISOString().slice(0, 10)}`;
}
