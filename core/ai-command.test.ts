import { describe, expect, it } from "vitest";
import { extractAiText, findPremiumKeyword, parseAiCommand, resolveLanguage } from "./ai-command";
import { answerLanguage, askerLanguage } from "./ai-languages";

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
    ["hello", { kind: "greeting" }],
    ["what is the dollar rate today", question("what is the dollar rate today")],
  ])("%j", (input, expected) => {
    expect(parseAiCommand(input)).toEqual(expected);
  });
});

// The same requests in the six other languages, typed as people type them: no tone marks or accents, mixed with
// English (issue 32). Each row also names the language the answer must come in.
describe("parseAiCommand understands Pidgin, Hausa, Yoruba, Igbo, French and Arabic, and knows which it is", () => {
  const market = (query: string) => ({ kind: "market", query });
  const weather = (place: string, day?: "tomorrow") => (day ? { kind: "weather", place, day } : { kind: "weather", place });
  const translate = (text: string, target: string) => ({ kind: "translate", text, target });
  const emergency = (situation: string) => ({ kind: "emergency", situation });
  const help = { kind: "help" };
  const greeting = { kind: "greeting" };
  it.each([
    // Pidgin
    ["how far", greeting, "pidgin"],
    ["how far, wetin you fit do for me?", help, "pidgin"],
    ["wetin you sabi", help, "pidgin"],
    ["abeg how much be rice for kano", market("rice kano"), "pidgin"],
    ["wetin be price of garri for ibadan", market("garri ibadan"), "pidgin"],
    ["how much dem dey sell beans for abuja", market("beans abuja"), "pidgin"],
    ["rain go fall tomorrow for lagos?", weather("lagos", "tomorrow"), "pidgin"],
    ["how the weather be for abuja", weather("abuja"), "pidgin"],
    ["how dem dey talk thank you for yoruba", translate("thank you", "yo"), "pidgin"],
    ["wetin be good morning for igbo", translate("good morning", "ig"), "pidgin"],
    ["my pikin dey bleed", emergency("my pikin dey bleed"), "pidgin"],
    ["person no dey breathe abeg", emergency("person no dey breathe abeg"), "pidgin"],
    ["my wife dey born", emergency("my wife dey born"), "pidgin"],
    ["abeg fire dey burn for our street", emergency("fire dey burn for our street"), "pidgin"],
    ["snake don bite my pikin", emergency("snake don bite my pikin"), "pidgin"],
    ["how body, wetin you fit do", help, "pidgin"],
    // Hausa
    ["sannu", greeting, "hausa"],
    ["ina kwana lia", greeting, "hausa"],
    ["me zaka iya yi", help, "hausa"],
    ["taimako", help, "hausa"],
    ["farashin shinkafa a Kano?", market("rice Kano"), "hausa"],
    ["nawa ne farashin wake a kasuwar Kaduna", market("beans Kaduna"), "hausa"],
    ["sannu, farashin masara a Zaria", market("maize Zaria"), "hausa"],
    ["yaya yanayi a Kano yau", weather("Kano"), "hausa"],
    ["ruwan sama zai yi gobe a Kano?", weather("Kano", "tomorrow"), "hausa"],
    ["fassara na gode zuwa turanci", translate("na gode", "en"), "hausa"],
    ["fassara good morning zuwa yarbanci", translate("good morning", "yo"), "hausa"],
    ["yaya ake cewa thank you da larabci", translate("thank you", "ar"), "hausa"],
    ["jini yana zuba daga kansa", emergency("jini yana zuba daga kansa"), "hausa"],
    ["gobara a kasuwa", emergency("gobara a kasuwa"), "hausa"],
    ["maciji ya sari dan uwana", emergency("maciji ya sari dan uwana"), "hausa"],
    ["ya suma, don allah taimako", emergency("ya suma, don allah taimako"), "hausa"],
    // Yoruba
    ["e kaaro", greeting, "yoruba"],
    ["bawo ni", greeting, "yoruba"],
    ["kini o le se", help, "yoruba"],
    ["ran mi lowo", help, "yoruba"],
    ["elo ni iresi ni oja Ibadan", market("rice Ibadan"), "yoruba"],
    ["elo ni ewa loni", market("beans"), "yoruba"],
    ["owo isu ni Oyo", market("yam Oyo"), "yoruba"],
    ["bawo ni oju ojo ni Ibadan", weather("Ibadan"), "yoruba"],
    ["se ojo maa ro lola ni Eko", weather("Eko", "tomorrow"), "yoruba"],
    ["tumo e se si geesi", translate("e se", "en"), "yoruba"],
    ["bawo ni a se n so thank you ni hausa", translate("thank you", "ha"), "yoruba"],
    ["kini good night ni ede igbo", translate("good night", "ig"), "yoruba"],
    ["eje n jade lara omo mi", emergency("eje n jade lara omo mi"), "yoruba"],
    ["o daku ni oja", emergency("o daku ni oja"), "yoruba"],
    ["ina n jo ni ile wa", emergency("ina n jo ni ile wa"), "yoruba"],
    ["ejo bu omo mi je", emergency("ejo bu omo mi je"), "yoruba"],
    // Igbo
    ["ndewo", greeting, "igbo"],
    ["kedu", greeting, "igbo"],
    ["gini ka i nwere ike ime", help, "igbo"],
    ["nyere m aka", help, "igbo"],
    ["ego ole ka osikapa di na Enugu", market("rice Enugu"), "igbo"],
    ["onu ahia ji na Onitsha", market("yam Onitsha"), "igbo"],
    ["ego ole ka agwa di taa", market("beans"), "igbo"],
    ["kedu ihu igwe na Enugu", weather("Enugu"), "igbo"],
    ["mmiri ozuzo ga-ezo echi na Owerri?", weather("Owerri", "tomorrow"), "igbo"],
    ["tugharia daalu gaa na bekee", translate("daalu", "en"), "igbo"],
    ["kedu ka esi asi thank you na yoruba", translate("thank you", "yo"), "igbo"],
    ["gini bu good morning na hausa", translate("good morning", "ha"), "igbo"],
    ["obara na-agba nwa m", emergency("obara na-agba nwa m"), "igbo"],
    ["oku na-agba n'ulo anyi", emergency("oku na-agba n'ulo anyi"), "igbo"],
    ["agwo tara nwanne m", emergency("agwo tara nwanne m"), "igbo"],
    ["ihe mberede n'okporo uzo", emergency("ihe mberede n'okporo uzo"), "igbo"],
    // French (people type without accents)
    ["bonjour", greeting, "french"],
    ["salut lia", greeting, "french"],
    ["que peux-tu faire", help, "french"],
    ["aide moi", help, "french"],
    ["prix du riz a Kano", market("rice Kano"), "french"],
    ["combien coute le mais a Lagos", market("maize Lagos"), "french"],
    ["bonjour, prix des haricots a Abuja?", market("beans Abuja"), "french"],
    ["quel temps fait-il a Lagos demain", weather("Lagos", "tomorrow"), "french"],
    ["meteo Abuja", weather("Abuja"), "french"],
    ["est-ce qu'il va pleuvoir demain a Kano", weather("Kano", "tomorrow"), "french"],
    ["traduis merci en haoussa", translate("merci", "ha"), "french"],
    ["comment dit-on bonjour en yoruba", translate("bonjour", "yo"), "french"],
    ["traduire good night en arabe", translate("good night", "ar"), "french"],
    ["mon enfant saigne", emergency("mon enfant saigne"), "french"],
    ["il y a le feu au marche", emergency("il y a le feu au marche"), "french"],
    ["elle s'est evanouie", emergency("elle s'est evanouie"), "french"],
    ["premiers secours pour une brulure", emergency("premiers secours pour une brulure"), "french"],
    // Arabic
    ["السلام عليكم", greeting, "arabic"],
    ["مرحبا", greeting, "arabic"],
    ["ماذا تستطيع ان تفعل؟", help, "arabic"],
    ["مساعدة", help, "arabic"],
    ["كم سعر الارز في كانو؟", market("rice كانو"), "arabic"],
    ["سعر الطماطم في lagos", market("tomato lagos"), "arabic"],
    ["بكم الفاصوليا اليوم", market("beans"), "arabic"],
    ["الطقس في كانو", weather("كانو"), "arabic"],
    ["هل ستمطر غدا في lagos", weather("lagos", "tomorrow"), "arabic"],
    ["ترجم شكرا الى الهوسا", translate("شكرا", "ha"), "arabic"],
    ["كيف اقول شكرا باليوروبا", translate("شكرا", "yo"), "arabic"],
    ["ترجم good morning الى الانجليزية", translate("good morning", "en"), "arabic"],
    ["ابني ينزف", emergency("ابني ينزف"), "arabic"],
    ["حريق في السوق", emergency("حريق في السوق"), "arabic"],
    ["اغمي على رجل", emergency("اغمي على رجل"), "arabic"],
    ["ثعبان لدغ اخي", emergency("ثعبان لدغ اخي"), "arabic"],
  ])("%j", (input, expected, language) => {
    expect(parseAiCommand(input)).toEqual(expected);
    expect(askerLanguage(input)).toBe(language);
  });
});

describe("answerLanguage: the message's language, else the person's own for a bare command", () => {
  it.each([
    ["help", "hausa", "hausa"],
    ["market rice kano", "arabic", "arabic"],
    ["what is the price of rice", "hausa", "english"],
    ["farashin shinkafa", "english", "hausa"],
    ["ترجم شكرا الى الهوسا", "french", "arabic"],
    ["help", "english", "english"],
  ] as const)("%j with the setting %s -> %s", (text, setting, expected) => {
    expect(answerLanguage(text, setting)).toBe(expected);
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
    ["yarbanci", "yo"],
    ["geesi", "en"],
    ["bekee", "en"],
    ["anglais", "en"],
    ["الهوسا", "ha"],
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
