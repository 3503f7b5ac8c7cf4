// Content LinkUp needs on day one. Turned into the seed migration by `npm run db:seed-sql`.
// Market prices are examples generated from one base price per item (naira), never observed: the migrations label
// them "example" and only development quotes them (docs/decisions/060-every-claim-true.md).

const MARKETS = [
  { market: "Mile 12 Market", city: "Lagos" },
  { market: "Bodija Market", city: "Ibadan" },
  { market: "Dawanau Market", city: "Kano" },
  { market: "Wuse Market", city: "Abuja" },
  { market: "Ogbete Main Market", city: "Enugu" },
  { market: "Oil Mill Market", city: "Port Harcourt" },
];

// commodity, unit, base price in naira; each market applies its own factor below.
const COMMODITIES: [string, string, number][] = [
  ["Rice (local)", "50kg bag", 78000],
  ["Rice (foreign)", "50kg bag", 92000],
  ["Maize", "100kg bag", 52000],
  ["Beans (brown)", "100kg bag", 145000],
  ["Garri (white)", "50kg bag", 38000],
  ["Yam", "tuber (medium)", 2500],
  ["Tomatoes", "basket", 28000],
  ["Onions", "100kg bag", 60000],
  ["Palm oil", "25 litres", 42000],
  ["Cassava", "100kg bag", 24000],
  ["Sorghum", "100kg bag", 48000],
  ["Groundnut", "100kg bag", 98000],
  ["Pepper (tatashe)", "basket", 22000],
];
const FACTORS = [1.06, 1.0, 0.9, 1.04, 1.02, 1.1];

export const marketPriceSeed = MARKETS.flatMap((m, i) =>
  COMMODITIES.map(([commodity, unit, base]) => ({
    id: `${commodity}-${m.city}`.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    commodity,
    market: m.market,
    city: m.city,
    unit,
    priceNgn: Math.round((base * FACTORS[i]) / 100) * 100,
  })),
);

export const faqSeed = [
  {
    id: "faq-1",
    category: "mesh",
    popular: true,
    question: "Does LinkUp work without internet?",
    answer:
      "Messages you write without a connection are kept on your phone and sent as soon as any path returns: another tab of the same browser on this device, a phone you paired by code on the same Wi-Fi or hotspot (no internet needed; it passes them on from phone to phone), or the relay when the network comes back. Nothing you write is lost.",
    tags: ["offline", "mesh"],
  },
  {
    id: "faq-2",
    category: "bluetooth",
    popular: true,
    question: "Can my browser chat over Bluetooth?",
    answer:
      "Browsers can scan for nearby Bluetooth devices where Web Bluetooth is available, but they cannot carry chat between phones over Bluetooth. Phones on the same Wi-Fi or hotspot can chat with no internet once paired by a code (Pair a nearby phone, in the chat); otherwise chat goes over the relay and between tabs of one browser.",
    tags: ["bluetooth", "devices"],
  },
  {
    id: "faq-3",
    category: "ai",
    popular: true,
    question: "How do I ask the AI assistant?",
    answer:
      "Start a chat message with '@ai ' followed by your question, for example '@ai translate good morning to hausa' or '@ai market rice lagos'.",
    tags: ["ai", "commands"],
  },
  {
    id: "faq-4",
    category: "emergency",
    popular: true,
    question: "What happens when I press SOS?",
    answer:
      "Your alert goes to everyone in your area room, to people nearby who allowed notifications, and to your emergency contacts by WhatsApp or SMS. Always call 112 or 199 as well.",
    tags: ["sos", "safety"],
  },
  {
    id: "faq-5",
    category: "mobile",
    popular: true,
    question: "Can I use LinkUp on a basic phone?",
    answer:
      "Yes. Dial the LinkUp USSD code to send an SOS, ask the assistant, check market prices or translate, or chat with the LinkUp WhatsApp number.",
    tags: ["ussd", "whatsapp"],
  },
  {
    id: "faq-6",
    category: "support",
    popular: true,
    question: "How much does Premium cost?",
    answer: "Premium is ₦2,500 per month with a 7-day free trial, or ₦25,000 per year. Enterprise is ₦15,000 per month. Cancel anytime.",
    tags: ["pricing", "premium"],
  },
  {
    id: "faq-7",
    category: "mesh",
    popular: false,
    question: "Are my private chats encrypted?",
    answer:
      "Direct chats and private groups are end-to-end encrypted with X25519 and AES-256-GCM. Keys are made on your device; our servers only ever hold ciphertext. Public area rooms are readable by anyone in them and say so.",
    tags: ["security", "encryption"],
  },
  {
    id: "faq-8",
    category: "ai",
    popular: false,
    question: "Which languages can the assistant translate?",
    answer: "English, Hausa, Igbo, Yoruba, Swahili, French and Arabic.",
    tags: ["translation", "languages"],
  },
  {
    id: "faq-9",
    category: "support",
    popular: false,
    question: "When can I reach support?",
    answer:
      "Monday to Friday 8:00-20:00 WAT, Saturday 9:00-18:00 and Sunday 10:00-16:00. Premium users' call-back requests are answered first.",
    tags: ["support", "hours"],
  },
  {
    id: "faq-10",
    category: "mobile",
    popular: false,
    question: "Can I install LinkUp like an app?",
    answer:
      "Yes. Open LinkUp in your phone's browser and choose 'Add to Home screen' or 'Install app'. It opens full screen and keeps working offline.",
    tags: ["install", "pwa"],
  },
  {
    id: "faq-11",
    category: "emergency",
    popular: false,
    question: "Do I need to verify my phone to send an SOS?",
    answer: "No. An emergency is never behind verification or a paid plan.",
    tags: ["sos"],
  },
  {
    id: "faq-12",
    category: "bluetooth",
    popular: false,
    question: "Why does LinkUp ask for my location?",
    answer:
      "Your location picks your nearby room (an area of about 5 km) and lets SOS alerts reach people close to you. If you refuse, LinkUp uses the place written in your profile.",
    tags: ["location", "privacy"],
  },
];

export const blogSeed = [
  {
    id: "market-prices-by-text",
    featured: true,
    category: "Agriculture",
    title: "Market prices in your pocket, even on a basic phone",
    description: "An illustrative example: how a farmer can check a price before the trip to market.",
    author: "LinkUp Team",
    date: "2026-10-28",
    readTime: "4 min read",
    tags: ["markets", "ussd", "farmers"],
    content:
      "An illustrative example, not a real user's story. Before a long trip to market, a farmer wants to know one thing: what will my maize fetch today? With LinkUp, '@ai market maize kano' in chat or on WhatsApp, or on a basic phone the USSD menu's Market prices, then the item and the town, answers with the median of the prices people reported there in the last 14 days, how many reports it counts and their dates; a price far from the others is left out. Until three people have reported one, LinkUp says it has no recent price. Traders who see a price report it, with PRICE maize bag 45000 Dawanau on WhatsApp, Report a price on the USSD menu or the Market prices page, and earn points for it.",
  },
  {
    id: "sos-every-channel",
    featured: true,
    category: "Safety",
    title: "One SOS, every channel",
    description: "Why an emergency alert should reach people by every path at once.",
    author: "LinkUp Team",
    date: "2026-10-14",
    readTime: "5 min read",
    tags: ["sos", "safety", "community"],
    content:
      "When something goes wrong, you do not have time to choose an app. A LinkUp SOS goes to your area room, to neighbours who allowed notifications, and to your emergency contacts by WhatsApp or SMS, in one action. If one path fails, the others still go out. Always call 112 or 199 as well.",
  },
  {
    id: "chat-on-poor-networks",
    featured: false,
    category: "Technology",
    title: "Chat that survives a bad network",
    description: "Store-and-forward, resume and an offline outbox, explained simply.",
    author: "LinkUp Engineering",
    date: "2026-09-30",
    readTime: "6 min read",
    tags: ["offline", "mesh"],
    content:
      "Every message you write is saved on your phone first. When the connection drops, it waits in your outbox; when any path returns, it goes out once and only once. The room keeps what you missed and hands it to you when you reconnect.",
  },
  {
    id: "speak-your-language",
    featured: false,
    category: "Community",
    title: "Speak your language: Hausa, Igbo, Yoruba and more",
    description: "Translation in chat for seven languages.",
    author: "LinkUp Team",
    date: "2026-09-12",
    readTime: "3 min read",
    tags: ["translation", "languages"],
    content:
      "Type '@ai translate good morning to yoruba' and the assistant answers in chat. LinkUp translates between English, Hausa, Igbo, Yoruba, Swahili, French and Arabic, with a phrasebook that works even offline.",
  },
  {
    id: "privacy-by-design",
    featured: false,
    category: "Security",
    title: "Private means private",
    description: "End-to-end encryption for direct chats and groups.",
    author: "LinkUp Engineering",
    date: "2026-08-25",
    readTime: "5 min read",
    tags: ["security", "encryption"],
    content:
      "Your private chats are encrypted on your device with keys that never leave it. Our servers pass the messages along but can never read them. Public area rooms are different: they are open to everyone nearby, and LinkUp tells you so.",
  },
  {
    id: "students-study-groups",
    featured: false,
    category: "Education",
    title: "Study groups that keep going when data runs out",
    description: "How students use private groups and the assistant to study together.",
    author: "LinkUp Team",
    date: "2026-08-08",
    readTime: "4 min read",
    tags: ["students", "groups"],
    content:
      "A private group keeps the whole class together, and '@ai' answers quick questions without leaving the chat. When data runs out, messages wait in the outbox until the next connection.",
  },
];
