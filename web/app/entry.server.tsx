import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { appContext } from "./context";
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
  const body = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
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
  // The HTML alone before the first paint, its stylesheet inline (lib/inline-css.server.ts); the scripts start after it.
  return new Response(paintFirstStream(inlineStylesheetStream(body, nonce)), { headers, status });
}
