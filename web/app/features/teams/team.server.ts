// The /team page's loader and action (docs/decisions/067-enterprise-teams.md): each form is one call of /api/team,
// which decides everything; the page only shows the answer or the refusal.
import type { NewInviteAnswer, TeamAnswer } from "../../../../core/teams";
import { apiGet, apiSend } from "../../lib/api.server";

type Ctx = Parameters<typeof apiSend>[0];

export type TeamActionData =
  | { ok: true; intent: string; invite?: NewInviteAnswer }
  | { ok: false; intent: string; error: string; code: string | null; code_typed?: string };

export async function teamLoader(request: Request, context: Ctx) {
  const answer = await apiGet<TeamAnswer>(context, "/api/team");
  const url = new URL(request.url);
  return { answer, code: url.searchParams.get("code") ?? "", appUrl: url.origin };
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

function call(intent: string, form: FormData): { method: string; path: string; body?: unknown } | null {
  const member = encodeURIComponent(text(form, "userId"));
  switch (intent) {
    case "create":
      return { method: "POST", path: "/api/team", body: { name: text(form, "name") } };
    case "join":
      return { method: "POST", path: "/api/team/join", body: { code: text(form, "code") } };
    case "invite":
      return { method: "POST", path: "/api/team/invites", body: text(form, "phone") ? { phone: text(form, "phone") } : {} };
    case "withdraw":
      return { method: "DELETE", path: `/api/team/invites/${encodeURIComponent(text(form, "inviteId"))}` };
    case "remove":
      return { method: "POST", path: `/api/team/members/${member}/remove` };
    case "role":
      return { method: "POST", path: `/api/team/members/${member}/role`, body: { role: text(form, "role") } };
    case "settings":
      // A checkbox is absent from the form when off.
      return {
        method: "PATCH",
        path: "/api/team",
        body: {
          name: text(form, "name"),
          invitePolicy: text(form, "invitePolicy"),
          seatFeatures: form.has("seatFeatures"),
          // Empty: English, the default (decision 067).
          language: text(form, "language") || null,
          retention: text(form, "retention"),
        },
      };
    case "leave":
      return { method: "POST", path: "/api/team/leave" };
    default:
      return null;
  }
}

export async function teamAction(request: Request, context: Ctx): Promise<TeamActionData> {
  const form = await request.formData();
  const intent = text(form, "intent");
  const req = call(intent, form);
  if (!req) return { ok: false, intent, error: "Unknown action", code: null };
  const res = await apiSend<NewInviteAnswer & { code?: string }>(context, req.method, req.path, req.body);
  if (res.ok) return intent === "invite" && res.json ? { ok: true, intent, invite: res.json } : { ok: true, intent };
  const body = res.json as { error?: string; code?: string } | null;
  return { ok: false, intent, error: body?.error ?? "Something went wrong", code: body?.code ?? null, code_typed: text(form, "code") };
}
