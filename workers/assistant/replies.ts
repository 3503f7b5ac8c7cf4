// The offline assistant's answers in the asker's language (issue 32): a question in Hausa gets Hausa, in Arabic
// Arabic. English keeps offline.ts's texts. Written by the team, not yet by native speakers (docs/i18n-review.md).
// First-aid steps stay the vetted English text (offline.ts FIRST_AID), introduced in the asker's language: they
// are medical instructions, translated only once a native speaker has checked them.
import type { LanguageCode } from "../../core/ai-command";
import type { UiLanguage } from "../../core/i18n/languages";

type Other = Exclude<UiLanguage, "english">;

interface ReplyTexts {
  greeting: string;
  help: string;
  emergencyTitle: string;
  sosSteps: string;
  tellMeWhat: string;
  stepsInEnglish: string;
  needsOnline: string;
  weatherNeeds: (where: string) => string;
  phrasebookMiss: (text: string, language: string) => string;
  languages: Record<LanguageCode, string>;
}

export const REPLIES: Record<Other, ReplyTexts> = {
  pidgin: {
    greeting:
      "How far! Na me be LIA, LinkUp assistant. I fit translate, check market price, tell you weather, and help you for emergency. Type '@ai help' make you see how.",
    help: "Na me be LIA. Start your message with '@ai ' and ask: price of rice for Kano, weather tomorrow, how dem dey talk thank you for Yoruba, or tell me wetin happen for emergency. You fit write am for Pidgin, English, Hausa, Yoruba, Igbo, French or Arabic.",
    emergencyTitle: "🚨 Emergency help",
    sosSteps:
      "Call 112 (or 199) now now. Press SOS for LinkUp make people wey dey near and your emergency contacts know, and share your location. Stay where e safe.",
    tellMeWhat:
      "Tell me wetin happen make I give you first-aid steps: bleeding, burn, choking, person faint, snake bite, flood or accident.",
    stepsInEnglish: "First-aid steps (English):",
    needsOnline:
      "Dis question need di online assistant, and e no dey reach now. Offline I fit translate common words, give market price, first-aid and SOS steps. Type '@ai help'.",
    weatherNeeds: (where) => `Weather${where} need connection to di forecast service, and e no dey now. Try again when you get network.`,
    phrasebookMiss: (text, language) =>
      `I no fit translate "${text}" to ${language} offline: e need di online assistant. Offline I know common words like 'good morning', 'thank you', 'where is the hospital'.`,
    languages: { en: "English", ha: "Hausa", ig: "Igbo", yo: "Yoruba", sw: "Swahili", fr: "French", ar: "Arabic" },
  },
  hausa: {
    greeting:
      "Sannu! Ni ce LIA, mataimakiyar LinkUp. Ina iya fassara, duba farashin kasuwa, yanayi, da taimako a lokacin gaggawa. Rubuta '@ai help' don ganin yadda.",
    help: "Ni ce LIA. Fara saƙonka da '@ai ' ka tambaya: farashin shinkafa a Kano, yanayi gobe, yaya ake cewa na gode da yarbanci, ko faɗi abin da ya faru a gaggawa. Kana iya rubutawa da Hausa, Turanci, Pidgin, Yarbanci, Igbo, Faransanci ko Larabci.",
    emergencyTitle: "🚨 Taimakon gaggawa",
    sosSteps:
      "Kira 112 (ko 199) yanzu. Danna SOS a LinkUp don sanar da mutanen da ke kusa da lambobin gaggawarka, ka raba wurinka. Ka tsaya inda babu haɗari.",
    tellMeWhat: "Faɗa mini abin da ya faru don matakan agajin farko: zubar jini, ƙuna, shaƙewa, suma, saran maciji, ambaliya ko hatsari.",
    stepsInEnglish: "Matakan agajin farko (da Turanci):",
    needsOnline:
      "Wannan tambayar tana buƙatar mataimaki na kan layi, wanda ba a iya kaiwa yanzu. Ba tare da intanet ba ina iya fassara kalmomi, ba da farashin kasuwa, matakan agajin farko da SOS. Rubuta '@ai help'.",
    weatherNeeds: (where) =>
      `Hasashen yanayi${where} yana buƙatar haɗi da sabis na yanayi, wanda babu yanzu. Sake gwadawa idan kana da intanet.`,
    phrasebookMiss: (text, language) =>
      `Ba zan iya fassara "${text}" zuwa ${language} ba tare da intanet ba: yana buƙatar mataimaki na kan layi. Na san kalmomi kamar 'good morning', 'thank you', 'where is the hospital'.`,
    languages: { en: "Turanci", ha: "Hausa", ig: "Inyamuranci", yo: "Yarbanci", sw: "Swahili", fr: "Faransanci", ar: "Larabci" },
  },
  yoruba: {
    greeting:
      "Ẹ n lẹ́! Èmi ni LIA, olùrànlọ́wọ́ LinkUp. Mo lè túmọ̀, wo iye ọjà, ojú ọjọ́, kí n sì ràn ọ́ lọ́wọ́ nígbà pàjáwìrì. Tẹ '@ai help' láti rí bí.",
    help: "Èmi ni LIA. Bẹ̀rẹ̀ ọ̀rọ̀ rẹ pẹ̀lú '@ai ' kí o béèrè: elo ni iresi ní Ìbàdàn, ojú ọjọ́ lọ́la, báwo ni a ṣe ń sọ thank you ní Hausa, tàbí sọ ohun tó ṣẹlẹ̀ nígbà pàjáwìrì. O lè kọ ọ́ ní Yorùbá, Gẹ̀ẹ́sì, Pidgin, Hausa, Igbo, Faransé tàbí Lárúbáwá.",
    emergencyTitle: "🚨 Ìrànlọ́wọ́ pàjáwìrì",
    sosSteps:
      "Pe 112 (tàbí 199) báyìí. Tẹ SOS nínú LinkUp láti kìlọ̀ fún àwọn tó wà nítòsí àti àwọn olùbásọ̀rọ̀ pàjáwìrì rẹ, kí o sì pín ibi tí o wà. Dúró sí ibi tí ó ní ààbò.",
    tellMeWhat: "Sọ ohun tó ṣẹlẹ̀ fún mi fún ìgbésẹ̀ ìtọ́jú àkọ́kọ́: ẹ̀jẹ̀, iná jó, fífún, dídákú, ejò bù, omíyalé tàbí ìjàmbá.",
    stepsInEnglish: "Ìgbésẹ̀ ìtọ́jú àkọ́kọ́ (ní Gẹ̀ẹ́sì):",
    needsOnline:
      "Ìbéèrè yìí nílò olùrànlọ́wọ́ orí ayélujára, tí kò sí báyìí. Láìsí ayélujára mo lè túmọ̀ ọ̀rọ̀ tó wọ́pọ̀, fún ọ ní iye ọjà, ìgbésẹ̀ ìtọ́jú àkọ́kọ́ àti SOS. Tẹ '@ai help'.",
    weatherNeeds: (where) =>
      `Àsọtẹ́lẹ̀ ojú ọjọ́${where} nílò ìsopọ̀ sí iṣẹ́ ojú ọjọ́, tí kò sí báyìí. Gbìyànjú lẹ́ẹ̀kan sí i nígbà tí o bá ní ayélujára.`,
    phrasebookMiss: (text, language) =>
      `Mi ò lè túmọ̀ "${text}" sí ${language} láìsí ayélujára: ó nílò olùrànlọ́wọ́ orí ayélujára. Mo mọ àwọn ọ̀rọ̀ bíi 'good morning', 'thank you', 'where is the hospital'.`,
    languages: { en: "Gẹ̀ẹ́sì", ha: "Hausa", ig: "Igbo", yo: "Yorùbá", sw: "Swahili", fr: "Faransé", ar: "Lárúbáwá" },
  },
  igbo: {
    greeting:
      "Ndewo! Abụ m LIA, onye inyeaka LinkUp. Enwere m ike ịtụgharị asụsụ, lee ọnụ ahịa, ihu igwe, ma nyere gị aka n'ihe mberede. Dee '@ai help' ka ị hụ otú.",
    help: "Abụ m LIA. Malite ozi gị na '@ai ' jụọ: ego ole ka osikapa dị n'Enugu, ihu igwe echi, kedu ka esi asị thank you na Yoruba, ma ọ bụ kọọ ihe mere n'ihe mberede. Ị nwere ike ide ya n'Igbo, Bekee, Pidgin, Hausa, Yoruba, French ma ọ bụ Arabic.",
    emergencyTitle: "🚨 Enyemaka ihe mberede",
    sosSteps:
      "Kpọọ 112 (ma ọ bụ 199) ugbu a. Pịa SOS na LinkUp ka ndị nọ nso na ndị ị ga-akpọ n'ihe mberede mara, kesaa ebe ị nọ. Nọrọ ebe dị mma.",
    tellMeWhat:
      "Gwa m ihe mere ka m nye gị usoro enyemaka mbụ: ọbara na-agba, ọkụ gbara, ihe kpachiri akpịrị, ịda mbà, agwọ tara, idei mmiri ma ọ bụ ihe mberede n'ụzọ.",
    stepsInEnglish: "Usoro enyemaka mbụ (n'asụsụ Bekee):",
    needsOnline:
      "Ajụjụ a chọrọ onye inyeaka nọ n'ịntanetị, nke a na-enweghị ike iru ugbu a. N'enweghị ịntanetị enwere m ike ịtụgharị okwu ndị a na-ejikarị, nye ọnụ ahịa, usoro enyemaka mbụ na SOS. Dee '@ai help'.",
    weatherNeeds: (where) => `Amụma ihu igwe${where} chọrọ njikọ na ọrụ ihu igwe, nke na-adịghị ugbu a. Nwaa ọzọ mgbe ị nwere ịntanetị.`,
    phrasebookMiss: (text, language) =>
      `Enweghị m ike ịtụgharị "${text}" gaa na ${language} n'enweghị ịntanetị: ọ chọrọ onye inyeaka nọ n'ịntanetị. Ama m okwu dịka 'good morning', 'thank you', 'where is the hospital'.`,
    languages: { en: "Bekee", ha: "Hausa", ig: "Igbo", yo: "Yoruba", sw: "Swahili", fr: "French", ar: "Arabic" },
  },
  french: {
    greeting:
      "Bonjour ! Je suis LIA, l'assistante de LinkUp. Je traduis, donne les prix du marché, la météo, et j'aide en cas d'urgence. Tapez '@ai help' pour voir comment.",
    help: "Je suis LIA. Commencez votre message par '@ai ' et demandez : prix du riz à Kano, météo demain, comment dit-on merci en yoruba, ou décrivez une urgence. Vous pouvez écrire en français, anglais, pidgin, haoussa, yoruba, igbo ou arabe.",
    emergencyTitle: "🚨 Aide d'urgence",
    sosSteps:
      "Appelez le 112 (ou le 199) maintenant. Appuyez sur SOS dans LinkUp pour prévenir les personnes proches et vos contacts d'urgence, et partagez votre position. Restez en lieu sûr.",
    tellMeWhat:
      "Dites-moi ce qui s'est passé pour les gestes de premiers secours : saignement, brûlure, étouffement, évanouissement, morsure de serpent, inondation ou accident.",
    stepsInEnglish: "Gestes de premiers secours (en anglais) :",
    needsOnline:
      "Cette question demande l'assistant en ligne, injoignable pour l'instant. Hors ligne je traduis les phrases courantes, donne les prix du marché, les premiers secours et les étapes SOS. Tapez '@ai help'.",
    weatherNeeds: (where) =>
      `La météo${where} demande une connexion au service de prévisions, indisponible pour l'instant. Réessayez une fois en ligne.`,
    phrasebookMiss: (text, language) =>
      `Je ne peux pas traduire « ${text} » en ${language} hors ligne : il faut l'assistant en ligne. Je connais des phrases comme 'good morning', 'thank you', 'where is the hospital'.`,
    languages: { en: "anglais", ha: "haoussa", ig: "igbo", yo: "yoruba", sw: "swahili", fr: "français", ar: "arabe" },
  },
  arabic: {
    greeting: "مرحبا! أنا LIA، مساعدة LinkUp. أترجم، وأعطي أسعار السوق والطقس، وأساعد في الطوارئ. اكتب '@ai help' لترى كيف.",
    help: "أنا LIA. ابدأ رسالتك بـ '@ai ' واسأل: سعر الأرز في كانو، الطقس غدا، كيف أقول شكرا باليوروبا، أو صف حالة طارئة. يمكنك الكتابة بالعربية أو الإنجليزية أو البيدجن أو الهوسا أو اليوروبا أو الإيغبو أو الفرنسية.",
    emergencyTitle: "🚨 مساعدة طارئة",
    sosSteps: "اتصل بـ 112 (أو 199) الآن. اضغط SOS في LinkUp لتنبيه من حولك وجهات اتصال الطوارئ، وشارك موقعك. ابقَ في مكان آمن.",
    tellMeWhat: "أخبرني بما حدث لأعطيك خطوات الإسعاف الأولي: نزيف، حروق، اختناق، إغماء، لدغة ثعبان، فيضان أو حادث.",
    stepsInEnglish: "خطوات الإسعاف الأولي (بالإنجليزية):",
    needsOnline:
      "هذا السؤال يحتاج إلى المساعد عبر الإنترنت، وهو غير متاح الآن. دون اتصال أترجم العبارات الشائعة، وأعطي أسعار السوق، وخطوات الإسعاف الأولي وSOS. اكتب '@ai help'.",
    weatherNeeds: (where) => `توقعات الطقس${where} تحتاج إلى اتصال بخدمة الطقس، وهي غير متاحة الآن. حاول مرة أخرى عند الاتصال.`,
    phrasebookMiss: (text, language) =>
      `لا أستطيع ترجمة «${text}» إلى ${language} دون اتصال: يحتاج ذلك إلى المساعد عبر الإنترنت. أعرف عبارات مثل 'good morning' و'thank you' و'where is the hospital'.`,
    languages: { en: "الإنجليزية", ha: "الهوسا", ig: "الإيغبو", yo: "اليوروبا", sw: "السواحيلية", fr: "الفرنسية", ar: "العربية" },
  },
};

/** Words that name a first-aid topic in the other languages, by the English word offline.ts's topics know. */
export const FIRST_AID_WORDS: [string[], string][] = [
  [["jini", "eje", "obara", "saign", "sang", "نزيف", "ينزف"], "bleed"],
  [["gobara", "kone", "kuna", "ina n jo", "ina jo", "oku", "feu", "brul", "incendie", "حريق", "حرق", "نار"], "burn"],
  [["suma", "daku", "evanoui", "اغمي", "اغماء"], "faint"],
  [["maciji", "ejo", "agwo", "serpent", "ثعبان", "افعى"], "snake"],
  [["ambaliya", "omiyale", "idemmiri", "inondation", "فيضان"], "flood"],
  [["hatsari", "ijamba", "ihe mberede", "accident", "حادث"], "accident"],
  [["numfashi", "ko le mi", "eku ume", "respire", "لا يتنفس"], "breath"],
  [["guba", "majele", "nsi", "poison", "empoisonn", "تسمم"], "poison"],
  [["nakuda", "haihuwa", "accouch", "ولادة"], "labour"],
  [["etouff", "اختناق"], "chok"],
];

/** The English topic words a situation in another language names ('jini yana zuba' → 'bleed'). */
export function topicWords(foldedSituation: string): string {
  return FIRST_AID_WORDS.filter(([words]) => words.some((w) => foldedSituation.includes(w)))
    .map(([, english]) => english)
    .join(" ");
}
