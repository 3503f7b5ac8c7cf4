// The web app in the person's language (docs/decisions/031-web-app-languages.md): a saved Hausa setting turns
// the chat, the SOS flow and an API error into Hausa after a reload; an Arabic browser gets a right-to-left page.
// Refusals are said by their code (docs/decisions/075-errors-as-codes.md): no English sentence is matched.
import { acceptCookies, expect, test, verifyFreshPhone } from "./fixtures";

// Maiduguri: an area cell no other browser test uses, so this SOS alerts nobody in another test.
const MAIDUGURI = { latitude: 11.8311, longitude: 13.151 };

// The refused SOS below answers 400, which the browser reports on its console.
test.use({ allowedConsoleErrors: [/status of 400/] });

test("a person who saves Hausa gets the chat, the SOS flow and an error in Hausa", async ({ browser, baseURL }) => {
  const url = baseURL as string;
  const context = await browser.newContext({ permissions: ["geolocation"], geolocation: MAIDUGURI, viewport: { width: 390, height: 844 } });
  await acceptCookies(context, url);
  const page = await context.newPage();
  const started = await page.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } });
  expect(started.ok()).toBe(true);
  const onboarded = await page.request.patch(`${url}/api/me`, { data: { onboardingCompleted: true }, headers: { origin: url } });
  expect(onboarded.ok()).toBe(true);

  await page.goto("/settings");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  const picker = page.getByRole("combobox", { name: "Language" });
  // Complete languages by their own names; the other settings languages say their screens are English.
  await expect(picker.locator("option[value=hausa]")).toHaveText("Hausa");
  await expect(picker.locator("option[value=swahili]")).toHaveText("Swahili (screens in English)");
  await picker.selectOption("hausa");
  await page.getByRole("button", { name: "Save Profile Changes" }).click();
  // The whole page switches at once: the picker's own label is now Hausa.
  await expect(page.getByRole("combobox", { name: "Harshe" })).toHaveValue("hausa");
  await expect(page.locator("html")).toHaveAttribute("lang", "ha");

  await page.goto("/chat");
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Menu na ƙasa" }).getByRole("link", { name: "Hira" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Saƙo" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Halin hira" })).toContainText("Ɗakin yanki (kusan kilomita 5)");
  await page.getByRole("group", { name: "Ayyuka" }).getByRole("button", { name: "SOS" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Aika SOS" });
  await expect(confirm).toContainText("Aika saƙon gaggawa ga kowa a ɗakin yankinka?");
  await confirm.getByRole("button", { name: "Soke" }).click();

  await page.goto("/emergency");
  await expect(page.getByRole("heading", { name: "Yanayin gaggawa" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Kira 112" })).toHaveAttribute("href", "tel:112");
  await page.getByLabel("Irin gaggawa").selectOption("fire");
  await expect(page.getByRole("heading", { name: "Abin da za ka yi yanzu: Gobara" })).toBeVisible();
  await expect(page.getByText("Fitar da kowa waje kuma ku zauna a waje.")).toBeVisible();

  // An SOS of spaces only gets past the browser (the button waits for text, a script does not): the API's
  // refusal is shown in Hausa.
  await page.getByLabel("Saƙon gaggawa").fill("   ");
  await page.evaluate(() => document.querySelector<HTMLTextAreaElement>("textarea[name=message]")?.form?.requestSubmit());
  await expect(page.getByRole("region", { name: "Aika SOS" }).getByRole("alert")).toHaveText("Da fatan ka bayyana abin da ya faru");
  await expect(page.getByRole("region", { name: "Sanarwa (F8)" })).toContainText("Wani abu ya faru ba daidai ba");

  await page.getByLabel("Saƙon gaggawa").fill("Gobara a kasuwa, mutane sun makale");
  await page.getByRole("button", { name: "Fara aika sanarwar gaggawa" }).click();
  // One tap never alerts an area: the confirmation asks first, in Hausa too.
  await page.getByRole("alertdialog", { name: "Tabbatar da SOS" }).getByRole("button", { name: "Aika SOS yanzu" }).click();
  await expect(page.locator(".sos-result")).toContainText("An aika SOS.");
  await expect(page.locator(".sos-result")).toContainText("abokan hulɗa na gaggawa 0");
  await context.close();
});

test("an Arabic browser gets the app right to left in Arabic, and keeps it once it has an identity", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: "ar", viewport: { width: 390, height: 844 } });
  await acceptCookies(context, baseURL as string);
  const page = await context.newPage();
  await page.goto("/emergency");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.getByRole("heading", { name: "وضع الطوارئ" })).toBeVisible();
  // The bottom navigation mirrors: its first tab (Chat) sits at the right edge.
  const nav = page.getByRole("navigation", { name: "شريط التنقل السفلي" });
  const first = await nav.getByRole("link").first().boundingBox();
  const last = await nav.getByRole("link").last().boundingBox();
  expect(first && last && first.x > last.x).toBe(true);

  // A new identity saves the browser's language, so the page stays Arabic after it.
  // Started from the page, so the browser sends its own Accept-Language.
  const language = await page.evaluate(async () => {
    const res = await fetch("/api/auth/anonymous", { method: "POST" });
    return ((await res.json()) as { user: { settings: { language: string } } }).user.settings.language;
  });
  expect(language).toBe("arabic");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await context.close();
});

test("in Hausa, /voice-calling, /file-sharing, a file bubble, /pricing, /download, /leaderboard and /community speak Hausa", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const url = baseURL as string;
  const other = await browser.newContext();
  await acceptCookies(other, url);
  expect((await other.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
  const peer = await verifyFreshPhone(other.request, url);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await acceptCookies(context, url);
  const page = await context.newPage();
  expect((await page.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
  await verifyFreshPhone(page.request, url);
  const saved = await page.request.patch(`${url}/api/me`, { data: { language: "hausa" }, headers: { origin: url } });
  expect(saved.ok()).toBe(true);
  const dm = await page.request.post(`${url}/api/rooms/dm`, { data: { userId: peer.user.id }, headers: { origin: url } });
  expect(dm.ok()).toBe(true);

  await page.goto("/voice-calling");
  await expect(page.getByRole("heading", { name: "Kiran murya" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Abokan hulɗa" })).toBeVisible();
  await expect(page.getByRole("button", { name: `Kira ${peer.user.nickname}` })).toBeVisible();

  await page.goto("/file-sharing");
  await expect(page.getByRole("heading", { name: "Raba fayiloli" })).toBeVisible();
  await expect(page.getByText("Babu fayil tukuna.")).toBeVisible();
  await expect(page.getByLabel("Aika zuwa")).toHaveValue(/^dm:/);
  await page
    .getByLabel("Zaɓi fayiloli")
    .setInputFiles({ name: "bayani.txt", mimeType: "text/plain", buffer: Buffer.from("Taro a zaure da karfe 5") });
  await expect(page.getByRole("region", { name: "Sanarwa (F8)" })).toContainText("An aika fayil", { timeout: 30_000 });
  // The file bubble: its download button and the list's labels are Hausa.
  const yours = page.getByRole("region", { name: "Fayilolinka" });
  await expect(yours.getByRole("button", { name: "Sauke bayani.txt" })).toBeVisible();
  await expect(yours.locator("strong", { hasText: "An aika" })).toHaveCount(1);

  // Prices in Hausa, naira written the Nigerian way.
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { name: "Farashi mai sauƙi ga kowace al'umma" })).toBeVisible();
  const premium = page.getByRole("region", { name: "Premium" });
  await expect(premium).toContainText("₦2,500");
  await expect(premium.getByRole("link", { name: "Fara gwaji kyauta" })).toHaveAttribute("href", "/subscribe?plan=premium");
  await page.goto("/download");
  await expect(page.getByRole("heading", { name: "Saka LinkUp" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Wayarka ba ta iya saka manhajoji?" })).toBeVisible();
  await page.goto("/leaderboard");
  await expect(page.getByRole("heading", { name: "Jerin gwarzaye" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Lokaci" }).getByRole("link", { name: "Wannan mako" })).toBeVisible();
  await page.goto("/community");
  await expect(page.getByRole("heading", { name: "Manyan ɗakuna" })).toBeVisible();
  await context.close();
  await other.close();
});

test("a French browser reads the landing page and /about in French", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: "fr-FR", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // Before any cookie choice, the welcome gate already speaks French.
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { name: "Bienvenue sur LinkUp" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Continuer sans les fonctions hors ligne" })).toBeVisible();
  await acceptCookies(context, baseURL as string);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Discutez avec votre communauté, même quand le réseau est faible" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Démarrer le chat Mesh maintenant" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Explorer" }).getByRole("link", { name: "Tarifs" })).toHaveAttribute(
    "href",
    "/pricing",
  );
  await expect(page).toHaveTitle("LinkUp — la messagerie de quartier qui fonctionne sur les réseaux faibles");

  await page.goto("/about");
  await expect(page.getByRole("heading", { name: "À propos de LinkUp" })).toBeVisible();
  await expect(page.getByText("Du lundi au vendredi 8h00-20h00 (WAT)")).toBeVisible();
  await expect(page.getByRole("link", { name: "L'histoire du fondateur" })).toHaveAttribute("href", "/about-founder");
  await context.close();
});

test("a person who saves Igbo reads /features in Igbo", async ({ browser, baseURL }) => {
  const url = baseURL as string;
  const context = await browser.newContext();
  await acceptCookies(context, url);
  const page = await context.newPage();
  expect((await page.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
  const saved = await page.request.patch(`${url}/api/me`, { data: { language: "igbo" }, headers: { origin: url } });
  expect(saved.ok()).toBe(true);
  await page.goto("/features");
  await expect(page.locator("html")).toHaveAttribute("lang", "ig");
  await expect(page.getByRole("heading", { name: "Atụmatụ ikpo okwu" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Ọnụ ụlọ ndị dị nso" })).toContainText("ihe dị ka kilomita 5");
  await expect(page.getByRole("link", { name: "Nwalee atụmatụ AI" })).toHaveAttribute("href", "/ai-features");
  await context.close();
});

test("/about in Arabic reads right to left", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: "ar", viewport: { width: 390, height: 844 } });
  await acceptCookies(context, baseURL as string);
  const page = await context.newPage();
  await page.goto("/about");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  const heading = page.getByRole("heading", { name: "عن LinkUp" });
  await expect(heading).toBeVisible();
  // Right to left: the heading's text sits against the card's right edge.
  const card = await page.locator("section.card").first().boundingBox();
  const text = await heading.evaluate((h) => {
    const range = document.createRange();
    range.selectNodeContents(h);
    const r = range.getBoundingClientRect();
    return { left: r.left, right: r.right };
  });
  expect(card && card.x + card.width - text.right < text.left - card.x).toBe(true);
  await context.close();
});

// Sokoto: an area cell no other browser test uses, so the message below lands in a room of its own.
const SOKOTO = { latitude: 13.0059, longitude: 5.2476 };

test("after saving Yoruba, the security settings, notifications and a message's status speak Yoruba; achievements come in Hausa", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const url = baseURL as string;
  const context = await browser.newContext({ permissions: ["geolocation"], geolocation: SOKOTO, viewport: { width: 390, height: 844 } });
  await acceptCookies(context, url);
  const page = await context.newPage();
  expect((await page.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
  const saved = await page.request.patch(`${url}/api/me`, {
    data: { onboardingCompleted: true, language: "yoruba" },
    headers: { origin: url },
  });
  expect(saved.ok()).toBe(true);
  const toasts = page.getByRole("region", { name: "Ìfitónilétí (F8)" });

  await page.goto("/security-settings");
  await expect(page.getByRole("heading", { level: 1, name: "Ètò ààbò" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Àwọn táàbù ààbò" });
  await expect(tabs.getByRole("link", { name: "Ìfìdí-ẹni-múlẹ̀" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Ìpàdé àti ẹ̀rọ" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Àwọn ìpàdé tí ó wọlé" })).toContainText("Ẹ̀rọ yìí");
  await expect(page.getByRole("button", { name: "Jáde nínú gbogbo ìpàdé yòókù" })).toBeDisabled();
  // A refusal from the API reaches the person in Yoruba, inline and as a toast: by its code (delete_phrase_wrong)
  // and the value it names (the phrase), not by its English words.
  await tabs.getByRole("link", { name: "Pèpéle" }).click();
  await page.getByRole("textbox", { name: "Tẹ DELETE MY ACCOUNT láti jẹ́rìísí" }).fill("no");
  await page.getByRole("button", { name: "Pa àkáǹtì mi rẹ́" }).click();
  await expect(page.locator("p.error[role=alert]")).toHaveText("Tẹ DELETE MY ACCOUNT láti jẹ́rìísí");
  await expect(toasts).toContainText("Tẹ DELETE MY ACCOUNT láti jẹ́rìísí");

  await page.goto("/notifications");
  await expect(page.getByRole("heading", { level: 1, name: /^Ìfitónilétí/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Ètò ìfitónilétí" })).toBeVisible();
  await page.getByRole("checkbox", { name: "Ìròyìn ọjà" }).check();
  await expect(toasts).toContainText("A ti ṣe àtúnṣe ètò");

  // A message's status icon is named in Yoruba: sent, once the room has it.
  await page.goto("/chat");
  const box = page.getByRole("textbox", { name: "Ìfiránṣẹ́" });
  await box.fill("Ẹ káàsán láti Sokoto");
  // The send button waits for the room: it is enabled once the text can go.
  await page.getByRole("button", { name: "Fi ránṣẹ́" }).click();
  const mine = page.getByRole("listitem").filter({ hasText: "Ẹ káàsán láti Sokoto" });
  await expect(mine.getByRole("img", { name: "Ó ti lọ" })).toBeVisible();

  // Achievements are named by the server in the person's language.
  expect((await page.request.patch(`${url}/api/me`, { data: { language: "hausa" }, headers: { origin: url } })).ok()).toBe(true);
  await page.goto("/gamification");
  await expect(page.getByRole("list", { name: "Nasarori" })).toContainText("Haɗuwa ta farko");
  await expect(page.getByRole("list", { name: "Nasarori" })).toContainText("Taimaka a gaggawa 5");
  await context.close();
});

test("a person who reads only Hausa joins, reads /settings and /ai-features, and pays for Premium in Hausa", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const url = baseURL as string;
  const context = await browser.newContext({ locale: "ha-NG", viewport: { width: 360, height: 780 } });
  await acceptCookies(context, url);
  const page = await context.newPage();
  // A newcomer whose browser asks for Hausa meets the chat's join form in Hausa.
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "Shiga mesh" })).toBeVisible();
  await expect(page.getByLabel("Lambar waya")).toBeVisible();
  await expect(page.getByRole("button", { name: "Shiga hanyar sadarwa ta Mesh" })).toBeVisible();

  expect((await page.request.post(`${url}/api/auth/anonymous`, { headers: { origin: url } })).ok()).toBe(true);
  await verifyFreshPhone(page.request, url);
  const saved = await page.request.patch(`${url}/api/me`, {
    data: { language: "hausa", onboardingCompleted: true },
    headers: { origin: url },
  });
  expect(saved.ok()).toBe(true);

  await page.goto("/ai-features");
  await expect(page.getByRole("heading", { name: "Fasalolin AI", level: 1 })).toBeVisible();
  await expect(page.getByText("Yau: umarnin AI 0 cikin 10 da fassarori 0 cikin 5")).toBeVisible();
  await page.getByRole("button", { name: "Fassara", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Ana buƙatar rubutu - Da fatan shigar da rubutun da za a fassara");

  // The plan tab offers the trial in Hausa and leads to checkout in Hausa.
  await page.goto("/settings?tab=premium");
  await expect(page.getByRole("heading", { name: "Koma Premium" })).toBeVisible();
  await page.getByRole("link", { name: "Gwada KYAUTA na kwana 7" }).click();
  await expect(page.getByRole("heading", { name: "Yi rajista zuwa LinkUp Premium" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Taƙaitaccen oda" })).toContainText("₦2,500 / wata");
  const form = page.getByRole("form", { name: "Biyan gwaji" });
  await expect(form).toContainText("Yanayin gwaji: babu biyan gaske.");
  await form.getByLabel("Lambar kati").fill("4242 4242 4242 4242");
  await form.getByRole("button", { name: "Biya ₦2,500" }).click();

  await expect(page).toHaveURL(/\/chat\?subscription=success$/);
  await expect(page.getByRole("status").filter({ hasText: "LinkUp Premium yana aiki. Mun gode!" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Sanarwa (F8)" })).toContainText("Barka da zuwa LinkUp Premium!");
  await page.goto("/settings?tab=premium");
  await expect(page.getByRole("heading", { name: "Premium yana aiki" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Soke biyan kuɗi" })).toBeVisible();

  // The FAQ's answers too, and its search looks in the words shown.
  await page.goto("/faq?q=gaggawa");
  const question = page.locator("summary", { hasText: "Me ke faruwa idan na danna SOS?" });
  await question.click();
  await expect(page.locator("details#faq-4 p")).toContainText("Koyaushe ka kira 112 ko 199 ma.");
  await context.close();
});
