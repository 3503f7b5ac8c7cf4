// Loader of /analytics-dashboard: admins see the whole service, a Premium person their own activity, a free person
// the upgrade prompt; every figure comes from /api/analytics, which decides who sees what
// (docs/decisions/027-analytics.md, docs/decisions/037-hourly-and-personal-analytics.md).
import { data } from "react-router";
import { AnalyticsQuerySchema } from "../../../../core/admin-schemas";
import type { Me } from "../../../../core/api-types";
import { appContext } from "../../context";
import { apiGet } from "../../lib/api.server";

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
  /** Admins only (the API answers service figures to admins alone): trouble an operator must see. */
  trouble: Record<"queue_retried" | "dead_lettered" | "d1_write_failed" | "sos_unfinished" | "webhook_failed", number>;
  unit: "hour" | "day";
  messagesOverTime: { at: string; count: number }[];
}
export interface PersonalMetrics {
  range: string;
  since: string;
  messagesSent: number;
  aiCommands: number;
  aiByKind: Record<string, number>;
  sosSent: number;
  files: number;
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
  const parsed = AnalyticsQuerySchema.safeParse({ range: new URL(request.url).searchParams.get("range") ?? undefined });
  const range = parsed.success ? parsed.data.range : "24h";
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) throw data({ message: "Sign in to open the analytics dashboard." }, { status: 401 });
  if (me.user.role === "admin") {
    const [metrics, ai] = await Promise.all([
      apiGet<Metrics>(context, `/api/analytics/metrics?range=${range}`),
      apiGet<AiUsage>(context, `/api/analytics/ai-usage?range=${range}`),
    ]);
    return { view: "service" as const, range, metrics, ai };
  }
  // The API refuses a free person (403); the screen shows the upgrade prompt instead of figures.
  const res = await context.get(appContext).api(`/api/analytics/metrics?scope=me&range=${range}`);
  if (res.status === 403) return { view: "upgrade" as const, range };
  if (!res.ok) throw data({ message: "The analytics could not be loaded." }, { status: res.status });
  return { view: "me" as const, range, mine: (await res.json()) as PersonalMetrics };
}
