import { Link } from "react-router";
import { formatDate } from "../../../core/i18n/translate";
import { metaTitle, useT } from "../i18n";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/blog";

interface Article {
  id: string;
  title: string;
  description: string;
  content: string;
  author: string;
  date: string;
  readTime: string;
  category: string;
  tags: string[];
  featured: boolean;
}

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "blog.metaTitle", "Blog — LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  const res = await apiGet<{ articles: Article[] }>(context, "/api/content/blog");
  return { articles: res?.articles ?? [] };
}

function ArticleCard({ article, tags }: { article: Article; tags: number }) {
  const t = useT();
  return (
    <article className="card" aria-labelledby={`a-${article.id}`}>
      <p className="text-muted text-sm">
        {article.category} · <time dateTime={article.date}>{formatDate(article.date, t.tag)}</time> · {article.readTime}
      </p>
      <h3 id={`a-${article.id}`}>{article.title}</h3>
      <p>{article.description}</p>
      <details>
        <summary>{t("blog.read")}</summary>
        <p>{article.content}</p>
        <p className="text-muted text-sm">{t("blog.by", { author: article.author })}</p>
      </details>
      <ul className="flex flex-wrap items-center gap-2 list-none p-0" aria-label={t("blog.tags")}>
        {article.tags.slice(0, tags).map((tag) => (
          <li key={tag} className="tag">
            {tag}
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const featured = loaderData.articles.filter((a) => a.featured);
  const rest = loaderData.articles.filter((a) => !a.featured);
  const half = Math.ceil(rest.length / 2);
  const t = useT();
  return (
    <>
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("blog.title")}</h1>
        <p>{t("blog.intro")}</p>
      </section>
      <section aria-labelledby="featured">
        <h2 id="featured">{t("blog.featured")}</h2>
        <div className="mb-3 grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-3">
          {featured.map((a) => (
            <ArticleCard key={a.id} article={a} tags={3} />
          ))}
        </div>
      </section>
      <div className="grid grid-cols-2 gap-3 phone:grid-cols-1 blog-lists">
        <section aria-labelledby="latest">
          <h2 id="latest">{t("blog.latest")}</h2>
          {rest.slice(0, half).map((a) => (
            <ArticleCard key={a.id} article={a} tags={2} />
          ))}
        </section>
        <section aria-labelledby="more">
          <h2 id="more">{t("blog.more")}</h2>
          {rest.slice(half).map((a) => (
            <ArticleCard key={a.id} article={a} tags={2} />
          ))}
        </section>
      </div>
      <section className="card flex flex-wrap items-center gap-2">
        <Link to="/signup" className="btn btn-primary">
          {t("blog.joinFree")}
        </Link>
        <Link to="/whatsapp-demo" className="btn btn-ghost">
          {t("blog.tryBot")}
        </Link>
      </section>
    </>
  );
}
