import { Form, Link } from "react-router";
import { AccessErrorPage } from "../features/admin/access";
import { cacheStatusAction, loadCacheStatus } from "../features/admin/cache-status.server";
import { DeviceCaches } from "../features/admin/device-caches";
import type { Route } from "./+types/cache-status";

export const meta: Route.MetaFunction = () => [{ title: "Cache Status — LinkUp" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadCacheStatus(context);
}

export function action({ context }: Route.ActionArgs) {
  return cacheStatusAction(context);
}

export default function CacheStatus({ loaderData, actionData }: Route.ComponentProps) {
  const { server } = loaderData;
  const serverCached = server?.edge.entries.some((e) => e.cached) ?? false;
  return (
    <div className="cache-status">
      <section className="card">
        <h1>Cache Status</h1>
        <p>
          <Link to="/database-admin">Database Admin</Link> · <Link to="/analytics-dashboard">Analytics Dashboard</Link>
        </p>
      </section>
      <section className="card" aria-labelledby="device-title">
        <h2 id="device-title">This device</h2>
        <noscript>
          <p>Only the browser can read its own caches: turn on JavaScript to see them.</p>
        </noscript>
        <DeviceCaches serverCached={serverCached} />
      </section>
      <section className="card" aria-labelledby="server-title">
        <h2 id="server-title">Server</h2>
        {server ? (
          <>
            <ul aria-label="Edge cache">
              {server.edge.entries.map((e) => (
                <li key={e.key}>
                  {e.key}: {e.cached ? `cached, ${e.bytes} bytes` : "not cached"}
                </li>
              ))}
            </ul>
            <p className="small muted">The Worker keeps no memory cache between requests; the keys above are every one it writes.</p>
          </>
        ) : (
          <p role="alert">The server's cache could not be read.</p>
        )}
        <Form method="post">
          <button type="submit" className="btn">
            Purge edge cache
          </button>
        </Form>
        {actionData ? (
          <p role="status" className={actionData.ok ? "success" : "error"}>
            {actionData.message}
          </p>
        ) : null}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccessErrorPage
      error={error}
      title="Cache Status"
      refusedTitle="Admin Access Required"
      fallback="The cache status could not be loaded."
    />
  );
}
