// Loader and action of /market-prices: the medians people reported and the report form, through the prices API
// (workers/api/routes/prices.ts, docs/decisions/068-market-prices-people-report.md).
import { data } from "react-router";
import { apiGet, apiSend } from "../../lib/api.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export interface Quote {
  item: string;
  unit: string;
  market: string;
  kind: "price" | "none";
  medianNgn?: number;
  count: number;
  first?: string;
  last?: string;
}

export interface PricesAnswer {
  windowDays: number;
  minReports: number;
  quotes: Quote[];
}

export async function loadPrices(context: Ctx, url: URL) {
  const item = (url.searchParams.get("item") ?? "").trim().slice(0, 40);
  const market = (url.searchParams.get("market") ?? "").trim().slice(0, 60);
  const query = new URLSearchParams({ ...(item ? { item } : {}), ...(market ? { market } : {}) });
  const prices = await apiGet<PricesAnswer>(context, `/api/market/reports?${query}`);
  return { prices, item, market };
}

const FIELDS = ["item", "unit", "priceNgn", "market"] as const;

export async function sendReport(context: Ctx, request: Request) {
  const form = await request.formData();
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? "").trim()])) as Record<(typeof FIELDS)[number], string>;
  // The price as typed may carry a ₦ or thousands separators: the API takes whole naira.
  const body = { ...values, priceNgn: values.priceNgn.replace(/[₦,\s]/g, "").replace(/^n/i, "") };
  const res = await apiSend<{ points: number; quote: Quote; error?: string }>(context, "POST", "/api/market/reports", body);
  if (res.ok && res.json) return { sent: { points: res.json.points, quote: res.json.quote }, error: null, values: null };
  return data({ sent: null, error: refusalOr(res.json, "error.somethingWrong"), values }, { status: Math.max(res.status, 400) });
}
