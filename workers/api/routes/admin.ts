// /api/admin: the staff desk (staff and admins), roles and the database console (admins). Guards first, always.
import { Hono } from "hono";
import {
  BanSchema,
  ConsoleQuerySchema,
  MarketPriceSchema,
  FindPeopleQuerySchema,
  QUICK_QUERIES,
  SetRoleSchema,
  SupportStaffSchema,
} from "../../../core/admin-schemas";
import { nameSupportStaff } from "../../teams";
import { findPeople, setRole } from "../../admin";
import { banPerson, unbanPerson } from "../../admin/bans";
import { activeSosByArea, replayDeadLetter } from "../../admin/sos-desk";
import { deleteMarketPrice, listMarketPrices, setMarketPrice } from "../../admin/market";
import { adminStats, runConsoleQuery, systemHealth } from "../../admin/console";
import { requireAdmin, requireStaff } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson, parseWith } from "../../errors";

export const adminApi = new Hono<AppBindings>()
  // Dedicated support: an admin names the staff member for an Enterprise organisation (docs/decisions/067-enterprise-teams.md).
  .post("/teams/:id/support-staff", async (c) => {
    requireAdmin(c);
    const { staffId } = await parseJson(c, SupportStaffSchema);
    return c.json(await nameSupportStaff(c.var.db, c.req.param("id"), staffId));
  })
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
  .post("/people/:id/ban", async (c) => {
    const staff = requireStaff(c);
    const { reason } = await parseJson(c, BanSchema);
    return c.json(await banPerson(c.env, c.var.db, staff, c.req.param("id"), reason));
  })
  .post("/people/:id/unban", async (c) => c.json(await unbanPerson(c.var.db, requireStaff(c), c.req.param("id"))))
  // Resolving one goes through POST /api/emergency/:id/resolve, which lets staff resolve anyone's SOS.
  .get("/sos", async (c) => {
    requireStaff(c);
    return c.json(await activeSosByArea(c.var.db));
  })
  // A fan-out message the queue gave up on, put back on the queue (docs/decisions/054-sos-a-durable-job.md).
  .post("/sos/dead-letters/:id/replay", async (c) => {
    const staff = requireStaff(c);
    return c.json(await replayDeadLetter(c.env, c.var.db, staff, c.req.param("id")));
  })
  .get("/market-prices", async (c) => {
    requireStaff(c);
    return c.json({ prices: await listMarketPrices(c.var.db) });
  })
  .post("/market-prices", async (c) => {
    const staff = requireStaff(c);
    const input = await parseJson(c, MarketPriceSchema);
    return c.json({ price: await setMarketPrice(c.var.db, staff, input) });
  })
  .delete("/market-prices/:id", async (c) => c.json(await deleteMarketPrice(c.var.db, requireStaff(c), c.req.param("id"))))
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
