// /api/admin: the staff desk (staff and admins), roles and the database console (admins). Guards first, always.
import { Hono } from "hono";
import { ConsoleQuerySchema, FindPeopleQuerySchema, QUICK_QUERIES, SetRoleSchema } from "../../../core/admin-schemas";
import { findPeople, setRole } from "../../admin";
import { adminStats, runConsoleQuery, systemHealth } from "../../admin/console";
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
  })
  .get("/stats", async (c) => {
    requireAdmin(c);
    return c.json(await adminStats(c.var.db));
  })
  .get("/health", async (c) => {
    requireAdmin(c);
    return c.json(await systemHealth(c.env, c.var.db));
  })
  .get("/quick-queries", (c) => {
    requireAdmin(c);
    return c.json({ queries: QUICK_QUERIES });
  })
  .post("/sql", async (c) => {
    const admin = requireAdmin(c);
    const { query } = await parseJson(c, ConsoleQuerySchema);
    return c.json(await runConsoleQuery(c.var.db, admin, query));
  });
