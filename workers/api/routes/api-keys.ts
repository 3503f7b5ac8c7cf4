// The public API's document and its keys (docs/decisions/032-public-api-and-keys.md).
import { Hono } from "hono";
import { ApiKeyIdSchema, CreateApiKeySchema } from "../../../core/api-keys";
import { createApiKey, listApiKeys, revokeApiKey } from "../../api-keys";
import { requireUser, requireVerified } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson, parseWith } from "../../errors";

export const apiKeysApi = new Hono<AppBindings>()
  // The document and the schemas it describes load on the first request for it (docs/decisions/082).
  .get("/openapi.json", async (c) => c.json((await import("../../../core/public-api")).openApiDocument(new URL(c.req.url).origin)))
  .get("/api-keys", async (c) => c.json(await listApiKeys(c.var.db, requireUser(c))))
  .post("/api-keys", async (c) => {
    const user = requireVerified(c);
    const { name } = await parseJson(c, CreateApiKeySchema);
    return c.json(await createApiKey(c.env, c.var.db, user, name), 201);
  })
  .delete("/api-keys/:id", async (c) => {
    const user = requireUser(c);
    await revokeApiKey(c.var.db, user, parseWith(ApiKeyIdSchema, c.req.param("id")));
    return c.json({ revoked: true });
  });
