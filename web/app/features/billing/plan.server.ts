// The settings Premium tab's plan actions: cancel at period end, resume, upgrade or downgrade, all decided
// by the billing API.
import { redirect } from "react-router";
import { apiSend } from "../../lib/api.server";
import { formError } from "../identity/identity.server";

type Ctx = Parameters<typeof apiSend>[0];

export const PLAN_INTENTS = ["plan-cancel", "plan-resume", "plan-change"] as const;

export async function planAction(intent: string, form: FormData, context: Ctx) {
  const res =
    intent === "plan-cancel"
      ? await apiSend(context, "POST", "/api/subscription/cancel")
      : intent === "plan-resume"
        ? await apiSend(context, "POST", "/api/subscription/resume")
        : await apiSend(context, "POST", "/api/subscription/change", {
            tier: form.get("tier"),
            interval: form.get("interval") ?? "monthly",
          });
  if (res.status === 401) return redirect("/signup-verification");
  if (!res.ok) return formError({ title: "Your plan was not changed", description: res.json?.error }, res.status);
  // The status line says what happened (issue 32: a cancel once read "Settings saved").
  return redirect(`/settings?tab=premium&saved=${intent}`);
}
