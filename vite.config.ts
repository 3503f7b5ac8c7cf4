import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { routeWords } from "./scripts/route-words-plugin.ts";
import { swPrecache } from "./scripts/sw-precache.ts";
import { workerAssets } from "./scripts/worker-assets-plugin.ts";
import { workerTrim } from "./scripts/worker-trim-plugin.ts";

// What root.tsx loads on every page, in one chunk rather than eight: each file gzipped alone repeats its own
// dictionary and the names it imports and exports (docs/decisions/070-light-enough-for-2g.md, "The browser's
// first load"). A module missing here still works: it lands in a chunk of its own. root.tsx itself stays out: its
// stylesheet must stay `root-*.css`, the name web/app/lib/inline-css.server.ts inlines.
const SHELL_MODULES = [
  "/web/app/components/shell.tsx",
  "/web/app/components/toast.tsx",
  "/web/app/features/sos/sos-alert.tsx",
  "/web/app/features/security/app-lock.tsx",
  "/web/app/lib/device-served.ts",
  "/web/app/lib/revalidate.ts",
  "/web/app/mesh/current.ts",
  "/web/app/i18n/index.tsx",
  "/web/app/i18n/refusal.ts",
  "/web/app/i18n/words-codec.ts",
  "/web/app/i18n/route-match.ts",
  "/web/app/i18n/words-context.ts",
  "/core/app-lock.ts",
  "/core/constants.ts",
  "/core/http.ts",
  "/core/ids.ts",
  "/core/sos.ts",
  "/core/i18n/translate.ts",
  "/core/i18n/languages.ts",
  "/node_modules/zustand/",
  "/node_modules/lucide-react/dist/esm/shared/",
  "/node_modules/lucide-react/dist/esm/Icon.mjs",
  "/node_modules/lucide-react/dist/esm/createLucideIcon.mjs",
  "/node_modules/lucide-react/dist/esm/context.mjs",
];

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // No account, no network: bindings that only exist remotely (Workers AI) fall back to local stand-ins.
      remoteBindings: false,
      // Browser tests and benchmarks keep their own local state beside the developer's.
      persistState: process.env.LINKUP_STATE_DIR ? { path: process.env.LINKUP_STATE_DIR } : true,
    }),
    // Tailwind CSS v4 compiles web/app/styles.css (docs/decisions/076-tailwind-v4.md).
    tailwindcss(),
    reactRouter(),
    // Each page carries its own words (docs/decisions/078-each-page-carries-its-own-words.md).
    routeWords(),
    // The catalogs and the phone metadata as static assets the Worker reads on first use (docs/decisions/082).
    workerAssets(),
    swPrecache(),
    // Browser-only packages and React DOM's string renderer out of the Worker's build (docs/decisions/082).
    workerTrim(),
  ],
  publicDir: "web/public",
  // The Worker's build is minified like the browser's: every isolate parses and evaluates it at start, and a deploy
  // uploads it (docs/decisions/070-light-enough-for-2g.md); stack traces map back through the uploaded source maps.
  environments: {
    ssr: {
      build: {
        minify: true,
        sourcemap: !!process.env.LINKUP_SOURCEMAP,
        rolldownOptions: {
          output: {
            codeSplitting: {
              // The libraries every isolate evaluates anyway in one chunk rather than a dozen: each chunk repeats the
              // names it imports and exports (docs/decisions/082-a-worker-that-starts-small.md).
              groups: [{ name: "vendor", test: /node_modules[\\/](zod|drizzle-orm|hono)[\\/]/ }],
            },
          },
        },
      },
    },
    client: {
      build: {
        sourcemap: !!process.env.LINKUP_SOURCEMAP,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
                { name: "shell", test: (id) => SHELL_MODULES.some((m) => id.includes(m)) },
              ],
            },
          },
        },
      },
    },
  },
  server: { port: Number(process.env.PORT ?? 5173), strictPort: false },
  preview: { port: Number(process.env.PORT ?? 4173) },
});
