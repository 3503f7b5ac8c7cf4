// Sections other areas add to /settings (e.g. emergency contacts from the SOS area). Each is a component
// that loads and saves its own data through its own API. To add one: import it and append it to this list.
import type { ComponentType } from "react";
import type { Me } from "../../../../core/api-types";
import type { MessageKey } from "../../../../core/i18n/en";
import { PushSection } from "../notifications/PushToggle";
import { EmergencyContactsSection } from "../sos/EmergencyContacts";

export interface SettingsSection {
  /** Stable id, used as the section's anchor (/settings#id). */
  id: string;
  title: MessageKey;
  Component: ComponentType<{ user: Me }>;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  { id: "emergency-contacts", title: "set.section.contacts", Component: EmergencyContactsSection },
  { id: "push", title: "set.section.push", Component: PushSection },
];
