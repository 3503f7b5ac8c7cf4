// bench/bundle: the gzipped JavaScript each screen loads first (module preloads + entry scripts), measured from
// the production build served by the real Worker. Writes the "bundle" section of bench/README.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { serveBuilt } from "../../tests/serve-built.mjs";
import { writeSection } from "../readme.mjs";

// Budgets in KiB (issue 2); screens without a budget of their own are reported against the landing's.
const SCREENS = [
  { path: "/", name: "landing", budget: 130 },
  { path: "/chat", name: "chat", budget: 150 },
  { path: "/onboarding", name: "onboarding", budget: 130 },
  { path: "/settings", name: "settings", budget: 130 },
  { path: "/emergency", name: "emergency", budget: 130 },
  { path: "/notifications", name: "notifications", budget: 130 },
  { path: "/ai-features", name: "ai-features", budget: 130 },
];

const LANGUAGES = [
  ["en", "English"],
  ["ha", "Hausa"],
];

const server = await serveBuilt({ name: "bench-bundle" });
const rows = [];
try {
  const clientDir = join(server.dir, "build", "client");
  // English and Hausa (docs/decisions/031-web-app-languages.md): the language's messages ride in the HTML, so the
  // JavaScript should not change with it; the HTML column shows what the messages add.
  for (const [tag, language] of LANGUAGES)
    for (const screen of SCREENS) {
      // Signed-in visitors with cookies accepted see the full screen, not a gate.
      const cookie = "linkup-cookies-accepted=true";
      const res = await fetch(server.url + screen.path, { headers: { cookie, "accept-language": tag }, redirect: "manual" });
      if (res.status !== 200) {
        rows.push({ ...screen, language, status: res.status });
        continue;
      }
      const html = await res.text();
      const htmlGz = gzipSync(Buffer.from(html), { level: 9 }).length;
      // The stylesheet rides inline in the head (web/app/lib/inline-css.server.ts): its bytes are in every document.
      const style = /<style nonce="[^"]*">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      const cssRaw = Buffer.byteLength(style);
      const cssGz = gzipSync(Buffer.from(style), { level: 9 }).length;
      const srcs = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]));
      // The preloads the page adds after its first paint (web/app/lib/paint-first.server.ts): the starter's list.
      // Its arguments: the preloads, the words files, and the manifest's address (a string, or null).
      for (const m of html.matchAll(/\)\((\["\/assets\/[^\]]*\])(?:, \[[^\]]*\])?(?:, (?:"[^"]*"|null))?\)<\/script>/g))
        for (const src of JSON.parse(m[1])) srcs.add(src);
      for (const m of html.matchAll(/import\("([^"]+\.js)"\)|from "([^"]+\.js)"|<script type="module"[^>]*src="([^"]+)"/g))
        srcs.add(m[1] ?? m[2] ?? m[3]);
      let raw = 0;
      let gz = 0;
      const each = [];
      for (const src of srcs) {
        if (!src.startsWith("/assets/")) continue;
        const bytes = readFileSync(join(clientDir, src));
        const zipped = gzipSync(bytes, { level: 9 }).length;
        raw += bytes.length;
        gz += zipped;
        each.push([src, bytes.length, zipped]);
      }
      // BUNDLE_FILES=1 lists each screen's files, largest first: where a budget goes.
      if (process.env.BUNDLE_FILES && tag === "en") {
        console.log(`${screen.path}:`);
        for (const [src, r, z] of each.sort((a, b) => b[2] - a[2]))
          console.log(`  ${(z / 1024).toFixed(1).padStart(6)} KiB gz ${(r / 1024).toFixed(1).padStart(6)} raw  ${src}`);
      }
      rows.push({ ...screen, language, status: 200, files: srcs.size, raw, gz, htmlGz, cssRaw, cssGz });
    }
} finally {
  await server.stop();
}

const kib = (n) => (n / 1024).toFixed(1);
const table = [
  "| screen | language | files | JS (KiB) | gzipped (KiB) | budget (KiB) | within | HTML gzipped (KiB) | inline CSS (KiB) | inline CSS gzipped (KiB) |",
  "|---|---|---|---|---|---|---|---|---|---|",
  ...rows.map((r) =>
    r.status === 200
      ? `| ${r.name} (${r.path}) | ${r.language} | ${r.files} | ${kib(r.raw)} | ${kib(r.gz)} | ${r.budget} | ${r.gz / 1024 <= r.budget ? "yes" : "**no**"} | ${kib(r.htmlGz)} | ${kib(r.cssRaw)} | ${kib(r.cssGz)} |`
      : `| ${r.name} (${r.path}) | ${r.language} | – | – | – | ${r.budget} | answered ${r.status} | – | – | – |`,
  ),
];
console.log(table.join("\n"));
writeSection(
  "bundle",
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- bundle\` (production build, gzip level 9, the JS a first visit loads: entry, module preloads and route modules).\n\n${table.join("\n")}`,
);
