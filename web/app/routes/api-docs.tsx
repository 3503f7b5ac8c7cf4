// /api-docs (docs/product/screens.md): quick start, SDK examples, the API reference rendered from the OpenAPI
// document the server generates from its zod schemas, rate limits by plan, and the person's API keys.
import { Form, Link } from "react-router";
import { API_DAILY_CALLS, API_DEVICES, API_PLAN_NAMES, type ApiKeysAnswer, type CreatedApiKey } from "../../../core/api-keys";
import { TIERS } from "../../../core/constants";
import { NOT_OFFERED, type OpenApiDocument } from "../../../core/public-api";
import { TabLinks, useQueryTab } from "../components/tabs";
import { metaTitle, type T, useT } from "../i18n";
import { apiKeyAction, loadApiDocs } from "../features/api-docs/api-docs.server";
import { CopyButton } from "../features/api-docs/copy-button";
import type { Route } from "./+types/api-docs";
import type { Refusal } from "../i18n/refusal";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "ad.metaTitle", "API Documentation — LinkUp") }];

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

function whoMayCall(op: Operation, t: T): string {
  if (op.security.length === 0) return t("ad.noSignIn");
  return op.security.some((s) => "bearerAuth" in s) ? t("ad.keyOrBrowser") : t("ad.browserOnly");
}

function typeOf(schema: { type?: string; enum?: string[] }): string {
  return schema.enum ? schema.enum.join(" | ") : (schema.type ?? "any");
}

function Reference({ doc }: { doc: OpenApiDocument }) {
  const t = useT();
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="reference-title">
      <h2 id="reference-title">{t("ad.reference")}</h2>
      <p className="text-sm text-muted">
        {t("ad.referenceBefore")} <code>{'{ "error": "…" }'}</code> {t("ad.referenceAfter")}
      </p>
      {doc.tags.map(({ name }) => (
        <section key={name} aria-label={name} className="grid gap-[0.6rem]">
          <h3>{name}</h3>
          <ul className="m-0 grid list-none gap-[0.35rem] p-0 gap-[0.6rem]">
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
                  <li key={`${method} ${path}`} className="grid gap-[0.6rem]">
                    <strong>
                      <span className="tag">{method.toUpperCase()}</span> <code>{path}</code>
                    </strong>
                    <span>{op.summary}</span>
                    <span className="text-sm text-muted">{whoMayCall(op, t)}</span>
                    {fields.length ? (
                      <ul className="text-sm">
                        {fields.map((f) => (
                          <li key={f.name}>
                            <code>{f.name}</code> ({f.where}, {f.type}
                            {f.required ? `, ${t("ad.required")}` : ""})
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
      <section aria-label={t("ad.notOffered")} className="grid gap-[0.6rem]">
        <h3>{t("ad.notOffered")}</h3>
        <ul className="text-sm">
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

function Keys({ keys, created, error }: { keys: ApiKeysAnswer | null; created: CreatedApiKey | null; error: Refusal | null }) {
  const t = useT();
  const n = (v: number) => v.toLocaleString(t.tag);
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="keys-title">
      <h2 id="keys-title">{t("ad.keys")}</h2>
      {error ? (
        <p role="alert" className="text-danger">
          {t.error(error)}
        </p>
      ) : null}
      {!keys ? (
        <p>
          <Link to="/signup">{t("ad.startChatting")}</Link> {t("ad.toCreate")}
        </p>
      ) : !keys.canCreate ? (
        <p>
          {t("ad.verifiedOnly")} <Link to="/signup-verification?step=verify-phone">{t("ad.verifyPhone")}</Link> {t("ad.toCreateOne")}
        </p>
      ) : (
        <>
          <p className="text-sm text-muted">
            {t("ad.plan", {
              plan: keys.plan,
              calls: keys.dailyCalls === null ? t("ad.unlimitedCalls") : t("ad.callsPerKey", { calls: n(keys.dailyCalls) }),
              devices: keys.devices === null ? t("ad.unlimitedDevices") : t("ad.upToDevices", { devices: n(keys.devices) }),
            })}
          </p>
          {created ? (
            <div className="card text-ok grid gap-[0.6rem]" role="status">
              <strong>{t("ad.created", { name: created.name })}</strong>
              <label>
                {t("ad.newKey")}
                <input readOnly value={created.key} className="secret wrap-anywhere" />
              </label>
              <CopyButton text={created.key} label={t("ad.copyKey")} />
            </div>
          ) : null}
          {keys.keys.length ? (
            <ul className="m-0 grid list-none gap-[0.35rem] p-0 gap-[0.6rem]" aria-label={t("ad.keysList")}>
              {keys.keys.map((k) => (
                <li key={k.id} className="flex flex-wrap items-center gap-2">
                  <span>
                    <strong>{k.name}</strong> <code>{k.hint}…</code>{" "}
                    <span className="text-sm text-muted">{t("ad.callsToday", { count: k.callsToday })}</span>
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="id" value={k.id} />
                    <button type="submit" className="btn btn-danger" aria-label={t("ad.revokeNamed", { name: k.name })}>
                      {t("ad.revoke")}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted">{t("ad.noKeys")}</p>
          )}
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="create" />
            <label>
              {t("ad.keyName")}
              <input name="name" required maxLength={40} placeholder={t("ad.keyPlaceholder")} />
            </label>
            <button type="submit" className="btn btn-primary">
              {t("ad.create")}
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
  const t = useT();
  const n = (v: number) => v.toLocaleString(t.tag);
  return (
    <div className="grid gap-[0.6rem] [&_code]:wrap-anywhere [&_pre]:wrap-anywhere">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("ad.title")}</h1>
        <p>{t("ad.intro")}</p>
      </section>
      <section className="card grid gap-[0.6rem]" aria-labelledby="quick-title">
        <h2 id="quick-title">{t("ad.quick")}</h2>
        <ol>
          <li>{t("ad.step1")}</li>
          <li>
            {t("ad.step2Before")} <code>Authorization: Bearer YOUR_API_KEY</code> {t("ad.step2After")}
          </li>
          <li>{t("ad.step3")}</li>
        </ol>
      </section>
      <section className="card grid gap-[0.6rem]" aria-labelledby="sdk-title">
        <h2 id="sdk-title">{t("ad.sdk")}</h2>
        <TabLinks tabs={SDK_TABS} current={tab} label={t("settings.language")} onSelect={setTab} />
        <figure aria-label={t("ad.example", { language: SDK_TABS.find((x) => x.id === tab)?.label ?? "" })}>
          <pre className="whitespace-pre-wrap">
            <code>{code}</code>
          </pre>
        </figure>
        <CopyButton text={code} label={t("ad.copyCode")} />
      </section>
      <Reference doc={doc} />
      <section className="card grid gap-[0.6rem]" aria-labelledby="limits-title">
        <h2 id="limits-title">{t("ad.limits")}</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("ad.planCol")}</th>
              <th scope="col">{t("ad.callsCol")}</th>
              <th scope="col">{t("ad.devicesCol")}</th>
            </tr>
          </thead>
          <tbody>
            {TIERS.map((tier) => (
              <tr key={tier}>
                <th scope="row">{API_PLAN_NAMES[tier]}</th>
                <td>
                  {API_DAILY_CALLS[tier] === null ? t("ad.unlimited") : t("ad.callsPerDay", { calls: n(API_DAILY_CALLS[tier] ?? 0) })}
                </td>
                <td>{API_DEVICES[tier] === null ? t("ad.unlimited") : t("ad.upTo", { devices: n(API_DEVICES[tier] ?? 0) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-sm text-muted">
          {t("ad.limitsNote")} <Link to="/pricing">{t("ad.seePlans")}</Link>
        </p>
      </section>
      <Keys keys={keys} created={actionData?.created ?? null} error={actionData?.error ?? null} />
      <section className="card grid gap-[0.6rem]" aria-labelledby="resources-title">
        <h2 id="resources-title">{t("ad.resources")}</h2>
        <ul>
          <li>
            <a href="/api/openapi.json">{t("ad.openapi")}</a>
          </li>
          <li>
            <Link to="/support">{t("ad.devSupport")}</Link>
          </li>
          <li>
            <Link to="/faq">{t("shell.link.faq")}</Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
