// /api/admin: the staff desk (staff and admins) and role management (admins). Guards first, always.
import { Hono } from "hono";
import { FindPeopleQuerySchema, SetRoleSchema } from "../../../core/admin-schemas";
import { findPeople, setRole } from "../../admin";
import { requireAdmin, requireStaff } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson, parseWith } from "../../errors";

export const adminApi = new Hono<AppBindings>()
  .get("/people", async (c) => {
    requireStaff(c);
    const { q } = parseWith(FindPeopleQuerySchema, c.req.query());
    return c.json({ people: await findPeople(c.var.db, q) });
  })
  .post("/people/:id/role", async (c) => {
    const admin = requireAdmin(c);
    const { role } = await parseJson(c, SetRoleSchema);
    return c.json(await setRole(c.var.db, admin, c.req.param("id"), role));
  });
