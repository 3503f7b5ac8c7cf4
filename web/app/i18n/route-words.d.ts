// The modules scripts/route-words-plugin.ts builds (docs/decisions/078-each-page-carries-its-own-words.md).
declare module "virtual:linkup/route-words/server" {
  export const WORDS_BASE: string;
  /** How many keys the English catalog had at build time: the lists below index into `Object.keys(en)`. */
  export const KEY_COUNT: number;
  /** The shell's, the toasts' and the error texts' keys: in every page. */
  export const SHARED: number[];
  /** [path as routes.ts writes it, its own keys, its title's keys, its words file's name or null], in routes.ts's order. */
  export const ROUTES: [string, number[], number[], string | null][];
}

declare module "virtual:linkup/route-words/client" {
  /** Where the words files are: `${WORDS_BASE}/${language tag}/${name}.json`. */
  export const WORDS_BASE: string;
  /** [path as routes.ts writes it, the name of its words file or null when it has no words of its own]. */
  export const ROUTES: [string, string | null][];
}
