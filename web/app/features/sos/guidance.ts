// What to do while help is on the way, per emergency type: plain first-aid and safety basics. The words are in
// the catalogs (core/i18n/en.ts and the others); docs/i18n-review.md asks a native speaker to check each.
import type { MessageKey } from "../../../../core/i18n/en";
import type { EmergencyType } from "../../../../core/sos";

export const GUIDANCE: Record<EmergencyType, MessageKey[]> = {
  medical: ["sos.guide.medical.1", "sos.guide.medical.2", "sos.guide.medical.3", "sos.guide.medical.4"],
  fire: ["sos.guide.fire.1", "sos.guide.fire.2", "sos.guide.fire.3", "sos.guide.fire.4"],
  security: ["sos.guide.security.1", "sos.guide.security.2", "sos.guide.security.3"],
  accident: ["sos.guide.accident.1", "sos.guide.accident.2", "sos.guide.accident.3"],
  flood: ["sos.guide.flood.1", "sos.guide.flood.2", "sos.guide.flood.3"],
  other: ["sos.guide.other.1", "sos.guide.other.2", "sos.guide.other.3"],
};

/** The emergency types' names in the page's language (core/sos.ts keeps the English ones for the API). */
export const TYPE_KEYS: Record<EmergencyType, MessageKey> = {
  medical: "sos.type.medical",
  fire: "sos.type.fire",
  security: "sos.type.security",
  accident: "sos.type.accident",
  flood: "sos.type.flood",
  other: "sos.type.other",
};
