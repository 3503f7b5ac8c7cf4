// Loader and action of /database-admin: admins only, decided by the API's guards (docs/decisions/019-staff-and-admins.md).
import { apiGet, apiSend } from "../../lib/api.server";
import { requireScreenRole } from "./access.server";

type Ctx = Parameters<typeof apiGet>[0];

export type Health = "healthy" | "warning" | "error";
export interface AdminStats {
  totalUsers: number;
  activeUsers: number;
  totalMessages: number;
  meshConnections: number;
  emergencyBroadcasts: number;
  premiumUsers: number;
  enterpriseUsers: number;
}
export interface SystemHealth {
  database: Health;
  cache: Health;
  websocket: Health;
  stripe: Health;
  uptime: number;
  payments: { mode: string; missing: string[] };
}
export interface QuickQuery {
  id: string;
  label: string;
  query: string;
}
export interface ConsoleAnswer {
  query: string;
  error?: string;
  result?: { rows: Record<string, unknown>[]; rowCount: number; truncated: boolean; rowCap: number; ms: number };
}

export async function loadDatabaseAdmin(context: Ctx) {
  await requireScreenRole(context, "admin", { opens: "the database dashboard", onlyFor: "This dashboard is only for LinkUp admins." });
  const [stats, health, quick] = await Promise.all([
    apiGet<AdminStats>(context, "/api/admin/stats"),
    apiGet<SystemHealth>(context, "/api/admin/health"),
    apiGet<{ queries: QuickQuery[] }>(context, "/api/admin/quick-queries"),
  ]);
  return { stats, health, quickQueries: quick?.queries ?? [] };
}

export async function databaseAdminAction(request: Request, context: Ctx): Promise<ConsoleAnswer> {
  const form = await request.formData();
  const query = String(form.get("query") ?? "");
  const res = await apiSend<ConsoleAnswer["result"]>(context, "POST", "/api/admin/sql", { query });
  if (!res.ok) return { query, error: res.json?.error ?? `Refused (${res.status})` };
  return { query, result: res.json ?? undefined };
}
