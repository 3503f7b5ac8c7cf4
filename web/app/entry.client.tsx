// React Router's default browser entry, with one step first: the words the server rendered the page with are
// fetched (two files under /assets, started with the scripts) before hydrating, so the first render in the browser
// says what the server's did (docs/decisions/078-each-page-carries-its-own-words.md). Until then, and if they
// cannot be had (offline, never kept), the server's page stays as it is: it works without its scripts.
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { loadPageWords } from "./i18n";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

function start() {
  loadPageWords().then(hydrate, (e: unknown) => {
    console.warn("LinkUp: the page's words did not load; trying again", e);
    const again = () => {
      window.removeEventListener("online", again);
      clearTimeout(timer);
      start();
    };
    const timer = setTimeout(again, 10_000);
    window.addEventListener("online", again);
  });
}
start();
