// bench/documents: each page's HTML document, gzipped (level 9), in each of the seven languages, for a visitor who is
// signed in with onboarding done. Goal (issue 35): every document ≤ 16 KiB compressed, so it fits in TCP's first
// flight (docs/decisions/070-light-enough-for-2g.md, 078-each-page-carries-its-own-words.md). Writes the
// "documents" section of bench/README.md. DOCUMENTS_BUILD=<dir> serves an existing build instead of building.
import { cpus } from "node:os";
import { gzipSync } from "node:zlib";
import { UI_LANGUAGES } from "../../core/i18n/languages.ts";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

const PAGES = ["/", "/chat", "/emergency", "/onboarding", "/settings", "/notifications", "/about", "/security-settings", "/team"];
const GOAL = 16 * 1024;

const server = await serveBuilt({ name: "bench-documents", fromBuild: process.env.DOCUMENTS_BUILD });
const rows = [];
try {
  const started = await fetch(`${server.url}/api/auth/anonymous`, { method: "POST", headers: { origin: server.url } });
  const cookie = `${started.headers.getSetCookie()[0].split(";")[0]}; linkup-cookies-accepted=true`;
  await started.text();
  for (const language of UI_LANGUAGES) {
    const saved = await fetch(`${server.url}/api/me`, {
      method: "PATCH",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ nickname: "Bench", onboardingCompleted: true, language }),
    });
    if (!saved.ok) throw new Error(`PATCH /api/me ${saved.status}`);
    await saved.text();
    const sizes = [];
    for (const page of PAGES) {
      const res = await fetch(server.url + page, { headers: { cookie }, redirect: "manual" });
      const html = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`${page} in ${language}: ${res.status}`);
      sizes.push(gzipSync(html, { level: 9 }).length);
    }
    rows.push({ language, sizes });
    console.log(language, sizes.map((n) => (n / 1024).toFixed(1)).join(" "));
  }
} finally {
  await server.stop();
}

const kib = (n) => (n / 1024).toFixed(1);
const all = rows.flatMap((r) => r.sizes);
const body = `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- documents\` on ${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}: each page's HTML document gzipped (level 9), KiB, signed in with onboarding done, the production build on \`wrangler dev --local\`. Goal: ≤ 16 KiB each (issue 35).

| language | ${PAGES.join(" | ")} |
| --- | ${PAGES.map(() => "---").join(" | ")} |
${rows.map((r) => `| ${r.language} | ${r.sizes.map(kib).join(" | ")} |`).join("\n")}

Largest: ${kib(Math.max(...all))} KiB; every document within the goal: ${all.every((n) => n <= GOAL) ? "yes" : "**no**"}.`;
writeSection("documents", body);
console.log(body);
