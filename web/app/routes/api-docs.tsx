// /api-docs (spec part 2 §2 item 12): quick start, SDK examples, the API reference rendered from the OpenAPI
// document the server generates from its zod schemas, rate limits by plan, and the person's API keys.
import { Form, Link } from "react-router";
import { API_DAILY_CALLS, API_DEVICES, API_PLAN_NAMES, type ApiKeysAnswer, type CreatedApiKey } from "../../../core/api-keys";
import { TIERS } from "../../../core/constants";
import { NOT_OFFERED, type OpenApiDocument } from "../../../core/public-api";
import { TabLinks, useQueryTab } from "../components/tabs";
import { apiKeyAction, loadApiDocs } from "../features/api-docs/api-docs.server";
import { CopyButton } from "../features/api-docs/copy-button";
import type { Route } from "./+types/api-docs";

export const meta: Route.MetaFunction = () => [{ title: "API Documentation — LinkUp" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadApiDocs(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return apiKeyAction(request, context);
}

const SDK_TABS = [
  { id: "javascript", label: "JavaScript" },
  { id: "python", label: "Python" },
  { id: "curl", label: "cURL" },
] as const;

function examples(origin: string): Record<(typeof SDK_TABS)[number]["id"], string> {
  const url = `${origin}/api/ai/translate`;
  return {
    javascript: `const res = await fetch("${url}", {
  method: "POST",
  headers: { Authorization: "Bearer YOUR_API_KEY", "Content-Type": "application/json" },
  body: JSON.stringify({ text: "Good morning", targetLanguage: "Yoruba" }),
});
console.log(await res.json());`,
    python: `import requests

res = requests.post(
    "${url}",
    headers={"Authorization": "Bearer YOUR_API_KEY"},
    json={"text": "Good morning", "targetLanguage": "Yoruba"},
)
print(res.json())`,
    curl: `curl -X POST "${url}" \\
  -H "Authorization: Bearer YOUR_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"text": "Good morning", "targetLanguage": "Yoruba"}'`,
  };
}

type Operation = {
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; schema: { type?: string; enum?: string[] } }[];
  requestBody?: {
    content: { "application/json": { schema: { properties?: Record<string, { type?: string; enum?: string[] }>; required?: string[] } } };
  };
};

function whoMayCall(op: Operation): string {
  if (op.security.length === 0) return "No sign-in needed";
  return op.security.some((s) => "bearerAuth" in s) ? "API key or signed-in browser" : "Signed-in browser only";
}

function typeOf(schema: { type?: string; enum?: string[] }): string {
  return schema.enum ? schema.enum.join(" | ") : (schema.type ?? "any");
}

function Reference({ doc }: { doc: OpenApiDocument }) {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <section className="card stack" aria-labelledby="reference-title">
      <h2 id="reference-title">API reference</h2>
      <p className="small muted">
        Generated from the schemas the server validates with. Errors answer <code>{'{ "error": "…" }'}</code> with the HTTP status.
      </p>
      {doc.tags.map(({ name }) => (
        <section key={name} aria-label={name} className="stack">
          <h3>{name}</h3>
          <ul className="list-plain stack">
            {ops
              .filter((o) => o.op.tags.includes(name))
              .map(({ path, method, op }) => {
                const body = op.requestBody?.content["application/json"].schema;
                const fields = [
                  ...(op.parameters ?? []).map((p) => ({ name: p.name, type: typeOf(p.schema), where: "query", required: false })),
                  ...Object.entries(body?.properties ?? {}).map(([name, s]) => ({
                    name,
                    type: typeOf(s),
                    where: "body",
                    required: body?.required?.includes(name) ?? false,
                  })),
                ];
                return (
                  <li key={`${method} ${path}`} className="stack">
                    <strong>
                      <span className="tag">{method.toUpperCase()}</span> <code>{path}</code>
                    </strong>
                    <span>{op.summary}</span>
                    <span className="small muted">{whoMayCall(op)}</span>
                    {fields.length ? (
                      <ul className="small">
                        {fields.map((f) => (
                          <li key={f.name}>
                            <code>{f.name}</code> ({f.where}, {f.type}
                            {f.required ? ", required" : ""})
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                );
              })}
          </ul>
        </section>
      ))}
      <section aria-label="Not offered" className="stack">
        <h3>Not offered</h3>
        <ul className="small">
          {NOT_OFFERED.map((n) => (
            <li key={n.path}>
              <code>
                {n.method} {n.path}
              </code>
              : {n.instead}
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}

function Keys({ keys, created, error }: { keys: ApiKeysAnswer | null; created: CreatedApiKey | null; error: string | null }) {
  return (
    <section className="card stack" aria-labelledby="keys-title">
      <h2 id="keys-title">Your API keys</h2>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      {!keys ? (
        <p>
          <Link to="/signup">Start chatting</Link> and verify your phone to create API keys.
        </p>
      ) : !keys.canCreate ? (
        <p>
          API keys are for verified people. <Link to="/signup-verification?step=verify-phone">Verify your phone</Link> to create one.
        </p>
      ) : (
        <>
          <p className="small muted">
            {keys.plan}: {keys.dailyCalls === null ? "unlimited calls" : `${keys.dailyCalls.toLocaleString("en-US")} calls/day per key`}
            {keys.devices === null ? ", unlimited devices" : `, up to ${keys.devices} devices`}.
          </p>
          {created ? (
            <div className="card success stack" role="status">
              <strong>Key “{created.name}” created. Copy it now: it will not be shown again.</strong>
              <label>
                New API key
                <input readOnly value={created.key} className="secret" />
              </label>
              <CopyButton text={created.key} label="Copy key" />
            </div>
          ) : null}
          {keys.keys.length ? (
            <ul className="list-plain stack" aria-label="API keys">
              {keys.keys.map((k) => (
                <li key={k.id} className="row">
                  <span>
                    <strong>{k.name}</strong> <code>{k.hint}…</code>{" "}
                    <span className="small muted">
                      {k.callsToday.toLocaleString("en-US")} {k.callsToday === 1 ? "call" : "calls"} today
                    </span>
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="id" value={k.id} />
                    <button type="submit" className="btn btn-danger" aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No keys yet.</p>
          )}
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="create" />
            <label>
              Key name
              <input name="name" required maxLength={40} placeholder="e.g. Market bot" />
            </label>
            <button type="submit" className="btn btn-primary">
              Create API key
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

export default function ApiDocs({ loaderData, actionData }: Route.ComponentProps) {
  const { doc, keys, origin } = loaderData;
  const [tab, setTab] = useQueryTab(SDK_TABS);
  const code = examples(origin)[tab];
  return (
    <div className="stack api-docs">
      <section className="hero">
        <h1>API Documentation</h1>
        <p>Build on LinkUp: ask the assistant, translate, read market prices and SOS alerts in your area from your own app.</p>
      </section>
      <section className="card stack" aria-labelledby="quick-title">
        <h2 id="quick-title">Quick start</h2>
        <ol>
          <li>Verify your phone, then create an API key below. It is shown once: keep it secret.</li>
          <li>
            Send it as <code>Authorization: Bearer YOUR_API_KEY</code> with every request.
          </li>
          <li>Send and receive JSON. Every answer that is not OK carries an error message.</li>
        </ol>
      </section>
      <section className="card stack" aria-labelledby="sdk-title">
        <h2 id="sdk-title">SDK examples</h2>
        <TabLinks tabs={SDK_TABS} current={tab} label="Language" onSelect={setTab} />
        <figure aria-label={`${SDK_TABS.find((t) => t.id === tab)?.label} example`}>
          <pre className="pre">
            <code>{code}</code>
          </pre>
        </figure>
        <CopyButton text={code} label="Copy code" />
      </section>
      <Reference doc={doc} />
      <section className="card stack" aria-labelledby="limits-title">
        <h2 id="limits-title">Rate limits and pricing</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col">Calls per key</th>
              <th scope="col">Devices</th>
            </tr>
          </thead>
          <tbody>
            {TIERS.map((t) => (
              <tr key={t}>
                <th scope="row">{API_PLAN_NAMES[t]}</th>
                <td>{API_DAILY_CALLS[t] === null ? "Unlimited" : `${(API_DAILY_CALLS[t] ?? 0).toLocaleString("en-US")} calls/day`}</td>
                <td>{API_DEVICES[t] === null ? "Unlimited" : `Up to ${API_DEVICES[t]}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="small muted">
          Days count in UTC. Past the limit the API answers 429 with a Retry-After header. <Link to="/pricing">See plans and prices</Link>
        </p>
      </section>
      <Keys keys={keys} created={actionData?.created ?? null} error={actionData?.error ?? null} />
      <section className="card stack" aria-labelledby="resources-title">
        <h2 id="resources-title">Developer resources</h2>
        <ul>
          <li>
            <a href="/api/openapi.json">OpenAPI document (JSON)</a>
          </li>
          <li>
            <Link to="/support">Developer support</Link>
          </li>
          <li>
            <Link to="/faq">FAQ</Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
