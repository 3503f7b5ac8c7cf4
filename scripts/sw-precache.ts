// Build step for the offline worker (docs/architecture.md, web/public/sw.js): the list of files it keeps comes
// from the build's own manifests, as Workbox's injectManifest does, not from scraping pages. Once the server
// build has written React Router's browser manifest, every file the client build emitted (Vite's
// .vite/manifest.json: route modules, lazy chunks, CSS, assets) plus that manifest is injected into the built
// sw.js with a version hashed from the list, so a new build installs a new cache and drops the old one.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

/** The placeholder in web/public/sw.js that the build replaces. */
export const PRECACHE_PLACEHOLDER = "self.__LINKUP_PRECACHE";

type ViteManifest = Record<string, { file: string; css?: string[]; assets?: string[] }>;

/** Every file a Vite manifest names, as absolute URLs, sorted and without duplicates. */
export function filesOfViteManifest(manifest: ViteManifest, base = "/"): string[] {
  const files = new Set<string>();
  for (const chunk of Object.values(manifest)) {
    for (const f of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(base + f);
  }
  return [...files].sort();
}

/** The built sw.js with its precache list and version filled in. */
export function injectPrecache(swSource: string, files: string[]): string {
  if (!swSource.includes(PRECACHE_PLACEHOLDER)) throw new Error(`sw.js lacks ${PRECACHE_PLACEHOLDER}`);
  const version = createHash("sha256").update(swSource).update(files.join("\n")).digest("hex").slice(0, 12);
  return swSource.replace(PRECACHE_PLACEHOLDER, JSON.stringify({ version, files }));
}

export function swPrecache(): Plugin {
  let clientOutDir = "";
  let base = "/";
  return {
    name: "linkup:sw-precache",
    apply: "build",
    configResolved(config) {
      base = config.base;
      clientOutDir = config.environments.client?.build.outDir ?? "";
    },
    writeBundle: {
      sequential: true,
      order: "post",
      handler() {
        // The client build runs first; React Router writes its browser manifest while building the server
        // (the "ssr" environment of vite.config.ts).
        if (this.environment.name !== "ssr" || !clientOutDir) return;
        const viteManifest = join(clientOutDir, ".vite", "manifest.json");
        const sw = join(clientOutDir, "sw.js");
        if (!existsSync(viteManifest) || !existsSync(sw)) throw new Error("sw-precache: client build output missing");
        const files = filesOfViteManifest(JSON.parse(readFileSync(viteManifest, "utf8")), base);
        const assetsDir = join(clientOutDir, "assets");
        const routerManifest = readdirSync(assetsDir).filter((f) => /^manifest-[\w-]+\.js$/.test(f));
        if (routerManifest.length !== 1) throw new Error("sw-precache: expected one React Router manifest");
        files.push(`${base}assets/${routerManifest[0]}`);
        writeFileSync(sw, injectPrecache(readFileSync(sw, "utf8"), files.sort()));
      },
    },
  };
}
