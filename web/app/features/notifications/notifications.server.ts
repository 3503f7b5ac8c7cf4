// Loader and action of /notifications: the notification centre, preferences and their saving.
import { data } from "react-router";
import type { Me } from "../../../../core/api-types";
import { type NotificationPrefs, type NotificationStats, type NotificationView, PREF_LABELS } from "../../../../core/sos";
import { apiGet, apiSend } from "../../lib/api.server";
import { type Refusal, refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export interface NotificationsActionData {
  intent: string;
  ok: boolean;
  error?: Refusal;
  id?: string;
}

export async function loadNotifications(context: Ctx) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me)
    return {
      user: null,
      notifications: [] as NotificationView[],
      stats: null as NotificationStats | null,
      prefs: null as NotificationPrefs | null,
    };
  const [list, prefs] = await Promise.all([
    apiGet<{ notifications: NotificationView[]; stats: NotificationStats }>(context, "/api/notifications"),
    apiGet<{ prefs: NotificationPrefs }>(context, "/api/notifications/prefs"),
  ]);
  return { user: me.user, notifications: list?.notifications ?? [], stats: list?.stats ?? null, prefs: prefs?.prefs ?? null };
}

/** A preferences form: checked boxes are on, missing ones off (how HTML sends checkboxes). */
function prefsFromForm(form: FormData): Partial<NotificationPrefs> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(PREF_LABELS)) out[key] = form.get(key) === "on";
  const start = String(form.get("quietStart") ?? "");
  const end = String(form.get("quietEnd") ?? "");
  if (start) out.quietStart = start;
  if (end) out.quietEnd = end;
  return out as Partial<NotificationPrefs>;
}

export async function notificationsAction(request: Request, context: Ctx) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = encodeURIComponent(String(form.get("id") ?? ""));
  let res: Awaited<ReturnType<typeof apiSend>>;
  switch (intent) {
    case "read":
      res = await apiSend(context, "POST", `/api/notifications/${id}/read`);
      break;
    case "delete":
      res = await apiSend(context, "DELETE", `/api/notifications/${id}`);
      break;
    case "read-all":
      res = await apiSend(context, "POST", "/api/notifications/read-all");
      break;
    case "prefs":
      res = await apiSend(context, "PUT", "/api/notifications/prefs", prefsFromForm(form));
      break;
    default:
      return data<NotificationsActionData>({ intent, ok: false, error: "Unknown action" }, { status: 400 });
  }
  if (!res.ok)
    return data<NotificationsActionData>({ intent, ok: false, error: refusalOr(res.json, "error.somethingWrong") }, { status: res.status });
  return { intent, ok: true, id: String(form.get("id") ?? "") } satisfies NotificationsActionData;
}
