// The production Worker's catalogs and phone metadata come from its static assets (docs/decisions/082): read once per
// isolate, and a missing or wrong file fails with its name, then is read again.
import { afterEach, describe, expect, it } from "vitest";
import { en } from "../core/i18n/en";
import { ha } from "../core/i18n/ha";
import { loadCatalog, loadTranslator, serveCatalogsFrom } from "../core/i18n/load-catalog";
import { normalizePhone, servePhoneMetadataFrom } from "../core/phone";
import { type AssetsFetcher, catalogsFromAssets, phoneMetadataFromAssets } from "./worker-assets";

const BASE = "/assets/worker-0123456789";
const KEYS = Object.keys(en).length;

/** A stand-in for the ASSETS binding: serves `files` by path and counts every fetch. */
function assets(files: Record<string, unknown>) {
  const asked: string[] = [];
  const fetcher: AssetsFetcher = {
    fetch: async (input) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      asked.push(path);
      return path in files ? Response.json(files[path]) : new Response("not found", { status: 404 });
    },
  };
  return { fetcher, asked };
}

afterEach(async () => {
  // Back to the sources, as in development and every other test.
  serveCatalogsFrom((language) => import("../core/i18n/catalogs").then((m) => m.CATALOGS[language]));
  servePhoneMetadataFrom(() => import("libphonenumber-js/metadata.mobile.json").then((m) => m.default as never));
});

describe("catalogs from the static assets", () => {
  it("reads a language's file (and English's, the fallback) once and formats with it", async () => {
    const { fetcher, asked } = assets({ [`${BASE}/catalog-en.json`]: en, [`${BASE}/catalog-ha.json`]: ha });
    serveCatalogsFrom(catalogsFromAssets(fetcher, BASE, KEYS));
    const t = await loadTranslator("hausa");
    expect(t("shell.home")).toBe(ha["shell.home"]);
    expect(ha["shell.home"]).not.toBe(en["shell.home"]);
    await loadTranslator("hausa");
    expect(asked.sort()).toEqual([`${BASE}/catalog-en.json`, `${BASE}/catalog-ha.json`]);
  });

  it("fails naming the missing file, and reads it again on the next request", async () => {
    const files: Record<string, unknown> = {};
    const { fetcher, asked } = assets(files);
    serveCatalogsFrom(catalogsFromAssets(fetcher, BASE, KEYS));
    await expect(loadCatalog("french")).rejects.toThrow(`${BASE}/catalog-fr.json: the static assets answered 404`);
    files[`${BASE}/catalog-fr.json`] = { ...en };
    expect((await loadCatalog("french"))["shell.home"]).toBe(en["shell.home"]);
    expect(asked.filter((p) => p.endsWith("catalog-fr.json"))).toHaveLength(2);
  });

  it("refuses a catalog from another build (another number of messages) and a Worker without the binding", async () => {
    const { fetcher } = assets({ [`${BASE}/catalog-yo.json`]: { "shell.home": "x" } });
    serveCatalogsFrom(catalogsFromAssets(fetcher, BASE, KEYS));
    await expect(loadCatalog("yoruba")).rejects.toThrow(`catalog-yo.json: 1 messages, the build has ${KEYS}`);
    serveCatalogsFrom(catalogsFromAssets(undefined, BASE, KEYS));
    await expect(loadCatalog("igbo")).rejects.toThrow("no ASSETS binding");
  });
});

describe("phone metadata from the static assets", () => {
  it("parses Nigerian numbers with the file, and fails clearly without it", async () => {
    const metadata = (await import("libphonenumber-js/metadata.mobile.json")).default;
    servePhoneMetadataFrom(phoneMetadataFromAssets(assets({}).fetcher, BASE));
    await expect(normalizePhone("0803 123 4567")).rejects.toThrow(`${BASE}/phone-metadata.json: the static assets answered 404`);
    servePhoneMetadataFrom(phoneMetadataFromAssets(assets({ [`${BASE}/phone-metadata.json`]: { countries: {} } }).fetcher, BASE));
    await expect(normalizePhone("0803 123 4567")).rejects.toThrow("not libphonenumber-js metadata");
    servePhoneMetadataFrom(phoneMetadataFromAssets(assets({ [`${BASE}/phone-metadata.json`]: metadata }).fetcher, BASE));
    expect(await normalizePhone("0803 123 4567")).toBe("+2348031234567");
    expect(await normalizePhone("01 234 5678")).toBeNull(); // a Lagos landline: not a mobile number
  });
});
