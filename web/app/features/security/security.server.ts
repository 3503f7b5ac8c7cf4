// Server side of /security-settings: each form posts here and becomes one call of the security API
// (in-process, with the visitor's cookies, docs/decisions/001-loaders-call-the-api-in-process.md).
import type { RoomsAnswer } from "../../../../core/rooms";
import { data, redirect } from "react-router";
import type { Me, SessionView, TwoFactorView } from "../../../../core/api-types";
import { newId } from "../../../../core/ids";
import type { PasskeyView, SecurityOverview } from "../../../../core/security";
import { apiGet, apiSend } from "../../lib/api.server";
import { formError } from "../identity/identity.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export const SECURITY_TABS = ["authentication", "biometric", "emergency", "platform"] as const;
export type SecurityTab = (typeof SECURITY_TABS)[number];

export function securityTabOf(url: URL): SecurityTab {
  const tab = url.searchParams.get("tab");
  return (SECURITY_TABS as readonly string[]).includes(tab ?? "") ? (tab as SecurityTab) : "authentication";
}

export async function loadSecurity(request: Request, context: Ctx) {
  const url = new URL(request.url);
  const tab = securityTabOf(url);
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me)
    return {
      user: null,
      tab,
      sessions: [] as SessionView[],
      twoFactor: null,
      passkeys: [] as PasskeyView[],
      panicRequestId: null,
      notice: null,
    };
  const auth = tab === "authentication";
  const [sessions, twoFactor, passkeys] = await Promise.all([
    auth ? apiGet<{ sessions: SessionView[] }>(context, "/api/security/sessions") : null,
    auth ? apiGet<TwoFactorView>(context, "/api/security/two-factor") : null,
    tab === "biometric" ? apiGet<{ passkeys: PasskeyView[] }>(context, "/api/security/passkeys") : null,
  ]);
  // The panic SOS's idempotency key, made once per screen so a resubmitted form never alerts twice.
  const panicRequestId = tab === "emergency" ? `panic-${newId(12)}` : null;
  return {
    user: me.user,
    tab,
    sessions: sessions?.sessions ?? [],
    twoFactor,
    passkeys: passkeys?.passkeys ?? [],
    panicRequestId,
    notice: url.searchParams.get("done"),
  };
}

const back = (tab: SecurityTab, done: string) => redirect(`/security-settings?tab=${tab}&done=${done}`);

export async function securityAction(request: Request, context: Ctx) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  switch (intent) {
    case "end-session": {
      const res = await apiSend(context, "DELETE", `/api/security/sessions/${encodeURIComponent(String(form.get("ref") ?? ""))}`);
      if (res.status === 401) return redirect("/signup-verification");
      if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.signOutOne") }, res.status);
      return back("authentication", "session-ended");
    }
    case "end-others": {
      const res = await apiSend(context, "POST", "/api/security/sessions/sign-out-others", {});
      if (res.status === 401) return redirect("/signup-verification");
      if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.signOutOthers") }, res.status);
      return back("authentication", "others-ended");
    }
    case "panic": {
      const res = await apiSend(context, "POST", "/api/security/panic", {
        sendSos: form.has("sendSos"),
        clientRequestId: String(form.get("clientRequestId") ?? "") || undefined,
      });
      if (!res.ok && res.status !== 401) return formError({ title: refusalOr(res.json, "sec.err.panic") }, res.status);
      const headers = new Headers(res.headers);
      // The browser drops this site's stored chats, keys and cached pages, with or without JavaScript.
      headers.set("Clear-Site-Data", '"cache", "storage"');
      return redirect("/", { headers });
    }
    case "remove-passkey": {
      const res = await apiSend(context, "DELETE", `/api/security/passkeys/${encodeURIComponent(String(form.get("id") ?? ""))}`);
      if (res.status === 401) return redirect("/signup-verification");
      if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.removePasskey") }, res.status);
      return back("biometric", "passkey-removed");
    }
    case "delete-account": {
      const res = await apiSend(context, "DELETE", "/api/me", { confirm: String(form.get("confirm") ?? "") });
      if (res.status === 401) return redirect("/signup-verification");
      if (!res.ok) {
        return formError({ title: refusalOr(res.json, "sec.err.delete"), field: "confirm" }, res.status);
      }
      // As after panic mode: this browser drops the deleted account's chats, keys and saved pages.
      const headers = new Headers(res.headers);
      headers.set("Clear-Site-Data", '"cache", "storage"');
      return redirect("/", { headers });
    }
    case "stealth-on":
    case "stealth-off": {
      const res = await apiSend(context, "PATCH", "/api/me", { stealthMode: intent === "stealth-on" });
      if (res.status === 401) return redirect("/signup-verification");
      if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.save") }, res.status);
      return back("platform", intent);
    }
    case "two-factor-setup": {
      const res = await apiSend(context, "POST", "/api/security/two-factor/setup", {});
      if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.setup") }, res.status);
      return redirect("/security-settings?tab=authentication#two-factor-title");
    }
    case "two-factor-enable":
    case "two-factor-disable": {
      const on = intent === "two-factor-enable";
      const res = await apiSend<{ backupCodes?: string[]; attemptsLeft?: number }>(
        context,
        "POST",
        `/api/security/two-factor/${on ? "enable" : "disable"}`,
        {
          code: String(form.get("code") ?? ""),
        },
      );
      if (!res.ok) {
        const left = res.json?.attemptsLeft;
        const description = typeof left === "number" && left > 0 ? { key: "sec.triesLeft" as const, vars: { count: left } } : undefined;
        return formError({ title: refusalOr(res.json, "errors.two_factor_wrong_code"), description, field: "code" }, res.status);
      }
      // Backup codes are shown this once, in the answer to the form; they are not kept anywhere readable.
      if (on) return data({ backupCodes: res.json?.backupCodes ?? [] });
      return back("authentication", "two-factor-off");
    }
    default:
      return formError({ title: "Unknown action" });
  }
}

/** /advanced-security: the overview (score, features, newest events), or null when nobody is signed in. */
export async function loadAdvancedSecurity(context: Ctx) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, overview: null, contacts: [] };
  const [overview, rooms] = await Promise.all([
    apiGet<SecurityOverview>(context, "/api/security/overview"),
    apiGet<RoomsAnswer>(context, "/api/rooms"),
  ]);
  // The contacts of private chats; their safety numbers are worked out in the browser (features/security/safety-numbers.tsx).
  const contacts = (rooms?.rooms ?? []).flatMap((r) =>
    r.kind === "dm" && r.peerId ? [{ roomId: r.id, peerId: r.peerId, name: r.name }] : [],
  );
  return { user: me.user, overview, contacts };
}

/** The feature toggles of /advanced-security that are settings of the person (the rest link to their screen). */
export async function advancedSecurityAction(request: Request, context: Ctx) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const on = form.get("on") === "true";
  const patch = intent === "stealth_mode" ? { stealthMode: on } : intent === "mesh_anonymization" ? { anonymousMode: on } : null;
  if (!patch) return formError({ title: "Unknown action" });
  const res = await apiSend(context, "PATCH", "/api/me", patch);
  if (res.status === 401) return redirect("/signup-verification");
  if (!res.ok) return formError({ title: refusalOr(res.json, "sec.err.save") }, res.status);
  return redirect("/advanced-security");
}
