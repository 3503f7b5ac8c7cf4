// Kept apart from send.ts so screens can word a refusal without loading the upload and encryption code.
import { FILE_TEXTS } from "../../../../core/files-client";
import { HttpError } from "../../../../core/http";
import type { ToastInput } from "../../components/toast";

/** The toast for a file the server refused, in its words; verification is titled 'Premium Feature'. */
export function refusalToast(e: unknown, fallbackTitle: string): ToastInput {
  if (e instanceof HttpError) {
    const body = e.json as { code?: string } | undefined;
    const premium = body?.code === "verification_required" || e.status === 402;
    return { title: premium ? FILE_TEXTS.premiumFeatureTitle : fallbackTitle, description: e.errorText, variant: "destructive" };
  }
  return { title: fallbackTitle, description: e instanceof Error ? e.message : String(e), variant: "destructive" };
}
