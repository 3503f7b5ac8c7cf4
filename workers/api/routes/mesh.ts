import { Hono } from "hono";
import { MeshRelaySchema } from "../../../core/mesh-relay-schemas";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { clientAddress } from "../../limits";
import { relayFromMesh } from "../../mesh/relay";

// A phone hands the relay what it carried for others on the phone mesh (docs/decisions/066-phones-paired-by-code.md).
export const meshApi = new Hono<AppBindings>().post("/mesh/relay", async (c) => {
  requireUser(c);
  const body = await parseJson(c, MeshRelaySchema);
  const address = clientAddress(c.env, c.req.header("cf-connecting-ip"));
  return c.json(await relayFromMesh(c.env, c.var.db, { envelopes: body.envelopes, clientAddress: address }));
});
