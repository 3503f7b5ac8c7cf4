// Kept apart from send.ts so screens can word a refusal without loading the upload and encryption code.
import { HttpError } from "../../../../core/http";
import type { ToastInput } from "../../components/toast";
import type { T } from "../../i18n";

/** The toast for a file the server refused, in its words (translated); verification is titled 'Premium Feature'. */
export function refusalToast(e: unknown, fallbackTitle: string, t: T): ToastInput {
  if (e instanceof HttpError) {
    const body = e.json as { code?: string } | undefined;
    const premium = body?.code === "verification_required" || e.status === 402;
    return { title: premium ? t("files.premiumTitle") : fallbackTitle, description: t.error(e.errorText), variant: "destructive" };
  }
  return { title: fallbackTitle, description: t.error(e instanceof Error ? e.message : String(e)), variant: "destructive" };
}
