// The assistant's words beyond English (issue 32): how people type greetings, help, prices, weather, translation,
// first aid and emergencies in Pidgin, Hausa, Yoruba, Igbo, French and Arabic — without tone marks or accents,
// often mixed with English — and which of the seven languages a message is written in, so the answer is too.
// Matching folds the text first (foldText), so 'ẹ káàárọ̀', 'e kaaro' and 'E KAARO' are one phrase.
import type { UiLanguage } from "./i18n/languages";

/** Lower case, no accents, tone marks or Arabic vowel marks (NFD splits them off, hamza forms too), one space. */
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[’`‘]/g, "'")
    .replace(/[؟?!.,;:"“”«»()]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const ARABIC_LETTERS = /[\u0600-\u06FF]/;

/** Whole words (any script) in folded text; Arabic terms also match with a prefix ('بال', 'و'). */
function hasTerm(folded: string, term: string): boolean {
  if (ARABIC_LETTERS.test(term)) return folded.includes(term);
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "u").test(folded);
}

const anyTerm = (folded: string, terms: readonly string[]) => terms.some((t) => hasTerm(folded, t));

// Words that give a language away. Words several languages share ('na', 'a', 'ni') are left out.
const MARKERS: Record<Exclude<UiLanguage, "english" | "arabic">, string[]> = {
  pidgin: ["wetin", "dey", "go fall", "rain go", "weather be", "how e be", "how the weather be", "abeg", "una", "pikin", "sabi", "how far", "wahala", "oya", "abi", "sef", "wey", "don", "fit", "dem", "e go", "no be"],
  hausa: [
    "sannu", "yaya", "farashin", "farashi", "nawa", "zuwa", "fassara", "taimako", "taimake", "yanayi", "ruwan sama", "gobe", "wannan",
    "kake", "zan", "mene", "menene", "ake", "cewa", "barka", "jini", "gobara", "hatsari", "suma", "maciji", "ambaliya", "shinkafa",
    "masara", "kudin", "yau", "don allah", "turanci", "yarbanci", "larabci", "faransanci", "inyamuranci", "ina kwana", "lafiya", "kasuwa",
    "numfashi", "haihuwa", "nakuda", "guba", "kone", "kuna", "yaren", "harshen", "agaji", "gaggawa", "zaka", "za ka", "iya",
  ],
  yoruba: [
    "bawo", "elo", "oja", "ojo", "ola", "tumo", "ede", "kini", "lowo", "iranlowo", "e kaaro", "ekaaro", "e kaasan", "e kaale", "pele",
    "eje", "daku", "ijamba", "ejo", "iresi", "ewa", "isu", "geesi", "oyinbo", "faranse", "larubawa", "ran mi", "majele", "omiyale",
    "ina n jo", "oju ojo", "ooru", "se", "le", "mo", "lo", "fun mi", "agbado", "gbogbo", "bi", "kilode",
  ],
  igbo: [
    "ndewo", "kedu", "gini", "ego ole", "ole", "ahia", "echi", "ihu igwe", "mmiri ozuzo", "ozuzo", "nyere", "enyemaka", "obara",
    "agwo", "tugharia", "asusu", "bekee", "biko", "osikapa", "agwa", "oka", "ututu oma", "i bola chi", "ihe mberede", "onu ahia",
    "oku", "idemmiri", "ume", "nsi", "dara", "ime", "ga-esi", "esi", "asi", "nwere ike", "m ga", "unu", "onye",
  ],
  french: [
    "bonjour", "salut", "bonsoir", "les", "du", "des", "est", "combien", "prix", "quel", "quelle", "temps", "meteo", "demain", "pluie",
    "pleut", "pleuvoir", "traduis", "traduire", "comment", "aide", "aidez", "moi", "je", "tu", "vous", "mon", "aux", "riz", "saigne",
    "feu", "secours", "premiers", "serpent", "inondation", "respire", "brule", "brulure", "evanoui", "que", "qu'est-ce", "peux",
    "marche", "aujourd'hui", "coute", "haricots", "igname", "il", "elle", "dit-on", "anglais", "haoussa", "arabe", "francais",
  ],
};

/** Which of the seven languages a message is in: the one with the most give-away words; English when none. */
export function askerLanguage(text: string): UiLanguage {
  if (ARABIC_LETTERS.test(text)) return "arabic";
  const folded = foldText(text);
  let best: { language: UiLanguage; hits: number } = { language: "english", hits: 0 };
  for (const [language, words] of Object.entries(MARKERS) as [UiLanguage, string[]][]) {
    const hits = words.filter((w) => hasTerm(folded, w)).length;
    if (hits > best.hits) best = { language, hits };
  }
  return best.language;
}

/** Language names as people type them in the seven languages, folded, by ISO code of the translation language. */
export const LANGUAGE_NAMES_TYPED: Record<string, "en" | "ha" | "ig" | "yo" | "sw" | "fr" | "ar"> = {
  // Hausa
  turanci: "en", ingilishi: "en", yarbanci: "yo", yarabanci: "yo", inyamuranci: "ig", ibo: "ig", larabci: "ar", faransanci: "fr",
  hausanci: "ha", swahilanci: "sw",
  // Yoruba
  geesi: "en", oyinbo: "en", faranse: "fr", larubawa: "ar", "yoruba": "yo",
  // Igbo
  bekee: "en", "asusu bekee": "en", french: "fr", arabik: "ar",
  // French
  anglais: "en", haoussa: "ha", haousa: "ha", arabe: "ar", francais: "fr", swahili: "sw",
  // Pidgin
  pidgin: "en", oyibo: "en",
  // Arabic (with and without the article; the prefix 'ب' or 'بال' is taken off first)
  الانجليزية: "en", الانجليزيه: "en", انجليزي: "en", انجليزية: "en", الانكليزية: "en", الهوسا: "ha", هوسا: "ha", اليوروبا: "yo",
  يوروبا: "yo", الايغبو: "ig", ايغبو: "ig", الايجبو: "ig", الفرنسية: "fr", الفرنسيه: "fr", فرنسي: "fr", فرنسية: "fr", العربية: "ar",
  عربي: "ar", السواحيلية: "sw", سواحيلي: "sw",
};

export function typedLanguageName(word: string): "en" | "ha" | "ig" | "yo" | "sw" | "fr" | "ar" | null {
  const key = foldText(word);
  if (key in LANGUAGE_NAMES_TYPED) return LANGUAGE_NAMES_TYPED[key];
  if (ARABIC_LETTERS.test(key)) {
    for (const prefix of ["بال", "لل", "ب", "ل"]) {
      const bare = key.startsWith(prefix) ? key.slice(prefix.length) : null;
      if (bare && (bare in LANGUAGE_NAMES_TYPED || `ال${bare}` in LANGUAGE_NAMES_TYPED))
        return LANGUAGE_NAMES_TYPED[bare] ?? LANGUAGE_NAMES_TYPED[`ال${bare}`];
    }
  }
  return null;
}

/** Greetings, alone or starting a message ('sannu', 'how far', 'bonjour', 'السلام عليكم'). */
export const GREETINGS = [
  "hello", "hi", "hey", "good morning", "good afternoon", "good evening", "how far", "how body", "how you dey", "how una dey",
  "sannu", "sannu da zuwa", "ina kwana", "barka da safiya", "barka da rana", "barka da yamma", "yaya dai", "salama alaikum",
  "e kaaro", "ekaaro", "e kaasan", "e kaale", "bawo ni", "bawo", "pele", "e nle", "ndewo", "kedu", "ututu oma", "i bola chi",
  "bonjour", "salut", "bonsoir", "coucou", "salam", "salam alaikum", "assalamu alaikum",
  "السلام عليكم", "سلام", "مرحبا", "اهلا", "اهلا وسهلا", "صباح الخير", "مساء الخير",
];

/** Asking what the assistant does, in each language (folded, whole message). */
export const HELP_WORDS = [
  // Pidgin
  "wetin you fit do", "wetin you fit do for me", "wetin u fit do", "wetin you sabi", "wetin i fit ask you", "how i go use you",
  "how i fit use you", "abeg help me", "help me abeg",
  // Hausa
  "taimako", "taimake ni", "ka taimake ni", "me zaka iya yi", "me za ka iya yi", "me zaki iya yi", "mene ne zaka iya yi",
  "yaya zan yi amfani da kai", "me zan tambaye ka",
  // Yoruba
  "iranlowo", "ran mi lowo", "kini o le se", "ki lo le se", "kini o le se fun mi", "bawo ni mo se le lo e",
  // Igbo
  "enyemaka", "nyere m aka", "gini ka i nwere ike ime", "gini ka i ga-eme", "gini ka i nwere ike ime maka m", "kedu ka m ga-esi jiri gi",
  // French
  "aide", "aide moi", "aide-moi", "aidez-moi", "que peux-tu faire", "que sais-tu faire", "qu'est-ce que tu sais faire",
  "qu'est-ce que tu peux faire", "comment t'utiliser", "menu",
  // Arabic
  "مساعدة", "ساعدني", "ماذا تستطيع ان تفعل", "ماذا يمكنك ان تفعل", "ماذا تفعل", "كيف استخدمك",
];

/** Emergencies and first aid in progress: the vetted steps at once (workers/assistant/offline.ts). */
export const SITUATION_WORDS = [
  // Pidgin
  "dey bleed", "no dey breathe", "dey born", "don faint", "fire dey burn", "accident don happen", "snake bite", "e don collapse",
  // Hausa
  "jini", "zubar jini", "gobara", "hatsari", "ya suma", "ta suma", "suma", "maciji", "ambaliya", "baya numfashi", "ba ya numfashi",
  "nakuda", "guba", "kuna", "ya kone", "ta kone", "agajin gaggawa", "taimakon gaggawa", "gaggawa",
  // Yoruba
  "eje", "o daku", "daku", "ina n jo", "ijamba", "ejo bu", "ejo", "omiyale", "ko le mi", "ko mi", "majele", "ina jo", "pajawiri",
  // Igbo
  "obara", "oku na-agba", "oku", "ihe mberede", "agwo", "idemmiri", "anaghi eku ume", "ada n'ala", "nsi", "o dara",
  // French
  "saigne", "sang", "evanoui", "evanouie", "evanouis", "s'est evanoui", "s'est evanouie", "brule", "brulure", "feu", "incendie", "accident", "serpent", "inondation",
  "respire plus", "ne respire pas", "etouffe", "poison", "empoisonne", "accouche", "premiers secours", "urgence",
  // Arabic
  "نزيف", "ينزف", "دم", "اغمي", "اغماء", "حريق", "نار", "حادث", "ثعبان", "افعى", "فيضان", "لا يتنفس", "حروق", "حرق", "تسمم",
  "اسعافات اولية", "اسعاف", "ولادة", "طوارئ", "اختناق",
];

export const WEATHER_TERMS = [
  "yanayi", "ruwan sama", "zafi", "sanyi", "oju ojo", "ojo", "ooru", "ihu igwe", "mmiri ozuzo", "okpomoku", "meteo", "temps",
  "pluie", "pleut", "pleuvoir", "il fera", "الطقس", "طقس", "مطر", "تمطر", "حرارة", "درجة الحرارة",
];
export const TOMORROW_TERMS = ["gobe", "ola", "lola", "echi", "demain", "غدا", "بكرة"];

export const PRICE_TERMS = [
  "farashin", "farashi", "nawa", "kudin", "elo ni", "elo", "owo", "iye", "ego ole", "ole", "onu ahia", "prix", "combien", "coute",
  "cout", "tarif", "سعر", "اسعار", "بكم", "كم سعر", "كم ثمن", "ثمن",
];

/** Commodity names in the other languages, as the market table spells them in English. */
export const COMMODITY_WORDS: Record<string, string> = {
  shinkafa: "rice", iresi: "rice", osikapa: "rice", riz: "rice", ارز: "rice", رز: "rice", الارز: "rice", الرز: "rice",
  wake: "beans", ewa: "beans", agwa: "beans", haricots: "beans", haricot: "beans", فاصوليا: "beans", الفاصوليا: "beans",
  doya: "yam", isu: "yam", ji: "yam", igname: "yam", ignames: "yam",
  tumatur: "tomato", tumati: "tomato", tomati: "tomato", tomate: "tomato", tomates: "tomato", طماطم: "tomato", الطماطم: "tomato",
  masara: "maize", agbado: "maize", oka: "maize", mais: "maize", ذرة: "maize", الذرة: "maize",
  albasa: "onions", alubosa: "onions", yabasi: "onions", oignon: "onions", oignons: "onions", بصل: "onions", البصل: "onions",
  barkono: "pepper", ata: "pepper", ose: "pepper", piment: "pepper", فلفل: "pepper",
};

/** Words around a price or weather request that name neither a thing nor a place. */
export const FILLER_WORDS = new Set(
  (
    "farashin farashi nawa ne ce kudin a da na yau gobe a kasuwar kasuwa don allah ina yaya yanayi ruwan sama zai yi zafi sanyi " +
    "elo ni owo oja ojo oju ola lola loni ooru iye ti ati fun mi bawo se ri " +
    "ego ole ka onu ahia n'ahia na taa echi ihu igwe mmiri ozuzo ga-ezo ga ezo okpomoku biko kedu ka di " +
    "prix du de la le les des combien coute cout tarif au a aux marche quel quelle est fait fera il temps meteo pluie pleut pleuvoir " +
    "demain aujourd'hui en sur va t-il fait-il fera-t-il y a-t-il est-ce qu'il qu'elle " +
    "maa ro yoo ti o se " +
    "ستمطر يمطر سيكون هل " +
    "سعر اسعار بكم كم ثمن في السوق سوق اليوم غدا الطقس طقس مطر تمطر هل حرارة درجة الحرارة ما هو هي كيف"
  ).split(" "),
);

/** The seven languages' words for translating, and how each joins the text to the language. */
export const TRANSLATE_PATTERNS: RegExp[] = [
  // Hausa: 'fassara na gode zuwa turanci', 'yaya ake cewa thank you da yarbanci'
  /^(?:fassara|fassarar|ka fassara)\s+(.+?)\s+(?:zuwa|da|a)\s+(?:harshen\s+|yaren\s+)?(\S+)$/u,
  /^(?:yaya|ya|me|mene|menene)\s+(?:ne\s+)?ake\s+cewa\s+(.+?)\s+(?:da|a)\s+(?:harshen\s+|yaren\s+)?(\S+)$/u,
  // Yoruba: 'tumo e se si geesi', 'bawo ni a se n so thank you ni hausa'
  /^(?:tumo|se itumo)\s+(.+?)\s+(?:si|ni)\s+(?:ede\s+)?(\S+)$/u,
  /^bawo\s+ni\s+(?:a\s+)?(?:se\s+)?(?:n\s+|ma\s+|le\s+)?(?:so|wi|pe)\s+(.+?)\s+ni\s+(?:ede\s+)?(\S+)$/u,
  /^kini\s+(.+?)\s+ni\s+(?:ede\s+)?(\S+)$/u,
  // Igbo: 'tugharia daalu gaa na bekee', 'kedu ka esi asi thank you na yoruba'
  /^(?:tugharia|sughari|tughari)\s+(.+?)\s+(?:gaa\s+na|na|n')\s*(?:asusu\s+)?(\S+)$/u,
  /^kedu\s+ka\s+(?:esi|e\s+si|a\s+si|m\s+ga-esi)\s+(?:asi|ekwu|kwuo|ekwu)\s+(.+?)\s+(?:na|n')\s*(?:asusu\s+)?(\S+)$/u,
  /^gini\s+bu\s+(.+?)\s+na\s+(?:asusu\s+)?(\S+)$/u,
  // French: 'traduis merci en haoussa', 'comment dit-on bonjour en yoruba'
  /^(?:traduis|traduire|traduit|traduisez|traduction de)\s+(.+?)\s+(?:en|vers l'|vers le|vers)\s*(\S+)$/u,
  /^comment\s+(?:dit-on|on dit|dire|dit on|je dis|dire)\s+(.+?)\s+en\s+(\S+)$/u,
  // Arabic: 'ترجم شكرا الى الهوسا', 'كيف اقول شكرا بالفرنسية'
  /^(?:ترجم|ترجمة|ترجملي|ترجم لي)\s+(.+?)\s+(?:الى|لل|ل)\s*(?:اللغة\s+)?(\S+)$/u,
  /^(?:ترجم|ترجمة)\s+(.+?)\s+(\S+)$/u,
  /^كيف\s+(?:اقول|نقول|تقول|يقال)\s+(.+?)\s+(\S+)$/u,
];
