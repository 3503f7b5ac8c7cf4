// The support line and the USSD service code come from configuration (wrangler vars SUPPORT_PHONE, USSD_CODE).
// Development shows example values so every screen can be seen; production shows nothing where one is unset,
// never a placeholder someone might dial (docs/decisions/060-every-claim-true.md, 010-production-is-not-development.md).
import { isDevelopment } from "./development";

export const EXAMPLE_SUPPORT_PHONE = "+2348000000000";
export const EXAMPLE_USSD_CODE = "*384*1234#";

type ContactEnv = { ENVIRONMENT?: string; SUPPORT_PHONE?: string; USSD_CODE?: string };

/** The support line to show and dial, or "" when production has none configured. */
export function supportPhone(env: ContactEnv): string {
  return env.SUPPORT_PHONE?.trim() || (isDevelopment(env) ? EXAMPLE_SUPPORT_PHONE : "");
}

/** The USSD service code, or null when production has none configured. */
export function ussdCode(env: ContactEnv): string | null {
  return env.USSD_CODE?.trim() || (isDevelopment(env) ? EXAMPLE_USSD_CODE : null);
}
