import { Form, Link } from "react-router";
import { cacheStatusAction, loadCacheStatus } from "../features/offline/cache-status.server";
import { DeviceOffline } from "../features/offline/device-offline";
import { metaTitle, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/cache-status";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "cache.metaTitle", "Cache Status — LinkUp") }];

export function loader({ context }: Route.LoaderArgs) {
  return loadCacheStatus(context);
}

export function action({ context }: Route.ActionArgs) {
  return cacheStatusAction(context);
}

export default function CacheStatus({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, server } = loaderData;
  const user = useRootData()?.user ?? null;
  const t = useT();
  const me = user ? { id: user.id, nickname: user.nickname, localMesh: user.settings.meshNetworking } : null;
  return (
    <div className="cache-status">
      <section className="card">
        <h1>{t("cache.title")}</h1>
        <p>{t("cache.intro")}</p>
        {admin ? (
          <p>
            <Link to="/database-admin">{t("admin.databaseAdmin")}</Link> ·{" "}
            <Link to="/analytics-dashboard">{t("home.teaser.analytics.title")}</Link>
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="device-title">
        <h2 id="device-title">{t("cache.device")}</h2>
        <noscript>
          <p>{t("cache.needsJs")}</p>
        </noscript>
        <DeviceOffline me={me} />
      </section>
      {admin ? (
        <section className="card" aria-labelledby="server-title">
          <h2 id="server-title">{t("cache.server")}</h2>
          {server ? (
            <>
              <ul aria-label={t("cache.edge")}>
                {server.edge.entries.map((e) => (
                  <li key={e.key}>
                    {e.key}: {e.cached ? t("cache.cached", { bytes: e.bytes }) : t("cache.notCached")}
                  </li>
                ))}
              </ul>
              <p className="text-sm text-muted">{t("cache.noMemory")}</p>
            </>
          ) : (
            <p role="alert">{t("cache.unreadable")}</p>
          )}
          <Form method="post">
            <button type="submit" className="btn">
              {t("cache.purge")}
            </button>
          </Form>
          {actionData ? (
            <p role="status" className={actionData.ok ? "text-ok" : "text-danger"}>
              {actionData.ok ? t("cache.purged", { count: actionData.purged }) : t.error(actionData.error) || t("cache.notPurged")}
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
