// One refusal type for domain code (docs/decisions/045-domain-errors.md). Domain modules say *what* went wrong
// with a stable code from core/api-errors.ts (docs/decisions/075-errors-as-codes.md); each channel says it its own
// way: the HTTP layer sends the code with the English sentence and maps its kind to a status (workers/errors.ts),
// the web shows the code's catalog message, USSD and WhatsApp their own words (core/ussd-texts.ts).
import { API_ERRORS, type ApiErrorCode, type ErrorKind, type ErrorValues } from "./api-errors";

export { ERROR_KINDS, type ErrorKind } from "./api-errors";

/** A refusal the person should see: its code, the English sentence (the API's wording), the values the sentence
 * holds (`values`, for the translations) and any extra fields for clients. */
export class DomainError extends Error {
  readonly kind: ErrorKind;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: { values?: ErrorValues } & Record<string, unknown> = {},
  ) {
    super(message);
    this.kind = API_ERRORS[code];
  }
}
