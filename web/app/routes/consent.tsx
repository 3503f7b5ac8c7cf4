import { redirect } from "react-router";
import { COOKIE_CONSENT_COOKIE, COOKIE_CONSENT_DECLINED } from "../../../core/constants";
import { safeRedirectPath } from "../../../core/redirect";
import type { Route } from "./+types/consent";

const ONE_YEAR = 365 * 24 * 3600;

/**
 * Stores the person's choice as a cookie so the server renders the right screen, with or without JavaScript:
 * 'true' turns on the offline features, 'declined' lets LinkUp be used without them (the gate does not ask
 * again; the chat's notice still offers Accept). See docs/decisions/021-declining-offline-features.md.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(form.get("redirectTo"));
  const value = form.get("choice") === "decline" ? COOKIE_CONSENT_DECLINED : "true";
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return redirect(back, {
    headers: { "set-cookie": `${COOKIE_CONSENT_COOKIE}=${value}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax${secure}` },
  });
}

export function loader() {
  return redirect("/");
}
