// Loader of /analytics-dashboard: admins only; every figure comes from /api/analytics (docs/decisions/027-analytics.md).
import { AnalyticsQuerySchema } from "../../../../core/admin-schemas";
import { apiGet } from "../../lib/api.server";
import { requireScreenRole } from "./access.server";

type Ctx = Parameters<typeof apiGet>[0];

export interface Metrics {
  range: string;
  since: string;
  totalUsers: number;
  activeUsers: number;
  meshConnections: number;
  messageVolume: number;
  aiInteractions: number;
  emergencyAlerts: number;
  signups: number;
  verifications: number;
  checkouts: number;
  networkHealth: number | null;
  coverage: number;
  byKind: Record<string, number>;
  messagesPerDay: { day: string; count: number }[];
}
export interface AiUsage {
  translations: number;
  smartReplies: number | null;
  emergencyDetection: number;
  marketAnalysis: number;
  questions: number;
  weather: number;
  networkOptimization: number | null;
}

export async function loadAnalytics(request: Request, context: Ctx) {
  await requireScreenRole(context, "admin", { opens: "the analytics dashboard", onlyFor: "Analytics are only for LinkUp admins." });
  const parsed = AnalyticsQuerySchema.safeParse({ range: new URL(request.url).searchParams.get("range") ?? undefined });
  const range = parsed.success ? parsed.data.range : "24h";
  const [metrics, ai] = await Promise.all([
    apiGet<Metrics>(context, `/api/analytics/metrics?range=${range}`),
    apiGet<AiUsage>(context, `/api/analytics/ai-usage?range=${range}`),
  ]);
  return { range, metrics, ai };
}
