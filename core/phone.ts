// One strict phone parser for every channel (issue 11): libphonenumber-js with its mobile-only metadata,
// Nigeria as the default region. Every number LinkUp keeps receives WhatsApp or SMS messages, so only valid
// mobile numbers are accepted, always in E.164. The product's looser rule (docs/product/identity.md: keep the digits, a leading
// 0 becomes +234, 10 digits get +234) still holds for every valid Nigerian number; what it turned into
// garbage ('+80312345678' from 11 digits without the 0) is refused instead.
// Server-side only: screens import nothing from here, so the metadata stays out of the browser bundle. In the Worker
// the library and its metadata (about 130 KiB) load with the first phone parsed, not when an isolate starts
// (docs/decisions/070-light-enough-for-2g.md); so parsing is async.
type PhoneLibrary = typeof import("libphonenumber-js/mobile");
let library: Promise<PhoneLibrary> | undefined;
function phoneLibrary(): Promise<PhoneLibrary> {
  library ??= import("libphonenumber-js/mobile").catch((e: unknown) => {
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
  const { parsePhoneNumberWithError } = await phoneLibrary();
  try {
    const parsed = parsePhoneNumberWithError(international, { defaultCountry: DEFAULT_PHONE_REGION, extract: false });
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
