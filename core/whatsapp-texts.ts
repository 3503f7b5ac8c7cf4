// What the WhatsApp bot says, in the five channel languages. Command words (HELP, SOS, LANG, STOP, START,
// @ai) stay the same in every language so they can be typed from any phone.
import { CHANNEL_LANGUAGE_NAMES, CHANNEL_LANGUAGES, type ChannelLanguage, fill } from "./ussd-texts";

export interface WhatsAppTexts {
  help: string;
  stopped: string;
  started: string;
  /** {lang} */
  langSet: string;
  /** {langs} */
  langList: string;
  sosNeedsLocation: string;
  sosAck: string;
  /** {people} {contacts} */
  sosSent: string;
  /** {error} */
  sosFailed: string;
  locationSaved: string;
  media: string;
  other: string;
  verified: string;
  thinking: string;
  /** How to report a price (docs/decisions/068-market-prices-people-report.md); also the answer to a report it cannot read. */
  priceUsage: string;
  /** {quote}: the report is in; what its item is quoted at now. */
  priceThanks: string;
  /** {points} */
  pricePoints: string;
  priceTooMany: string;
  /** The answer to a suspended phone for anything but SOS, a location and STOP/START (docs/decisions/025-bans.md). */
  suspended: string;
}

const english: WhatsAppTexts = {
  help: [
    "LinkUp on WhatsApp:",
    "• @ai <question> – ask the assistant (e.g. @ai translate good morning to hausa, @ai market rice kano)",
    "• SOS <what happened> – alert people near you (share your location first)",
    "• PRICE <item> <unit> <price> <market> – report a price you saw (e.g. PRICE rice 50kg 78000 Mile 12); PRICE rice – the prices people reported",
    "• 6-digit code – link this number to LinkUp (to sign in on the web, type it in your browser)",
    "• LANG <English|Hausa|Yoruba|Igbo|Pidgin> – my language",
    "• STOP / START – stop or resume messages",
    "In danger? Call 112 or 199.",
  ].join("\n"),
  stopped: "You will get no more messages from LinkUp. Send START to come back.",
  started: "Welcome back to LinkUp. Send HELP to see what I can do.",
  langSet: "Language set: {lang}.",
  langList: "Send LANG and one of: {langs}.",
  sosNeedsLocation:
    "To send your SOS I need your location: tap 📎 → Location → Send your current location. Your SOS goes out as soon as it arrives. In danger now? Call 112 or 199.",
  sosAck: "🚨 Sending your SOS now. In danger? Call 112 or 199.",
  sosSent:
    "✅ SOS sent. Nearby with LinkUp open or by push alert: {people}. Contacts reached: {contacts}. Call 112 or 199 if you have not.",
  sosFailed: "We could not send your SOS: {error} Call 112 or 199 now.",
  locationSaved: "📍 Location saved. Send SOS and a few words to alert people near you.",
  media: "I can read text messages and locations, not files or voice notes yet. Send HELP for the commands.",
  other: "I did not understand. Send @ai and your question (e.g. @ai market rice kano), SOS in an emergency, or HELP.",
  verified:
    "✅ This WhatsApp number is now linked to LinkUp. Nobody was signed in on the web: the code works there only in the browser that asked for it. If you did not ask for a code, ignore it.",
  thinking: "🤖 Thinking… the answer follows in a moment.",
  priceUsage: "To report a price, send PRICE, the item, the unit, the price in naira and the market, e.g. PRICE rice 50kg 78000 Mile 12.",
  priceThanks: "✅ Thank you, your price is in. Now: {quote}",
  pricePoints: "You earned {points} points.",
  priceTooMany: "You have reported the most prices for today. Try again tomorrow.",
  suspended:
    "This account is suspended. Contact LinkUp support if you think this is a mistake. SOS still works: send SOS and a few words. In danger? Call 112 or 199.",
};

const hausa: WhatsAppTexts = {
  help: [
    "LinkUp a WhatsApp:",
    "• @ai <tambaya> – tambayi mataimaki (misali @ai market rice kano)",
    "• SOS <abin da ya faru> – sanar da mutanen kusa (aika wurinka da farko)",
    "• PRICE <kaya> <ma'auni> <farashi> <kasuwa> – bayar da farashin da ka gani (misali PRICE rice 50kg 78000 Mile 12)",
    "• Lamba mai lamba 6 – hada wannan lamba da LinkUp (don shiga yanar gizo, rubuta ta a burauzarka)",
    "• LANG <English|Hausa|Yoruba|Igbo|Pidgin> – harshe",
    "• STOP / START – dakatar ko ci gaba da sakonni",
    "Kana cikin hadari? Kira 112 ko 199.",
  ].join("\n"),
  stopped: "Ba za ka sake samun sako daga LinkUp ba. Aika START don dawowa.",
  started: "Barka da dawowa LinkUp. Aika HELP don ganin abin da zan iya yi.",
  langSet: "An saita harshe: {lang}.",
  langList: "Aika LANG da daya daga cikin: {langs}.",
  sosNeedsLocation:
    "Don aika SOS dinka ina bukatar wurinka: danna 📎 → Location → aika wurinka na yanzu. SOS dinka zai tafi da zarar ya iso. Kana cikin hadari? Kira 112 ko 199.",
  sosAck: "🚨 Ana aika SOS dinka yanzu. Kana cikin hadari? Kira 112 ko 199.",
  sosSent:
    "✅ An aika SOS. Na kusa masu LinkUp a bude ko sanarwar push: {people}. Abokan hulda: {contacts}. Kira 112 ko 199 idan ba ka yi ba.",
  sosFailed: "Ba mu iya aika SOS dinka ba: {error} Kira 112 ko 199 yanzu.",
  locationSaved: "📍 An ajiye wurinka. Aika SOS da 'yan kalmomi don sanar da mutanen kusa.",
  media: "Ina karanta sakonnin rubutu da wuri kawai, ba fayiloli ko sakon murya ba tukuna. Aika HELP.",
  other: "Ban gane ba. Aika @ai da tambayarka, SOS idan akwai gaggawa, ko HELP.",
  verified:
    "✅ An hada wannan lambar WhatsApp da LinkUp. Ba a shigar da kowa a yanar gizo ba: lambar tana aiki ne kawai a burauzar da ta nema. Idan ba kai ka nema ba, ka yi watsi da ita.",
  thinking: "🤖 Ina tunani… amsar na zuwa nan ba da jimawa ba.",
  priceUsage: "Don bayar da farashi, aika PRICE, kayan, ma'auni, farashi a naira da kasuwa, misali PRICE rice 50kg 78000 Mile 12.",
  priceThanks: "✅ Na gode, an karbi farashinka. Yanzu: {quote}",
  pricePoints: "Ka sami maki {points}.",
  priceTooMany: "Ka kai iyakar farashin da za ka bayar yau. Gwada gobe.",
  suspended:
    "An dakatar da asusunka na LinkUp. Tuntubi tallafin LinkUp idan kana ganin kuskure ne. SOS yana aiki: aika SOS da 'yan kalmomi. Kana cikin hadari? Kira 112 ko 199.",
};

const yoruba: WhatsAppTexts = {
  help: [
    "LinkUp lori WhatsApp:",
    "• @ai <ibeere> – bi oluranlowo (apere @ai market rice kano)",
    "• SOS <ohun to sele> – so fun awon to wa nitosi (fi ipo re ranse ni akoko)",
    "• PRICE <oja> <iwon> <owo> <oja nla> – so owo ti o ri (apere PRICE rice 50kg 78000 Mile 12)",
    "• Koodu oninomba 6 – so nomba yii mo LinkUp (lati wole lori web, ko o sinu burausa re)",
    "• LANG <English|Hausa|Yoruba|Igbo|Pidgin> – ede",
    "• STOP / START – da awon ifiranse duro tabi bere pada",
    "Ewu? Pe 112 tabi 199.",
  ].join("\n"),
  stopped: "O ko ni gba ifiranse kankan lati LinkUp mo. Fi START ranse lati pada.",
  started: "E kaabo pada si LinkUp. Fi HELP ranse lati ri ohun ti mo le se.",
  langSet: "A ti yan ede: {lang}.",
  langList: "Fi LANG ranse pelu okan ninu: {langs}.",
  sosNeedsLocation:
    "Lati fi SOS re ranse, mo nilo ipo re: te 📎 → Location → fi ipo re lowolowo ranse. SOS re yoo lo ni kete ti o ba de. Ewu? Pe 112 tabi 199.",
  sosAck: "🚨 A n fi SOS re ranse bayi. Ewu? Pe 112 tabi 199.",
  sosSent:
    "✅ SOS ti lo. Awon nitosi ti LinkUp won si sile tabi ti o gba push: {people}. Olubasoro: {contacts}. Pe 112 tabi 199 ti o ko ba ti pe.",
  sosFailed: "A ko le fi SOS re ranse: {error} Pe 112 tabi 199 bayi.",
  locationSaved: "📍 A ti fi ipo re pamo. Fi SOS ati oro die ranse lati so fun awon to wa nitosi.",
  media: "Mo le ka ifiranse oro ati ipo nikan, ki i se faili tabi ohun. Fi HELP ranse.",
  other: "Ko ye mi. Fi @ai ati ibeere re ranse, SOS ni pajawiri, tabi HELP.",
  verified:
    "✅ A ti so nomba WhatsApp yii mo LinkUp. Ko si eni ti o wole lori web: koodu n sise nikan ninu burausa ti o beere fun un. Ti kii ba se iwo lo beere, ma bikita.",
  thinking: "🤖 Mo n ronu… idahun n bo laipe.",
  priceUsage: "Lati so owo oja, fi PRICE, oja naa, iwon, owo ni naira ati oja nla ranse, apere PRICE rice 50kg 78000 Mile 12.",
  priceThanks: "✅ E se, a ti gba owo ti o so. Bayi: {quote}",
  pricePoints: "O gba ami {points}.",
  priceTooMany: "O ti so owo to po julo fun oni. Gbiyanju lola.",
  suspended:
    "A ti da akanti LinkUp re duro. Kan si atileyin LinkUp ti o ba ro pe asise ni. SOS si n sise: fi SOS ati oro die ranse. Ninu ewu? Pe 112 tabi 199.",
};

const igbo: WhatsAppTexts = {
  help: [
    "LinkUp na WhatsApp:",
    "• @ai <ajuju> – juo onye enyemaka (dika @ai market rice kano)",
    "• SOS <ihe mere> – gwa ndi no nso (zitere ebe i no mbu)",
    "• PRICE <ngwa> <otu> <ego> <ahia> – kowaa onu ahia i huru (dika PRICE rice 50kg 78000 Mile 12)",
    "• Koodu onu ogugu 6 – jikota nomba a na LinkUp (iji banye na web, dee ya na ihe nchogha gi)",
    "• LANG <English|Hausa|Yoruba|Igbo|Pidgin> – asusu",
    "• STOP / START – kwusi ma o bu malite ozi ozo",
    "No na nsogbu? Kpoo 112 ma o bu 199.",
  ].join("\n"),
  stopped: "I gaghi enweta ozi ozo site na LinkUp. Ziga START ka i laghachi.",
  started: "Nnoo ozo na LinkUp. Ziga HELP ka i hu ihe m nwere ike ime.",
  langSet: "Edoziri asusu: {lang}.",
  langList: "Ziga LANG na otu n'ime: {langs}.",
  sosNeedsLocation:
    "Iji ziga SOS gi, achoro m ebe i no: pia 📎 → Location → ziga ebe i no ugbu a. SOS gi ga-apu ozugbo o rutere. No na nsogbu? Kpoo 112 ma o bu 199.",
  sosAck: "🚨 A na-ezipu SOS gi ugbu a. No na nsogbu? Kpoo 112 ma o bu 199.",
  sosSent:
    "✅ E zigara SOS. Ndi no nso meghere LinkUp ma o bu nwetara push: {people}. Ndi enyi: {contacts}. Kpoo 112 ma o bu 199 ma i kpobeghi.",
  sosFailed: "Anyi enweghi ike iziga SOS gi: {error} Kpoo 112 ma o bu 199 ugbu a.",
  locationSaved: "📍 Echekwara ebe i no. Ziga SOS na okwu ole na ole iji gwa ndi no nso.",
  media: "Ana m agu ozi ederede na ebe i no naani, o bughi faili ma o bu olu. Ziga HELP.",
  other: "Aghotaghi m. Ziga @ai na ajuju gi, SOS n'oge mberede, ma o bu HELP.",
  verified:
    "✅ Ejikotala nomba WhatsApp a na LinkUp. Onweghi onye banyere na web: koodu na-aru naani na ihe nchogha nke rioro ya. O buru na obughi gi rioro ya, hapu ya.",
  thinking: "🤖 Ana m eche… aziza na-abia n'oge na-adighi anya.",
  priceUsage: "Iji kowaa onu ahia, ziga PRICE, ngwa ahu, otu, ego na naira na ahia, dika PRICE rice 50kg 78000 Mile 12.",
  priceThanks: "✅ Daalu, anabatara onu ahia gi. Ugbu a: {quote}",
  pricePoints: "I nwetara akara {points}.",
  priceTooMany: "I kowaala onu ahia kacha nke taa. Nwaa echi.",
  suspended:
    "Akwusitela akaunti LinkUp gi. Kpoturu nkwado LinkUp ma i chere na o bu njehie. SOS ka na-aru oru: ziga SOS na okwu ole na ole. I no na nsogbu? Kpoo 112 ma o bu 199.",
};

const pidgin: WhatsAppTexts = {
  help: [
    "LinkUp for WhatsApp:",
    "• @ai <question> – ask di helper (like @ai market rice kano)",
    "• SOS <wetin happen> – tell people wey dey near you (send your location first)",
    "• PRICE <item> <unit> <price> <market> – report price wey you see (like PRICE rice 50kg 78000 Mile 12)",
    "• 6-digit code – link dis number to LinkUp (to sign in for web, type am for your browser)",
    "• LANG <English|Hausa|Yoruba|Igbo|Pidgin> – language",
    "• STOP / START – stop or start messages again",
    "Wahala dey? Call 112 or 199.",
  ].join("\n"),
  stopped: "You no go get any message from LinkUp again. Send START to come back.",
  started: "Welcome back to LinkUp. Send HELP to see wetin I fit do.",
  langSet: "Language don set: {lang}.",
  langList: "Send LANG plus one of: {langs}.",
  sosNeedsLocation:
    "To send your SOS I need your location: press 📎 → Location → send your current location. Your SOS go comot as e land. Wahala dey now? Call 112 or 199.",
  sosAck: "🚨 We dey send your SOS now. Wahala dey? Call 112 or 199.",
  sosSent:
    "✅ SOS don go. People wey dey near wey open LinkUp or get push: {people}. Contacts: {contacts}. Call 112 or 199 if you never call.",
  sosFailed: "We no fit send your SOS: {error} Call 112 or 199 now now.",
  locationSaved: "📍 Your location don save. Send SOS plus small words to tell people wey dey near you.",
  media: "I fit read text and location only, no be file or voice note yet. Send HELP.",
  other: "I no understand. Send @ai plus your question, SOS for emergency, or HELP.",
  verified:
    "✅ Dis WhatsApp number don link to LinkUp. Nobody sign in for web: di code dey work only for di browser wey ask for am. If no be you ask, ignore am.",
  thinking: "🤖 I dey think… answer dey come small time.",
  priceUsage: "To report price, send PRICE, di item, di unit, di price for naira and di market, like PRICE rice 50kg 78000 Mile 12.",
  priceThanks: "✅ Thank you, your price don enter. Now: {quote}",
  pricePoints: "You don get {points} points.",
  priceTooMany: "You don report di most price for today. Try again tomorrow.",
  suspended:
    "Dem don suspend your LinkUp account. Contact LinkUp support if you think say na mistake. SOS still dey work: send SOS plus small words. You dey danger? Call 112 or 199.",
};

export const WHATSAPP_TEXTS: Record<ChannelLanguage, WhatsAppTexts> = { english, hausa, yoruba, igbo, pidgin };

export function langListText(t: WhatsAppTexts): string {
  return fill(t.langList, { langs: CHANNEL_LANGUAGES.map((l) => CHANNEL_LANGUAGE_NAMES[l]).join(", ") });
}
