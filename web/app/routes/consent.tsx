import { redirect } from "react-router";
import { COOKIE_CONSENT_COOKIE } from "../../../core/constants";
import { safeRedirectPath } from "../../../core/redirect";
import type { Route } from "./+types/consent";

const ONE_YEAR = 365 * 24 * 3600;

/** Stores cookie consent as a cookie so the server renders the right screen, with or without JavaScript. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(form.get("redirectTo"));
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return redirect(back, {
    headers: { "set-cookie": `${COOKIE_CONSENT_COOKIE}=true; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax${secure}` },
  });
}

export function loader() {
  return redirect("/");
}
