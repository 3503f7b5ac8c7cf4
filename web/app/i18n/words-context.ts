// How a page's words reach the server's render without riding in its HTML's data
// (docs/decisions/078-each-page-carries-its-own-words.md): the root loader puts them in the request's context,
// web/app/entry.server.tsx hands them to React, and names the files the browser fetches to hydrate.
import { createContext as createReactContext } from "react";
import { createContext } from "react-router";
import type { Message } from "../../../core/i18n/translate";

export interface ServerPageWords {
  tag: string;
  /** The shared set and the route's own words, encoded by ./words-codec.ts. */
  words: string;
  /** The same words as the browser fetches them: the shared file and the route's file. */
  hrefs: string[];
}

export const pageWordsContext = createContext<ServerPageWords>();

/** The page's messages while the server renders it; null in the browser, which reads its own store. */
export const ServerWords = createReactContext<Record<string, Message> | null>(null);
