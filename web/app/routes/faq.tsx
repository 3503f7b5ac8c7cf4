import { Form, Link, useSearchParams, useSubmit } from "react-router";
import { panicGuardedSubmit } from "../features/security/panic";
import { apiGet } from "../lib/api.server";
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/faq";

interface FaqItem {
  id: string;
  question: string;
  answer: string;
  category: string;
  popular: boolean;
  tags: string[];
}

const CATEGORIES = ["all", "bluetooth", "mesh", "ai", "mobile", "emergency", "support"] as const;
const CATEGORY_LABEL: Record<(typeof CATEGORIES)[number], MessageKey> = {
  all: "faq.cat.all",
  bluetooth: "faq.cat.bluetooth",
  mesh: "faq.cat.mesh",
  ai: "faq.cat.ai",
  mobile: "faq.cat.mobile",
  emergency: "faq.cat.emergency",
  support: "faq.cat.support",
};

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "faq.meta", "FAQ — LinkUp") }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().toLowerCase();
  const category = url.searchParams.get("category") ?? "all";
  const res = await apiGet<{ items: FaqItem[] }>(context, "/api/content/faq");
  const all = res?.items ?? [];
  // Search and filter on the server so the page works the same with or without JavaScript.
  const items = all.filter(
    (f) =>
      (category === "all" || f.category === category) && (!q || [f.question, f.answer, ...f.tags].some((t) => t.toLowerCase().includes(q))),
  );
  return { items, popular: all.filter((f) => f.popular).slice(0, 6), q, category };
}

export default function Faq({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { items, popular, q, category } = loaderData;
  const t = useT();
  // The panic code typed as a search wipes this device instead (features/security/panic.ts).
  const root = useRootData();
  const submit = useSubmit();
  return (
    <>
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("faq.title")}</h1>
        <Form
          method="get"
          role="search"
          className="flex flex-wrap items-center gap-2"
          onSubmit={panicGuardedSubmit(root?.user?.id ?? null, "q", (form) => submit(form))}
        >
          <label className="sr-only" htmlFor="faq-q">
            {t("faq.search")}
          </label>
          <input id="faq-q" name="q" type="search" defaultValue={q} placeholder={t("faq.search")} />
          <input type="hidden" name="category" value={category} />
          <button type="submit" className="btn btn-primary">
            {t("faq.searchButton")}
          </button>
        </Form>
        <nav aria-label={t("faq.categories")} className="flex flex-wrap items-center gap-2">
          {CATEGORIES.map((c) => {
            const next = new URLSearchParams(params);
            next.set("category", c);
            return (
              <Link
                key={c}
                to={`?${next}`}
                className={`btn ${c === category ? "btn-primary" : "btn-ghost"}`}
                aria-current={c === category ? "page" : undefined}
              >
                {t(CATEGORY_LABEL[c])}
              </Link>
            );
          })}
        </nav>
      </section>
      {!q && category === "all" ? (
        <section aria-labelledby="popular">
          <h2 id="popular">{t("faq.popular")}</h2>
          <ul className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3 list-none p-0">
            {popular.map((f) => (
              <li key={f.id} className="card">
                <a href={`#${f.id}`}>{f.question}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="answers">
        <h2 id="answers">{t("faq.answers")}</h2>
        {items.length === 0 ? (
          <div className="card grid justify-items-center gap-3 text-center">
            <p>
              <strong>{t("faq.noResults")}</strong>
            </p>
            <p>{t("faq.noResultsHint")}</p>
          </div>
        ) : (
          items.map((f) => (
            <details key={f.id} id={f.id} className="card">
              <summary>{f.question}</summary>
              <p>{f.answer}</p>
            </details>
          ))
        )}
      </section>
    </>
  );
}
