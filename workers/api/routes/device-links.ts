// Device links (docs/protocol.md §2a): the old device starts one and shows its code; the new device sends its
// MACed record; the old device sends the sealed account key; the new device takes it and the link is spent.
// Both devices are the same signed-in person; the server relays and cannot read or forge either half.
import { Hono } from "hono";
import { LinkGrantSchema, LinkIdSchema, LinkRequestSchema } from "../../../core/device-link";
import { DomainError } from "../../../core/domain-error";
import { requireUser } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { endLink, grantLink, linkOf, requestLink, startLink } from "../../rooms/device-linking";

function linkParam(id: string | undefined): string {
  const parsed = LinkIdSchema.safeParse(id);
  if (!parsed.success) throw new DomainError("link_code_expired", "This code has expired or was used: start again");
  return parsed.data;
}

export const deviceLinksApi = new Hono<AppBindings>()
  .post("/device-links", async (c) => {
    const user = requireUser(c);
    return c.json(await startLink(c.var.db, user.id), 201);
  })
  .get("/device-links/:id", async (c) => {
    const user = requireUser(c);
    return c.json(await linkOf(c.var.db, user.id, linkParam(c.req.param("id"))));
  })
  .put("/device-links/:id/request", async (c) => {
    const user = requireUser(c);
    const id = linkParam(c.req.param("id"));
    await requestLink(c.var.db, user.id, id, await parseJson(c, LinkRequestSchema));
    return c.json({ ok: true });
  })
  .put("/device-links/:id/grant", async (c) => {
    const user = requireUser(c);
    const id = linkParam(c.req.param("id"));
    await grantLink(c.var.db, user.id, id, await parseJson(c, LinkGrantSchema));
    return c.json({ ok: true });
  })
  .delete("/device-links/:id", async (c) => {
    const user = requireUser(c);
    await endLink(c.var.db, user.id, linkParam(c.req.param("id")));
    return c.json({ ok: true });
  });
