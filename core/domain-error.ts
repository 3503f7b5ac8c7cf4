// One refusal type for domain code (docs/decisions/045-domain-errors.md). Domain modules say *what* went wrong
// with a stable code; each channel says it its own way: the HTTP layer maps the code to a status
// (workers/errors.ts), USSD and WhatsApp to a text in the person's language (core/ussd-texts.ts).

export const ERROR_CODES = [
  "invalid",
  "unauthenticated",
  "payment_required",
  "forbidden",
  "suspended",
  "not_found",
  "conflict",
  "too_large",
  "unsupported_media_type",
  "upgrade_required",
  "rate_limited",
  "upstream_failed",
  "unavailable",
  "upstream_timeout",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A refusal the person should see: the message (English, the API's wording) and any extra fields for clients. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
