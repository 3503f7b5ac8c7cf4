// One strict phone parser for every channel (issue 11): libphonenumber-js with its mobile-only metadata,
// Nigeria as the default region. Every number LinkUp keeps receives WhatsApp or SMS messages, so only valid
// mobile numbers are accepted, always in E.164. The product's looser rule (docs/product/identity.md: keep the digits, a leading
// 0 becomes +234, 10 digits get +234) still holds for every valid Nigerian number; what it turned into
// garbage ('+80312345678' from 11 digits without the 0) is refused instead.
// Server-side only: screens import nothing from here, so the metadata stays out of the browser bundle. In the Worker
// the library loads with the first phone parsed, not when an isolate starts (docs/decisions/070-light-enough-for-2g.md),
// so parsing is async; its metadata (libphonenumber-js's "mobile" set, 99 KiB) is not in the built Worker at all: the
// build writes it as a static asset that the Worker's entry names (`servePhoneMetadataFrom`, workers/worker-assets.ts;
// docs/decisions/082-a-worker-that-starts-small.md). Development and the tests import it from the package.
import type { MetadataJson } from "libphonenumber-js/core";

/** Where the metadata comes from, or a rejection that says what is missing. */
export type PhoneMetadataSource = () => Promise<MetadataJson>;

// `import.meta.env.PROD` is true only in `vite build`, which drops the package's copy.
const FROM_PACKAGE: PhoneMetadataSource | null = import.meta.env.PROD
  ? null
  : () => import("libphonenumber-js/metadata.mobile.json").then((m) => m.default as MetadataJson);

type PhoneLibrary = [typeof import("./phone-library"), MetadataJson];
let metadataSource: PhoneMetadataSource | null = FROM_PACKAGE;
let library: Promise<PhoneLibrary> | undefined;

/** Where the production Worker reads the phone metadata (its entry, workers/app.ts). */
export function servePhoneMetadataFrom(source: PhoneMetadataSource): void {
  metadataSource = source;
  library = undefined;
}

function phoneLibrary(): Promise<PhoneLibrary> {
  const source = metadataSource;
  library ??= Promise.all([
    import("./phone-library"),
    source ? source() : Promise.reject(new Error("phone metadata: no source (the production entry, workers/app.ts, sets it)")),
  ]).catch((e: unknown) => {
    library = undefined; // a failed load is forgotten: the next phone tries again
    throw e;
  });
  return library;
}

export const DEFAULT_PHONE_REGION = "NG";

export type PhoneParse = { ok: true; phone: string } | { ok: false; reason: "empty" | "invalid" };

/**
 * Parses what a person typed (or a gateway sent) into E.164: '+234 0803…', '0803…', '234803…', '803…' and
 * '00234…' are one number. Letters (so extensions too), wrong lengths and non-mobile numbers are invalid.
 */
export async function parsePhone(input: string): Promise<PhoneParse> {
  const text = input.trim();
  if (!/\d/.test(text)) return { ok: false, reason: text ? "invalid" : "empty" };
  if (!/^[+\d\s().\-/]+$/.test(text)) return { ok: false, reason: "invalid" };
  // '00' is how many people write the international prefix; no Nigerian national number starts with it.
  const international = text.replace(/^00(?=[1-9])/, "+");
  const [{ parsePhoneNumberWithError }, metadata] = await phoneLibrary();
  try {
    const parsed = parsePhoneNumberWithError(international, { defaultCountry: DEFAULT_PHONE_REGION, extract: false }, metadata);
    if (parsed.ext || !parsed.isValid()) return { ok: false, reason: "invalid" };
    return { ok: true, phone: parsed.number };
  } catch {
    return { ok: false, reason: "invalid" };
  }
}

/** The E.164 form of a phone, or null when it is empty or not a valid mobile number. */
export async function normalizePhone(input: string): Promise<string | null> {
  const r = await parsePhone(input);
  return r.ok ? r.phone : null;
}
