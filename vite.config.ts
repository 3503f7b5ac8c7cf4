import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { routeWords } from "./scripts/route-words-plugin.ts";
import { swPrecache } from "./scripts/sw-precache.ts";

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
    swPrecache(),
  ],
  publicDir: "web/public",
  // The Worker's build is minified like the browser's: every isolate parses and evaluates it at start, and a deploy
  // uploads it (docs/decisions/070-light-enough-for-2g.md); stack traces map back through the uploaded source maps.
  environments: {
    ssr: { build: { minify: true } },
    client: {
      build: {
        sourcemap: !!process.env.LINKUP_SOURCEMAP,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [{ name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ }],
            },
          },
        },
      },
    },
  },
  server: { port: Number(process.env.PORT ?? 5173), strictPort: false },
  preview: { port: Number(process.env.PORT ?? 4173) },
});
