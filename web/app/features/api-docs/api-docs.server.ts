// Loader and action of /api-docs: the OpenAPI document and the person's keys, through the API in-process.
import { data } from "react-router";
import { ApiKeyFormSchema, type ApiKeysAnswer, type CreatedApiKey } from "../../../../core/api-keys";
import type { OpenApiDocument } from "../../../../core/public-api";
import { apiGet, apiSend } from "../../lib/api.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export async function loadApiDocs(request: Request, context: Ctx) {
  const [doc, keys] = await Promise.all([
    apiGet<OpenApiDocument>(context, "/api/openapi.json"),
    apiGet<ApiKeysAnswer>(context, "/api/api-keys"),
  ]);
  return { doc: doc as OpenApiDocument, keys, origin: new URL(request.url).origin };
}

export async function apiKeyAction(request: Request, context: Ctx) {
  const parsed = ApiKeyFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Invalid request", created: null }, { status: 400 });
  const form = parsed.data;
  const res =
    form.intent === "create"
      ? await apiSend<CreatedApiKey>(context, "POST", "/api/api-keys", { name: form.name })
      : await apiSend(context, "DELETE", `/api/api-keys/${encodeURIComponent(form.id)}`);
  if (!res.ok) return data({ error: refusalOr(res.json, "error.somethingWrong"), created: null }, { status: res.status });
  return { error: null, created: form.intent === "create" ? (res.json as CreatedApiKey) : null };
}
