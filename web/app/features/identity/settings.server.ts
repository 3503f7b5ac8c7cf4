// The /settings action: each tab's form becomes one PATCH /api/me; Quick Actions and sign-out are real.
import { redirect } from "react-router";
import { SETTINGS_DEFAULTS } from "../../../../core/constants";
import { IDENTITY_TEXT } from "../../../../core/identity";
import { apiSend } from "../../lib/api.server";
import { PLAN_INTENTS, planAction } from "../billing/plan.server";
import { formError } from "./identity.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiSend>[0];

export const SETTINGS_TABS = ["profile", "premium", "network", "privacy", "notifications"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export function tabOf(url: URL): SettingsTab {
  const tab = url.searchParams.get("tab");
  return (SETTINGS_TABS as readonly string[]).includes(tab ?? "") ? (tab as SettingsTab) : "profile";
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** The PATCH of one tab's form; checkboxes are absent from a form when off. */
export function patchOf(tab: string, form: FormData): Record<string, unknown> | { error: string; field: string } {
  switch (tab) {
    case "profile": {
      const nickname = text(form, "nickname");
      if (!nickname) return { error: "nickname", field: "nickname" };
      return { nickname, locationText: text(form, "locationText") || null, language: text(form, "language") };
    }
    case "network":
      return { meshNetworking: form.has("meshNetworking") };
    case "privacy":
      // The default timer of chats the person starts (docs/decisions/040-disappearing-messages.md); the API checks the value.
      return { anonymousMode: form.has("anonymousMode"), ...(form.has("autoDelete") ? { autoDelete: text(form, "autoDelete") } : {}) };
    case "notifications":
      return { pushEnabled: form.has("pushEnabled"), quietStart: text(form, "quietStart"), quietEnd: text(form, "quietEnd") };
    default:
      return {};
  }
}

export async function settingsAction(request: Request, context: Ctx) {
  const form = await request.formData();
  const tab = text(form, "tab") || "profile";
  const back = (flag: string) => `/settings?tab=${encodeURIComponent(tab)}&${flag}=1`;
  let patch: Record<string, unknown>;
  const intent = String(form.get("intent") ?? "");
  if ((PLAN_INTENTS as readonly string[]).includes(intent)) return planAction(intent, form, context);
  switch (intent) {
    case "save": {
      const p = patchOf(tab, form);
      if ("error" in p) {
        return formError({ title: IDENTITY_TEXT.nicknameRequiredTitle, description: IDENTITY_TEXT.nicknameRequired, field: "nickname" });
      }
      patch = p;
      break;
    }
    case "reset":
      patch = SETTINGS_DEFAULTS;
      break;
    case "logout": {
      const res = await apiSend(context, "POST", "/api/auth/logout");
      const headers = new Headers(res.headers);
      // The browser drops this site's stored chats, keys and cached pages, with or without JavaScript.
      headers.set("Clear-Site-Data", '"cache", "storage"');
      return redirect("/", { headers });
    }
    default:
      return formError({ title: "Unknown action" });
  }
  const res = await apiSend(context, "PATCH", "/api/me", patch);
  if (res.status === 401) return redirect("/signup-verification");
  if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.save") }, res.status);
  return redirect(back("saved"));
}
