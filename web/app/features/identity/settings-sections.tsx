// Sections other areas add to /settings (e.g. emergency contacts from the SOS area). Each is a component
// that loads and saves its own data through its own API. To add one: import it and append it to this list.
import type { ComponentType } from "react";
import type { Me } from "../../../../core/api-types";
import type { MessageKey } from "../../../../core/i18n/en";
import { useT } from "../../i18n";
import { lazyPart } from "../chat/lazy-part";
import { Link } from "react-router";

// The contacts list loads with the page's data request, so its code loads after the page too; without JavaScript
// the Emergency page keeps the same list and forms (bench/README.md, bundle).
const LazyContacts = lazyPart(() => import("../sos/emergency-contacts").then((m) => m.EmergencyContactsSection));
function EmergencyContactsSection() {
  const t = useT();
  return (
    <>
      <noscript>
        <p>
          <Link to="/emergency">{t("cm.emergency")}</Link>
        </p>
      </noscript>
      <LazyContacts />
    </>
  );
}

// Push needs the browser's service worker anyway: its code loads after the page (bench/README.md, bundle).
const LazyPush = lazyPart(() => import("../notifications/push-toggle").then((m) => m.PushSection));
function PushSection() {
  const t = useT();
  return (
    <>
      <noscript>
        <p className="text-muted">{t("set.needsJs")}</p>
      </noscript>
      <LazyPush />
    </>
  );
}

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
