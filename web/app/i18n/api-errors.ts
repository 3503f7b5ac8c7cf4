// The API answers `{ error }` in English (spec wording); screens show the person's language. The English text is
// the code: each known message maps to its catalog key, and an unknown one is shown as it came.
import type { MessageKey } from "../../../core/i18n/en";
import type { Vars } from "../../../core/i18n/translate";

const KNOWN: Record<string, MessageKey> = {
  "Please describe the emergency": "api.describeEmergency",
  "The SOS could not be sent": "api.sosNotSent",
  "Too many SOS from you in the last hour. If you are in danger, call 112 or 199.": "api.tooManySos",
  "Sign in required": "api.signInRequired",
  "This feature requires phone verification": "api.verificationRequired",
  "Internal server error": "api.serverError",
  "You are not a member of this room": "api.notMember",
  "Room not found": "api.roomNotFound",
  "Something went wrong": "error.somethingWrong",
  "LinkUp does not know that town yet. Pick one from the list, or share your location.": "api.unknownTown",
  "Share your location or set your town in Settings to join your area room.": "api.noArea",
};

const TOO_MANY = /^Too many /;
const INVALID = /^Invalid request: (?:[\w.]+: )?(.*)$/;

export function translateApiError(message: string, t: (key: MessageKey, vars?: Vars) => string): string {
  const known = KNOWN[message];
  if (known) return t(known);
  if (TOO_MANY.test(message)) return t("api.tooManyRequests");
  // Validation errors name a field, then the schema's message: the message alone is what the person needs.
  const invalid = INVALID.exec(message);
  if (invalid) {
    const inner = KNOWN[invalid[1]];
    return inner ? t(inner) : t("api.invalidRequest", { detail: invalid[1] });
  }
  return message;
}
