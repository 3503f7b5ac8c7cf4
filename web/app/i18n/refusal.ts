// A refusal in the page's language (docs/decisions/075-errors-as-codes.md): the API's `{ error, code, values }`
// is shown as the catalog's `errors.<code>` message filled with `values`; the web's own refusals name their
// catalog key. No English sentence is matched: words LinkUp has no code for are shown as they came.
import type { MessageKey } from "../../../core/i18n/en";
import type { Vars } from "../../../core/i18n/translate";
import { HttpError } from "../../../core/http";

/** The API's error body, as screens keep it (action data, hook state). */
export interface ApiRefusal {
  error: string;
  code?: string;
  values?: Vars;
}
/** A refusal the web itself says, by its catalog key. */
export interface OwnRefusal {
  key: MessageKey;
  vars?: Vars;
}
/** What an action hands its screen: the API's refusal, the web's own, or words with no code (shown as they are). */
export type Refusal = ApiRefusal | OwnRefusal | string;
export type Said = Refusal | HttpError | Error | null | undefined;

/** The refusal in a JSON error body, when the body is one. */
export function refusalOf(body: unknown): ApiRefusal | null {
  if (!body || typeof body !== "object") return null;
  const { error, code, values } = body as Record<string, unknown>;
  if (typeof error !== "string") return null;
  return {
    error,
    ...(typeof code === "string" ? { code } : {}),
    ...(values && typeof values === "object" ? { values: values as Vars } : {}),
  };
}

/** The API's refusal in an answer, else the web's own words for the failure. */
export function refusalOr(body: unknown, key: MessageKey, vars?: Vars): ApiRefusal | OwnRefusal {
  return refusalOf(body) ?? { key, vars };
}

/** A 402's Premium offer: the refusal, and which offer it is (`offer`: limit_reached or premium_feature). */
export interface Offer {
  error: Refusal;
  code: string;
}

export function offerOf(body: unknown): Offer | null {
  const error = refusalOf(body);
  if (!error) return null;
  const kind = (body as { offer?: unknown }).offer;
  return { error, code: typeof kind === "string" ? kind : "premium_feature" };
}

export interface SayOptions {
  /** An invalid field's words on this screen: the API names the field (`values.field`) of an `invalid_request`. */
  fields?: Record<string, MessageKey>;
}

export function sayRefusal(
  said: Said,
  t: (key: MessageKey, vars?: Vars) => string,
  has: (key: string) => boolean,
  options: SayOptions = {},
): string {
  if (said === null || said === undefined) return "";
  if (typeof said === "string") return said;
  if (said instanceof HttpError) return sayRefusal(refusalOf(said.json) ?? said.errorText, t, has, options);
  if (said instanceof Error) return said.message;
  if ("key" in said) return t(said.key, said.vars);
  const { code, values } = said;
  if (code === "invalid_request") {
    const field = options.fields?.[String(values?.field ?? "")];
    if (field) return t(field);
  }
  const key = `errors.${code}`;
  return code && has(key) ? t(key as MessageKey, values) : said.error;
}
