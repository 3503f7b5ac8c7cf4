// t() for screens (docs/decisions/078-each-page-carries-its-own-words.md). The server renders a page with the
// shared set and the route's own words (./messages.server.ts, handed over by entry.server.tsx); the HTML carries
// only its title's. The browser fetches the same words as two files under /assets before it hydrates
// (entry.client.tsx), and a client-side navigation fetches the next route's before it renders
// (./route-words-layout.tsx). This module carries no catalog. A key the page lacks would show as the key itself,
// which tests/e2e/raw-keys.spec.ts forbids on every screen.
/// <reference path="./route-words.d.ts" />
import { useContext, useRef } from "react";
import { useRouteLoaderData } from "react-router";
import { ROUTES, WORDS_BASE } from "virtual:linkup/route-words/client";
import { isUiLanguage, LANGUAGE_NATIVE_NAMES, UI_LANGUAGES } from "../../../core/i18n/languages";
import type { MessageKey } from "../../../core/i18n/en";
import { formatMessage, formatNaira, type Message, type Vars } from "../../../core/i18n/translate";
import { routeIndexOf } from "./route-match";
import { decodeWords } from "./words-codec";
import { ServerWords } from "./words-context";
import { type Said, type SayOptions, sayRefusal } from "./refusal";

interface PageI18n {
  language: string;
  tag: string;
  dir: "ltr" | "rtl";
  messages: Record<string, Message>;
}
interface LanguageData {
  /** As the root loader sends it: `words` holds the page title's words only, encoded by ./words-codec.ts. */
  i18n: Omit<PageI18n, "messages"> & { words: string };
}

const ENGLISH: LanguageData["i18n"] = { language: "english", tag: "en", dir: "ltr", words: "" };

// Decoded once per words string (the server renders many t() from one page's words).
const DECODED = new Map<string, Record<string, Message>>();
function decoded(words: string): Record<string, Message> {
  let messages = DECODED.get(words);
  if (!messages) {
    if (DECODED.size > 64) DECODED.clear();
    messages = decodeWords(words);
    DECODED.set(words, messages);
  }
  return messages;
}

// In the browser, every word fetched stays for the tab's life, per language tag: a toast raised on one screen and
// still showing on the next, or a screen kept while the next loads, never loses its words.
const STORES = new Map<string, Record<string, Message>>();
const storeOf = (tag: string) => {
  let store = STORES.get(tag);
  if (!store) {
    store = {};
    STORES.set(tag, store);
  }
  return store;
};
/** Words files already in a store ("<tag>/<name>"), or on their way. */
const LOADED = new Map<string, Promise<void>>();
// The language this page was given. When a navigation's data request fails, the root's error boundary renders
// without the root's loader data; the page keeps speaking the language it already had instead of showing keys.
let lastKnown: LanguageData["i18n"] | null = null;

function pageI18n(data: Partial<LanguageData> | undefined): PageI18n {
  const given = data?.i18n;
  const { words, ...i18n } = given ?? lastKnown ?? ENGLISH;
  if (typeof window === "undefined") return { ...i18n, messages: decoded(words) };
  if (given) lastKnown = given;
  const store = storeOf(i18n.tag);
  // The title's words: already in the route's file, but a page restored from the offline worker may be older.
  for (const [key, message] of Object.entries(decoded(words))) store[key] ??= message;
  return { ...i18n, messages: store };
}

function loadFile(tag: string, name: string, started?: Promise<unknown>): Promise<void> {
  const id = `${tag}/${name}`;
  let loading = LOADED.get(id);
  if (!loading) {
    loading = (
      started ?? fetch(`${WORDS_BASE}/${id}.json`).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`words ${id}: ${r.status}`))))
    )
      .then((words) => {
        Object.assign(storeOf(tag), words as Record<string, Message>);
      })
      .catch((e: unknown) => {
        LOADED.delete(id);
        throw e;
      });
    LOADED.set(id, loading);
  }
  return loading;
}

/**
 * Brings the shared words and those of the route a path shows, in a language, before anything renders with them.
 * Files are content-addressed under /assets: the browser and the offline worker keep them.
 */
export async function ensureWords(tag: string, pathname: string): Promise<void> {
  const name = ROUTES[routeIndexOf(ROUTES, pathname)]?.[1];
  await Promise.all([loadFile(tag, "_shared"), name ? loadFile(tag, name) : null]);
}

/** The tag of the page's language (for the route-words layout's navigations). */
export const pageTag = () => lastKnown?.tag ?? document.documentElement.lang ?? "en";

declare global {
  interface Window {
    /** The words' fetches lib/paint-first.server.ts starts with the scripts: [href, response's JSON]. */
    __linkupWords?: [string, Promise<unknown>][];
  }
}

/** Before hydrating: the words the server rendered this page with (fetched from when the scripts started). */
export async function loadPageWords(): Promise<void> {
  const tag = document.documentElement.lang || "en";
  const started = new Map(window.__linkupWords ?? []);
  const name = ROUTES[routeIndexOf(ROUTES, window.location.pathname)]?.[1];
  const file = (n: string) => loadFile(tag, n, started.get(`${WORDS_BASE}/${tag}/${n}.json`));
  await Promise.all([file("_shared"), name ? file(name) : null]);
}

export type T = ((key: MessageKey, vars?: Vars) => string) & {
  tag: string;
  language: string;
  /** A refusal in the page's language: the API's by its code, the web's own by its key (./refusal.ts). */
  error: (said: Said, options?: SayOptions) => string;
  naira: (amount: number) => string;
};

export function useT(): T {
  const i18n = usePageLanguage();
  // One t per language: every revalidation brings a new copy of the same messages, and effects that list t
  // among their dependencies (toasts after an action) must not run again for it.
  const ref = useRef<{ language: string; t: T } | null>(null);
  if (ref.current?.language !== i18n.language) ref.current = { language: i18n.language, t: makeT(i18n) };
  return ref.current.t;
}

// t reads the language's store as it is when called, so words that arrive later (the next route's) need no new t.
function makeT(i18n: PageI18n): T {
  const t = ((key: MessageKey, vars?: Vars) => formatMessage(i18n.messages[key], i18n.tag, vars, key)) as T;
  t.tag = i18n.tag;
  t.language = i18n.language;
  t.error = (said, options) => sayRefusal(said, t, (key) => i18n.messages[key] !== undefined, options);
  t.naira = (amount) => formatNaira(amount, i18n.tag);
  return t;
}

export function usePageLanguage(): PageI18n {
  const i18n = pageI18n(useRouteLoaderData<LanguageData>("root"));
  const server = useContext(ServerWords);
  return server ? { ...i18n, messages: server } : i18n;
}

/** The language picker's labels: complete languages by their own names, the others marked as English screens. */
export function languageLabels(t: T, options: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    options.map((o) => [
      o,
      isUiLanguage(o) ? LANGUAGE_NATIVE_NAMES[o] : t("settings.languageIncomplete", { name: o[0].toUpperCase() + o.slice(1) }),
    ]),
  );
}

export const completeLanguageNames = () => UI_LANGUAGES.map((l) => LANGUAGE_NATIVE_NAMES[l]).join(", ");

/** A page <title> in the page's language, for a route's meta (which has no hooks): from the root's messages. */
export function metaTitle(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[], key: MessageKey, english: string) {
  // React Router 8 gives a meta match its loader's data as `loaderData` (it no longer has `data`).
  const root = matches.find((m) => m?.id === "root")?.loaderData as Partial<LanguageData> | undefined;
  const title = root?.i18n ? pageI18n(root).messages[key] : undefined;
  return typeof title === "string" ? title : english;
}
