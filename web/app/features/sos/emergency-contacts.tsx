// The user's emergency contacts: people an SOS messages by WhatsApp (SMS when WhatsApp fails).
// Rendered on /emergency and in /settings. Forms post to the /emergency action, so they work without JS.
import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import type { EmergencyContactView } from "../../../../core/sos";
import { MAX_EMERGENCY_CONTACTS } from "../../../../core/sos";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";

interface Props {
  /** Contacts from the page's loader; when absent they are loaded from /emergency's loader. */
  contacts?: EmergencyContactView[];
  /** Inside a host's card and heading (the /settings sections): no card or heading of its own. */
  bare?: boolean;
}

export function EmergencyContacts({ contacts, bare = false }: Props) {
  const location = useLocation();
  const loader = useFetcher<{ contacts: EmergencyContactView[] }>();
  const saver = useFetcher<{ ok: boolean; error?: string; intent: string }>();
  const toast = useToast();
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const requested = useRef(false);

  // Offline (a page the offline worker kept, docs/decisions/066-phones-paired-by-code.md) the list waits for the
  // network: asking now would fail and take the whole screen to its error page.
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    if (contacts || requested.current) return;
    const load = () => {
      setOffline(navigator.onLine === false);
      if (navigator.onLine === false || requested.current) return;
      requested.current = true;
      loader.load("/emergency");
    };
    load();
    window.addEventListener("online", load);
    return () => window.removeEventListener("online", load);
  }, [contacts, loader]);

  useEffect(() => {
    if (saver.state !== "idle" || !saver.data) return;
    if (saver.data.ok) {
      if (saver.data.intent === "contact-add") {
        formRef.current?.reset();
        toast({ title: t("contacts.savedTitle"), description: t("contacts.savedBody"), variant: "success" });
      }
    } else toast({ title: t("contacts.notSaved"), description: t.error(saver.data.error), variant: "destructive" });
  }, [saver.state, saver.data, toast, t]);

  const list = contacts ?? loader.data?.contacts ?? [];
  const loading = !contacts && !loader.data;
  const back = location.pathname + location.search;

  // With JS the forms go through a fetcher (no page change); without JS they post and come back here.
  const submit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const fd = new FormData(e.currentTarget);
    fd.delete("redirectTo");
    saver.submit(fd, { method: "post", action: "/emergency" });
  };

  const body = (
    <>
      <p className="text-muted text-sm">{t("contacts.intro")}</p>
      {loading ? (
        <p className="text-muted">{offline ? t("chat.needsConnection") : t("contacts.loading")}</p>
      ) : list.length === 0 ? (
        <p>{t("contacts.none")}</p>
      ) : (
        <ul className="m-0 list-none p-0">
          {list.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-line py-[0.4rem]">
              <span>
                <strong>{c.name}</strong> <span className="text-muted">{c.phone}</span>
              </span>
              <form method="post" action="/emergency" onSubmit={submit}>
                <input type="hidden" name="intent" value="contact-delete" />
                <input type="hidden" name="id" value={c.id} />
                <input type="hidden" name="redirectTo" value={back} />
                <button type="submit" className="btn btn-ghost" aria-label={t("contacts.removeLabel", { name: c.name })}>
                  {t("contacts.remove")}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {list.length < MAX_EMERGENCY_CONTACTS ? (
        <form ref={formRef} method="post" action="/emergency" onSubmit={submit} className="form">
          <input type="hidden" name="intent" value="contact-add" />
          <input type="hidden" name="redirectTo" value={back} />
          <div className="grid grid-cols-[repeat(auto-fit,minmax(9rem,1fr))] gap-3 [&_input]:w-full [&_input]:min-w-0">
            <label>
              {t("contacts.name")}
              <input name="name" required maxLength={60} autoComplete="off" />
            </label>
            <label>
              {t("contacts.phone")}
              <input name="phone" type="tel" required maxLength={20} placeholder="0803 123 4567" autoComplete="off" />
            </label>
          </div>
          <button type="submit" className="btn" disabled={saver.state !== "idle"}>
            {t("contacts.add")}
          </button>
        </form>
      ) : (
        <p className="text-muted text-sm">{t("contacts.max", { max: MAX_EMERGENCY_CONTACTS })}</p>
      )}
    </>
  );
  if (bare) return <div className="emergency-contacts">{body}</div>;
  return (
    <section className="card emergency-contacts" aria-labelledby="contacts-title">
      <h2 id="contacts-title">{t("contacts.title")}</h2>
      {body}
    </section>
  );
}

/** The /settings section (features/identity/settings-sections.tsx). */
export function EmergencyContactsSection() {
  return <EmergencyContacts bare />;
}
