import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { appContext } from "./context";
import { PAGE_OWNER_HEADER } from "./lib/device-served";
import { fallbackPageWords } from "./i18n/messages.server";
import { decodeWords } from "./i18n/words-codec";
import { pageWordsContext, type ServerPageWords, ServerWords } from "./i18n/words-context";
import { inlineStylesheetStream } from "./lib/inline-css.server";
import { paintFirstStream } from "./lib/paint-first.server";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  let shellRendered = false;
  // The Worker's Content-Security-Policy allows inline scripts only with this answer's nonce.
  const { nonce } = loadContext.get(appContext);
  // The page's words, from the root loader; English when it did not run (the error screen of a failed load).
  let words: ServerPageWords;
  try {
    words = loadContext.get(pageWordsContext);
  } catch {
    words = await fallbackPageWords(request);
  }
  const page = (
    <ServerWords.Provider value={decodeWords(words.words)}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </ServerWords.Provider>
  );
  const body = await renderToReadableStream(page, {
    nonce,
    onError(error: unknown) {
      status = 500;
      // Errors after the shell are streamed to the error boundary; log the rest.
      if (shellRendered) console.error(error);
    },
  });
  shellRendered = true;
  // Bots and no-JS clients get the whole document at once.
  if (isbot(request.headers.get("user-agent") || "") || routerContext.isSpaMode) await body.allReady;
  headers.set("Content-Type", "text/html; charset=utf-8");
  // Whose page this is, for the offline worker: it paints a kept page at once only for the person it was made for
  // (web/public/sw.js, docs/decisions/078-each-page-carries-its-own-words.md). Empty for a visitor with no session.
  const root = routerContext.staticHandlerContext.loaderData.root as { user?: { id?: string } | null } | undefined;
  headers.set(PAGE_OWNER_HEADER, root?.user?.id ?? "");
  // The HTML alone before the first paint, its stylesheet inline (lib/inline-css.server.ts); the scripts start after it.
  return new Response(paintFirstStream(inlineStylesheetStream(body, nonce), words.hrefs), { headers, status });
}
