// The offline phrasebook: common phrases in the seven translation languages (docs/product/assistant.md) and Nigerian
// Pidgin (docs/decisions/062). Written by the team, not yet by native speakers (docs/i18n-review.md).
// Any direction works: a phrase is looked up in every language and answered in the target one.
import type { LanguageCode } from "../../core/ai-command";

type Entry = Record<LanguageCode, string>;

export const PHRASEBOOK: Entry[] = [
  {
    en: "Good morning",
    ha: "Barka da safiya",
    ig: "Ụtụtụ ọma",
    yo: "Ẹ káàárọ̀",
    sw: "Habari za asubuhi",
    fr: "Bonjour",
    ar: "صباح الخير",
    pcm: "Good morning o",
  },
  {
    en: "Good afternoon",
    ha: "Barka da rana",
    ig: "Ehihie ọma",
    yo: "Ẹ káàsán",
    sw: "Habari za mchana",
    fr: "Bon après-midi",
    ar: "مساء الخير",
    pcm: "Good afternoon o",
  },
  {
    en: "Good evening",
    ha: "Barka da yamma",
    ig: "Mgbede ọma",
    yo: "Ẹ káalẹ́",
    sw: "Habari za jioni",
    fr: "Bonsoir",
    ar: "مساء الخير",
    pcm: "Good evening o",
  },
  {
    en: "Good night",
    ha: "Sai da safe",
    ig: "Ka chi fo",
    yo: "Ó dàárọ̀",
    sw: "Usiku mwema",
    fr: "Bonne nuit",
    ar: "تصبح على خير",
    pcm: "Good night o, sleep well",
  },
  { en: "Hello", ha: "Sannu", ig: "Ndewo", yo: "Ẹ n lẹ́", sw: "Habari", fr: "Salut", ar: "مرحبا", pcm: "How far" },
  { en: "Welcome", ha: "Barka da zuwa", ig: "Nnọọ", yo: "Ẹ káàbọ̀", sw: "Karibu", fr: "Bienvenue", ar: "أهلا وسهلا", pcm: "You don come" },
  { en: "Thank you", ha: "Na gode", ig: "Daalụ", yo: "Ẹ ṣé", sw: "Asante", fr: "Merci", ar: "شكرا", pcm: "Tank you well well" },
  {
    en: "How are you?",
    ha: "Yaya lafiya?",
    ig: "Kedu ka ị mere?",
    yo: "Báwo ni?",
    sw: "Habari yako?",
    fr: "Comment allez-vous ?",
    ar: "كيف حالك؟",
    pcm: "How you dey?",
  },
  {
    en: "I am fine",
    ha: "Lafiya lau",
    ig: "Adị m mma",
    yo: "Mo wà dáadáa",
    sw: "Niko salama",
    fr: "Je vais bien",
    ar: "أنا بخير",
    pcm: "I dey fine",
  },
  { en: "Please", ha: "Don Allah", ig: "Biko", yo: "Ẹ jọ̀ọ́", sw: "Tafadhali", fr: "S'il vous plaît", ar: "من فضلك", pcm: "Abeg" },
  { en: "Sorry", ha: "Yi haƙuri", ig: "Ndo", yo: "Ẹ má bínú", sw: "Samahani", fr: "Désolé", ar: "آسف", pcm: "Sorry o" },
  { en: "Yes", ha: "Ee", ig: "Ee", yo: "Bẹ́ẹ̀ ni", sw: "Ndiyo", fr: "Oui", ar: "نعم", pcm: "Yes" },
  { en: "No", ha: "A'a", ig: "Mba", yo: "Rárá", sw: "Hapana", fr: "Non", ar: "لا", pcm: "No" },
  {
    en: "Goodbye",
    ha: "Sai an jima",
    ig: "Ka ọ dị",
    yo: "Ó dìgbà",
    sw: "Kwaheri",
    fr: "Au revoir",
    ar: "مع السلامة",
    pcm: "Make we see later",
  },
  { en: "Help", ha: "Taimako", ig: "Enyemaka", yo: "Ìrànlọ́wọ́", sw: "Msaada", fr: "Au secours", ar: "النجدة", pcm: "Help!" },
  {
    en: "Help me",
    ha: "Ku taimake ni",
    ig: "Nyere m aka",
    yo: "Ẹ ràn mí lọ́wọ́",
    sw: "Nisaidie",
    fr: "Aidez-moi",
    ar: "ساعدني",
    pcm: "Abeg help me",
  },
  {
    en: "Where is the hospital?",
    ha: "Ina asibiti yake?",
    ig: "Ebee ka ụlọ ọgwụ dị?",
    yo: "Níbo ni ilé ìwòsàn wà?",
    sw: "Hospitali iko wapi?",
    fr: "Où est l'hôpital ?",
    ar: "أين المستشفى؟",
    pcm: "Where hospital dey?",
  },
  {
    en: "I need a doctor",
    ha: "Ina bukatar likita",
    ig: "Achọrọ m dọkịta",
    yo: "Mo nílò dókítà",
    sw: "Nahitaji daktari",
    fr: "J'ai besoin d'un médecin",
    ar: "أحتاج إلى طبيب",
    pcm: "I need doctor",
  },
  {
    en: "Call the police",
    ha: "Kira 'yan sanda",
    ig: "Kpọọ ndị uwe ojii",
    yo: "Pe ọlọ́pàá",
    sw: "Piga simu polisi",
    fr: "Appelez la police",
    ar: "اتصل بالشرطة",
    pcm: "Call police",
  },
  { en: "Water", ha: "Ruwa", ig: "Mmiri", yo: "Omi", sw: "Maji", fr: "Eau", ar: "ماء", pcm: "Water" },
  { en: "Food", ha: "Abinci", ig: "Nri", yo: "Oúnjẹ", sw: "Chakula", fr: "Nourriture", ar: "طعام", pcm: "Chop" },
  {
    en: "How much is this?",
    ha: "Nawa ne wannan?",
    ig: "Ego ole ka ọ bụ?",
    yo: "Èló ni èyí?",
    sw: "Hii ni bei gani?",
    fr: "Combien ça coûte ?",
    ar: "بكم هذا؟",
    pcm: "How much be dis one?",
  },
  {
    en: "What is your name?",
    ha: "Yaya sunanka?",
    ig: "Kedu aha gị?",
    yo: "Kí ni orúkọ rẹ?",
    sw: "Jina lako ni nani?",
    fr: "Comment vous appelez-vous ?",
    ar: "ما اسمك؟",
    pcm: "Wetin be your name?",
  },
  {
    en: "I don't understand",
    ha: "Ban gane ba",
    ig: "Aghọtaghị m",
    yo: "Kò yé mi",
    sw: "Sielewi",
    fr: "Je ne comprends pas",
    ar: "لا أفهم",
    pcm: "E no clear me",
  },
  {
    en: "Are you safe?",
    ha: "Kana lafiya?",
    ig: "Ị nọ n'udo?",
    yo: "Ṣé o wà láìléwu?",
    sw: "Uko salama?",
    fr: "Êtes-vous en sécurité ?",
    ar: "هل أنت بأمان؟",
    pcm: "You dey safe?",
  },
];

/** Lower case, no accents or tone marks, no punctuation: how a typed phrase is matched. */
export function normalizePhrase(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const INDEX = new Map<string, { entry: Entry; language: LanguageCode }>();
for (const entry of PHRASEBOOK) {
  for (const code of Object.keys(entry) as LanguageCode[]) {
    const key = normalizePhrase(entry[code]);
    // English wins a clash (Igbo and Hausa 'Ee' both mean yes: same answer either way).
    if (!INDEX.has(key) || code === "en") INDEX.set(key, { entry, language: code });
  }
}
// Variants people type for the same English phrases.
const EN_VARIANTS: Record<string, string> = {
  "good day": "Good afternoon",
  hi: "Hello",
  thanks: "Thank you",
  "thank you very much": "Thank you",
  "how are you doing": "How are you?",
  "im fine": "I am fine",
  "i'm fine": "I am fine",
  bye: "Goodbye",
  "where is a hospital": "Where is the hospital?",
  "where is the nearest hospital": "Where is the hospital?",
  "i need help": "Help me",
  "please help": "Help me",
  "call police": "Call the police",
  "how much": "How much is this?",
  "whats your name": "What is your name?",
  "i do not understand": "I don't understand",
};
// How people often type phrases of the other languages (without tone marks, or transliterated).
const OTHER_VARIANTS: [string, string, LanguageCode][] = [
  ["e kaaro", "Good morning", "yo"],
  ["ekaaro", "Good morning", "yo"],
  ["e kaasan", "Good afternoon", "yo"],
  ["e kaale", "Good evening", "yo"],
  ["o se", "Thank you", "yo"],
  ["bawo", "How are you?", "yo"],
  ["kedu", "How are you?", "ig"],
  ["ina kwana", "Good morning", "ha"],
  ["nagode", "Thank you", "ha"],
  ["jambo", "Hello", "sw"],
  ["asante sana", "Thank you", "sw"],
  ["shukran", "Thank you", "ar"],
  ["salam", "Hello", "ar"],
  ["merci beaucoup", "Thank you", "fr"],
  ["how far", "Hello", "pcm"],
  ["abeg", "Please", "pcm"],
  ["tank you", "Thank you", "pcm"],
  ["how you dey", "How are you?", "pcm"],
  ["i dey fine", "I am fine", "pcm"],
  ["i dey kampe", "I am fine", "pcm"],
  ["abeg help me", "Help me", "pcm"],
  ["where hospital dey", "Where is the hospital?", "pcm"],
  ["wetin be your name", "What is your name?", "pcm"],
  ["e no clear me", "I don't understand", "pcm"],
  ["you dey safe", "Are you safe?", "pcm"],
];
for (const [variant, english, language] of [
  ...Object.entries(EN_VARIANTS).map(([v, e]) => [v, e, "en"] as [string, string, LanguageCode]),
  ...OTHER_VARIANTS,
]) {
  const entry = PHRASEBOOK.find((e) => e.en === english);
  if (entry) INDEX.set(normalizePhrase(variant), { entry, language });
}

export interface PhraseHit {
  translatedText: string;
  sourceLanguage: LanguageCode;
}

/** The phrase in the target language, or null when the phrasebook does not have it. */
export function lookupPhrase(text: string, target: LanguageCode): PhraseHit | null {
  const hit = INDEX.get(normalizePhrase(text));
  if (!hit) return null;
  return { translatedText: hit.entry[target], sourceLanguage: hit.language };
}

/** Which language a phrase from the book is in, if it is there. */
export function detectPhraseLanguage(text: string): LanguageCode | null {
  return INDEX.get(normalizePhrase(text))?.language ?? null;
}

export const PHRASE_SAMPLES = ["good morning", "thank you", "how are you", "help", "where is the hospital", "I need a doctor"];
