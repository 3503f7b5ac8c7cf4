// Loader and action of /staff-desk: staff and admins, decided by the API's guards (docs/decisions/019-staff-and-admins.md).
import { apiGet, apiSend } from "../../lib/api.server";
import { requireScreenRole } from "./access.server";
import type { DeskDeadLetter, DeskSosArea } from "../../../../core/admin-schemas";
import { latestGrantEnd } from "../../../../core/billing";

type Ctx = Parameters<typeof apiGet>[0];

export interface DeskPerson {
  id: string;
  nickname: string;
  phone: string | null;
  role: string;
  tier: string;
  tierExpiresAt: string | null;
  verified: boolean;
  banned: boolean;
  banReason: string | null;
  sessions: number;
  openSos: number;
  openTickets: number;
}
export interface DeskTicket {
  id: string;
  phone: string | null;
  message: string;
  category: string;
  createdAt: string;
  nickname: string | null;
  tier: string;
  priority: boolean;
  /** The Enterprise team the person is in: dedicated support, first in the queue (docs/decisions/067-enterprise-teams.md). */
  team: string | null;
  /** The team's organisation, and the staff member an admin named as its dedicated support. */
  orgId: string | null;
  supportStaffId: string | null;
  supportStaff: string | null;
  /** A report's person reported (docs/decisions/038-reports-and-device-bans.md). */
  subjectId: string | null;
  subjectNickname: string | null;
}
export interface DeskPrice {
  id: string;
  commodity: string;
  market: string;
  city: string;
  unit: string;
  priceNgn: number;
  source: string;
  date: string;
}
/** A price a person reported, as staff see it (docs/decisions/068-market-prices-people-report.md). */
export interface DeskPriceReport {
  id: string;
  reporterId: string;
  item: string;
  unit: string;
  priceNgn: number;
  market: string;
  channel: string;
  reportedAt: string;
  /** An outlier is left out of the median; a replaced report is its reporter's older one. */
  standing: "counted" | "outlier" | "replaced";
}
export interface DeskActionData {
  ok: boolean;
  /** The ticket or person the answer is about, so the page shows it next to that item. */
  target: string;
  message: string;
}

/** How many reported prices the desk lists (outliers first). */
export const REPORTS_SHOWN = 100;

export async function loadStaffDesk(request: Request, context: Ctx) {
  const me = await requireScreenRole(context, "staff", {
    opens: "the staff desk",
    onlyFor: "The staff desk is only for LinkUp support staff.",
  });
  const q = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  const [tickets, people, sos, prices, reports] = await Promise.all([
    apiGet<{ tickets: DeskTicket[]; staff: { id: string; nickname: string }[] }>(context, "/api/support/tickets"),
    q.length >= 2 ? apiGet<{ people: DeskPerson[] }>(context, `/api/admin/people?q=${encodeURIComponent(q)}`) : null,
    apiGet<{ areas: DeskSosArea[]; more: boolean; deadLetters: DeskDeadLetter[] }>(context, "/api/admin/sos"),
    apiGet<{ prices: DeskPrice[] }>(context, "/api/admin/market-prices"),
    apiGet<{ reports: DeskPriceReport[] }>(context, "/api/admin/price-reports"),
  ]);
  const editing = new URL(request.url).searchParams.get("price");
  return {
    q,
    tickets: tickets?.tickets ?? [],
    staff: tickets?.staff ?? [],
    people: people?.people ?? null,
    sosAreas: sos?.areas ?? [],
    moreSos: sos?.more ?? false,
    deadLetters: sos?.deadLetters ?? [],
    prices: prices?.prices ?? [],
    editing: prices?.prices.find((p) => p.id === editing) ?? null,
    // Outliers come first from the API; the desk shows the first REPORTS_SHOWN.
    priceReports: reports?.reports.slice(0, REPORTS_SHOWN) ?? [],
    priceReportCount: reports?.reports.length ?? 0,
    isAdmin: me.role === "admin",
    meId: me.id,
    // The date field offers only what the API grants: at most 90 days, to the end of the picked day (core/billing.ts).
    grantMax: latestGrantEnd(new Date()).toISOString().slice(0, 10),
  };
}

export async function staffDeskAction(request: Request, context: Ctx): Promise<DeskActionData> {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "reply");
  if (intent === "ban" || intent === "unban") {
    const personId = String(form.get("personId") ?? "");
    const path = `/api/admin/people/${encodeURIComponent(personId)}/${intent}`;
    const res = await apiSend(context, "POST", path, intent === "ban" ? { reason: String(form.get("reason") ?? "") } : undefined);
    const done = intent === "ban" ? "Banned: their sessions ended and their rooms closed" : "Ban lifted";
    return { ok: res.ok, target: personId, message: res.ok ? done : (res.json?.error ?? "Not changed") };
  }
  if (intent === "grant" || intent === "end-grant") {
    const personId = String(form.get("personId") ?? "");
    const res =
      intent === "grant"
        ? await apiSend(context, "POST", "/api/admin/subscriptions/complimentary", {
            userId: personId,
            tier: String(form.get("tier") ?? "premium"),
            // A grant runs to the end of the day staff pick (UTC, as the server keeps time).
            endsAt: `${String(form.get("endsOn") ?? "")}T23:59:59Z`,
            reason: String(form.get("reason") ?? ""),
          })
        : await apiSend(context, "POST", `/api/admin/subscriptions/complimentary/${encodeURIComponent(personId)}/end`);
    const done = intent === "grant" ? "Complimentary tier granted" : "Complimentary tier ended";
    return { ok: res.ok, target: personId, message: res.ok ? done : (res.json?.error ?? "Not changed") };
  }
  if (intent === "set-price") {
    const fields = ["commodity", "market", "city", "unit", "priceNgn", "source", "date"] as const;
    const body = Object.fromEntries(fields.map((f) => [f, String(form.get(f) ?? "")]));
    const res = await apiSend(context, "POST", "/api/admin/market-prices", body);
    return { ok: res.ok, target: "market", message: res.ok ? "Price saved" : (res.json?.error ?? "Price not saved") };
  }
  if (intent === "delete-price") {
    const res = await apiSend(context, "DELETE", `/api/admin/market-prices/${encodeURIComponent(String(form.get("priceId") ?? ""))}`);
    return { ok: res.ok, target: "market", message: res.ok ? "Price removed" : (res.json?.error ?? "Price not removed") };
  }
  if (intent === "remove-price-report") {
    // Audited by the API as market.report_removed (workers/prices/staff.ts).
    const id = String(form.get("reportId") ?? "");
    const res = await apiSend(context, "DELETE", `/api/admin/price-reports/${encodeURIComponent(id)}`);
    return { ok: res.ok, target: "price-reports", message: res.ok ? "Report removed" : (res.json?.error ?? "Report not removed") };
  }
  if (intent === "replay-dead-letter") {
    const id = String(form.get("deadLetterId") ?? "");
    const res = await apiSend(context, "POST", `/api/admin/sos/dead-letters/${encodeURIComponent(id)}/replay`);
    return { ok: res.ok, target: id, message: res.ok ? "Sent again" : (res.json?.error ?? "Not sent") };
  }
  if (intent === "resolve-sos") {
    const sosId = String(form.get("sosId") ?? "");
    const res = await apiSend(context, "POST", `/api/emergency/${encodeURIComponent(sosId)}/resolve`);
    return { ok: res.ok, target: sosId, message: res.ok ? "SOS resolved" : (res.json?.error ?? "Not resolved") };
  }
  const ticketId = String(form.get("ticketId") ?? "");
  const id = encodeURIComponent(ticketId);
  if (intent === "support-staff") {
    const orgId = encodeURIComponent(String(form.get("orgId") ?? ""));
    const staffId = String(form.get("staffId") ?? "");
    const res = await apiSend(context, "POST", `/api/admin/teams/${orgId}/support-staff`, { staffId: staffId || null });
    return { ok: res.ok, target: ticketId, message: res.ok ? "Dedicated support saved" : (res.json?.error ?? "Not changed") };
  }
  if (intent === "close") {
    const res = await apiSend(context, "POST", `/api/support/tickets/${id}/close`);
    return { ok: res.ok, target: ticketId, message: res.ok ? "Ticket closed" : (res.json?.error ?? "Not closed") };
  }
  const body = { message: String(form.get("message") ?? ""), close: form.get("close") === "on" };
  const res = await apiSend(context, "POST", `/api/support/tickets/${id}/reply`, body);
  return { ok: res.ok, target: ticketId, message: res.ok ? "Reply sent" : (res.json?.error ?? "Reply not sent") };
}
