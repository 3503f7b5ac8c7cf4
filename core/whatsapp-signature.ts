// Twilio's request signature (X-Twilio-Signature) on WebCrypto, so it runs in workerd and in the browser-free
// server action of /whatsapp-demo: base64 of HMAC-SHA1, keyed with the auth token, over the full public URL
// followed by every form field as name+value, names sorted (repeated names: distinct values, sorted).

/** Form fields as Twilio sees them: repeated names keep every value. */
export type TwilioParams = Record<string, string | string[]>;

/** Collects a form body's fields; a name given more than once becomes a list, as Twilio's helper expects. */
export function paramsFromForm(form: URLSearchParams): TwilioParams {
  const out: TwilioParams = {};
  for (const [name, value] of form) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** The exact string Twilio signs. */
export function signedPayload(url: string, params: TwilioParams): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    const values = Array.isArray(value) ? [...new Set(value)].sort() : [value];
    for (const v of values) data += name + v;
  }
  return data;
}

function toBase64(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

export async function twilioSignature(authToken: string, url: string, params: TwilioParams): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(authToken), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  return toBase64(await crypto.subtle.sign("HMAC", key, enc.encode(signedPayload(url, params))));
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The URL with and without its default port: Twilio may have signed either (its helper checks both). */
export function urlVariants(url: string): string[] {
  const m = /^(https?:\/\/)([^/?#:]+)(:\d+)?(.*)$/i.exec(url);
  if (!m) return [url];
  const [, scheme, host, port, rest] = m;
  const defaultPort = scheme.toLowerCase() === "https://" ? ":443" : ":80";
  const variants = new Set([url, `${scheme}${host}${rest}`]);
  if (!port) variants.add(`${scheme}${host}${defaultPort}${rest}`);
  return [...variants];
}

/** True when the signature matches one of the public URLs this request may have been sent to. */
export async function validTwilioSignature(authToken: string, signature: string, urls: string[], params: TwilioParams): Promise<boolean> {
  if (!authToken || !signature) return false;
  for (const url of urls.flatMap(urlVariants)) {
    if (sameText(await twilioSignature(authToken, url, params), signature)) return true;
  }
  return false;
}
