// Kept apart from send.ts so screens can word a refusal without loading the upload and encryption code.
import { HttpError } from "../../../../core/http";
import type { ToastInput } from "../../components/toast";
import type { T } from "../../i18n";

const VERIFY_CODES = new Set(["verification_required", "file_verify", "file_download_verify"]);

/** The toast for a file the server refused, by its code in the page's language; verification is titled 'Premium Feature'. */
export function refusalToast(e: unknown, fallbackTitle: string, t: T): ToastInput {
  if (e instanceof HttpError) {
    const body = e.json as { code?: string } | undefined;
    const premium = VERIFY_CODES.has(body?.code ?? "") || e.status === 402;
    return { title: premium ? t("files.premiumTitle") : fallbackTitle, description: t.error(e), variant: "destructive" };
  }
  return { title: fallbackTitle, description: t.error(e instanceof Error ? e : String(e)), variant: "destructive" };
}
