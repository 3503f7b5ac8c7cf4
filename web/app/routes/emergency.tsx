import { useEffect, useState } from "react";
import { Form, useActionData, useNavigation, useRevalidator } from "react-router";
import { EMERGENCY_NUMBERS } from "../../../core/constants";
import { formatAgo, formatDistanceIn } from "../../../core/i18n/translate";
import { EMERGENCY_TYPES, type EmergencyType, SOS_MESSAGE_MAX } from "../../../core/sos";
import { useToast } from "../components/toast";
import { EmergencyContacts } from "../features/sos/emergency-contacts";
import { type EmergencyActionData, emergencyAction, loadEmergency, type SosDraft } from "../features/sos/emergency.server";
import { GUIDANCE, TYPE_KEYS } from "../features/sos/guidance";
import { metaTitle, type T, useT } from "../i18n";
import { useDeviceLocation } from "../features/sos/use-location";
import type { Route } from "./+types/emergency";

/** The SOS form's field, said in the page's language when the API finds it empty (core/sos-schemas.ts). */
const SOS_FIELDS = { fields: { message: "api.describeEmergency" } } as const;

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sos.metaTitle", "Emergency mode — LinkUp") }];

export function loader({ context }: Route.LoaderArgs) {
  return loadEmergency(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return emergencyAction(request, context);
}

const NEARBY_REFRESH_MS = 30_000;

function reachSummary(a: NonNullable<EmergencyActionData["sent"]>, t: T): string {
  return t("sos.reached", {
    room: t("sos.reachedRoom", { count: a.reached.room }),
    push: t("sos.reachedPush", { count: a.reached.push }),
    contacts: t("sos.reachedContacts", { count: a.reached.contacts }),
  });
}

/** The confirmation as its own page step (no JavaScript): the SOS's fields ride in hidden inputs until confirmed. */
function ConfirmStep({ draft, t }: { draft: SosDraft; t: T }) {
  const fields = (
    <>
      <input type="hidden" name="message" value={draft.message} />
      <input type="hidden" name="emergencyType" value={draft.emergencyType} />
      <input type="hidden" name="locationText" value={draft.locationText} />
      <input type="hidden" name="clientRequestId" value={draft.clientRequestId} />
      {draft.latitude !== undefined && draft.longitude !== undefined ? (
        <>
          <input type="hidden" name="latitude" value={draft.latitude} />
          <input type="hidden" name="longitude" value={draft.longitude} />
        </>
      ) : null}
    </>
  );
  return (
    <div className="card sos-confirm" role="alertdialog" aria-label={t("sos.confirmDialog")}>
      <p>{t("sos.confirmBody")}</p>
      <blockquote>{draft.message}</blockquote>
      <div className="flex flex-wrap items-center gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="broadcast" />
          {fields}
          <button type="submit" className="btn btn-danger btn-lg">
            {t("chat.sosNow")}
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="edit" />
          {fields}
          <button type="submit" className="btn btn-ghost">
            {t("common.cancel")}
          </button>
        </Form>
      </div>
    </div>
  );
}

export default function Emergency({ loaderData }: Route.ComponentProps) {
  const { user, nearby, hasLocation, areaUsers, contacts, clientRequestId } = loaderData;
  const actionData = useActionData<EmergencyActionData>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const toast = useToast();
  const t = useT();
  // Back from the confirmation page without JavaScript ("edit"), the form holds what was written.
  const draft = actionData?.intent === "edit" ? actionData.draft : undefined;
  const [message, setMessage] = useState(draft?.message ?? "");
  const [type, setType] = useState<EmergencyType>(
    EMERGENCY_TYPES.includes(draft?.emergencyType as EmergencyType) ? (draft?.emergencyType as EmergencyType) : "medical",
  );
  // The town typed in "Where are you?": the server finds the area room from it when the device gives no position.
  const [town, setTown] = useState(draft?.locationText ?? "");
  // One tap does not alert a whole area: as in the chat, Start asks first (with JavaScript in a dialog; without it
  // through the server's confirmation step, docs/decisions/062-what-a-newcomer-trips-on.md).
  const [confirming, setConfirming] = useState(false);
  const { state: loc, locate } = useDeviceLocation({ report: Boolean(user) });
  // Before hydration the textarea's `required` guards an empty message; after it, Start is disabled while empty.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "broadcast";

  // Active SOS nearby stay current while the page is open.
  useEffect(() => {
    const t = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, NEARBY_REFRESH_MS);
    return () => clearInterval(t);
  }, [revalidator]);

  useEffect(() => {
    if (!actionData) return;
    if (actionData.intent === "broadcast" && actionData.ok && actionData.sent) {
      setMessage("");
      setConfirming(false);
      toast({ title: t("sos.sentTitle"), description: reachSummary(actionData.sent, t), variant: "destructive" });
    } else if (actionData.intent === "resolve" && actionData.ok) {
      toast({ title: t("sos.resolvedTitle"), description: t("sos.resolvedBody"), variant: "success" });
    } else if (actionData.intent === "respond" && actionData.ok) {
      toast({ title: t("sos.respondedTitle"), description: t("sos.respondedBody"), variant: "success" });
    } else if (!actionData.ok && ["broadcast", "resolve", "respond"].includes(actionData.intent)) {
      toast({ title: t("error.somethingWrong"), description: t.error(actionData.error, SOS_FIELDS), variant: "destructive" });
    }
  }, [actionData, toast, t]);

  const sent = actionData?.intent === "broadcast" && actionData.ok ? actionData.sent : undefined;
  // Without JavaScript, Start posted "confirm": the SOS waits in this step's form until it is confirmed.
  const pending = actionData?.intent === "confirm" && actionData.ok ? actionData.draft : undefined;

  return (
    <div className="emergency">
      <section className="card border-s-4 border-s-danger" aria-labelledby="emergency-title">
        <h1 id="emergency-title">{t("sos.title")}</h1>
        <p>{t("sos.intro")}</p>
        <div className="flex flex-wrap items-center gap-2">
          {EMERGENCY_NUMBERS.map((n) => (
            <a key={n} href={`tel:${n}`} className="btn btn-danger btn-lg">
              {t("sos.call", { number: n })}
            </a>
          ))}
        </div>
      </section>

      <section className="card" aria-labelledby="sos-form-title">
        <h2 id="sos-form-title">{t("sos.formTitle")}</h2>
        {pending ? <ConfirmStep draft={pending} t={t} /> : null}
        <Form method="post" className="form" hidden={Boolean(pending)}>
          {/* Before the page's scripts run, Start asks first through the server ("confirm"); after, through the dialog. */}
          <input type="hidden" name="intent" value={hydrated ? "broadcast" : "confirm"} />
          <input type="hidden" name="clientRequestId" value={draft?.clientRequestId || clientRequestId} />
          {loc.status === "ok" ? (
            <>
              <input type="hidden" name="latitude" value={loc.latitude} />
              <input type="hidden" name="longitude" value={loc.longitude} />
            </>
          ) : null}
          <label>
            {t("sos.typeLabel")}
            <select name="emergencyType" value={type} onChange={(e) => setType(e.target.value as EmergencyType)}>
              {EMERGENCY_TYPES.map((kind) => (
                <option key={kind} value={kind}>
                  {t(TYPE_KEYS[kind])}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("sos.messageLabel")}
            <textarea
              name="message"
              required
              rows={3}
              maxLength={SOS_MESSAGE_MAX}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              placeholder={t("sos.messagePlaceholder")}
            />
          </label>
          <label>
            {t("sos.whereLabel")}
            <input
              name="locationText"
              maxLength={120}
              placeholder={t("sos.wherePlaceholder")}
              value={town}
              onChange={(e) => setTown(e.target.value)}
            />
          </label>
          <div className="flex flex-wrap items-center gap-2" aria-live="polite">
            {loc.status === "ok" ? (
              <p className="text-sm">
                {t("sos.usingLocation", {
                  latitude: loc.latitude.toFixed(4),
                  longitude: loc.longitude.toFixed(4),
                  accuracy: Math.round(loc.accuracy),
                })}
              </p>
            ) : loc.status === "locating" ? (
              <p className="text-sm">{t("sos.locating")}</p>
            ) : loc.status === "denied" ? (
              <p className="text-sm text-danger">
                {t.error(loc.message)}{" "}
                {town.trim() ? t("sos.townUsed", { town: town.trim() }) : hasLocation ? t("sos.lastAreaUsed") : t("sos.contactsOnly")}
              </p>
            ) : loc.status === "unsupported" ? (
              <p className="text-sm">{t("sos.noGeolocation")}</p>
            ) : (
              <p className="text-sm text-muted">{hasLocation ? t("sos.lastAreaUnless") : t("sos.shareToAlert")}</p>
            )}
            {loc.status !== "ok" ? (
              <button type="button" className="btn btn-ghost" onClick={locate} disabled={loc.status === "locating"}>
                {t("sos.useMyLocation")}
              </button>
            ) : null}
          </div>
          {hydrated && confirming ? (
            <div className="card sos-confirm" role="alertdialog" aria-label={t("sos.confirmDialog")}>
              <p>{t("sos.confirmBody")}</p>
              <div className="flex flex-wrap items-center gap-2">
                <button type="submit" className="btn btn-danger btn-lg" disabled={message.trim() === "" || sending}>
                  {sending ? t("sos.sending") : t("chat.sosNow")}
                </button>
                <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
                  {t("common.cancel")}
                </button>
              </div>
            </div>
          ) : hydrated ? (
            <button
              type="button"
              className="btn btn-danger btn-lg"
              disabled={message.trim() === "" || sending}
              onClick={() => setConfirming(true)}
            >
              {t("sos.start")}
            </button>
          ) : (
            <button type="submit" className="btn btn-danger btn-lg" disabled={sending}>
              {t("sos.start")}
            </button>
          )}
        </Form>
        {sent ? (
          <div className="sos-result mt-3 rounded-md border border-danger p-[0.6rem]" role="status">
            <p>
              <strong>{t("sos.sentStrong")}</strong> {reachSummary(sent, t)}
            </p>
            {sent.areaWithheld ? (
              <p className="text-sm">{t("sos.farArea")}</p>
            ) : sent.room === null ? (
              <p className="text-sm">{t("sos.noArea")}</p>
            ) : null}
            {sent.failed.length > 0 ? (
              <p className="text-sm text-danger">{t("sos.couldNotReach", { channels: sent.failed.join(", ") })}</p>
            ) : null}
          </div>
        ) : null}
        {actionData?.intent === "respond" && actionData.ok ? (
          <p className="sos-answered" role="status">
            <strong>{t("sos.respondedTitle")}</strong> {t("sos.respondedBody")}
          </p>
        ) : null}
        {actionData && !actionData.ok && actionData.intent === "broadcast" ? (
          <p className="text-danger" role="alert">
            {t.error(actionData.error, SOS_FIELDS)}
          </p>
        ) : null}
      </section>

      <section className="card" aria-labelledby="nearby-title">
        <h2 id="nearby-title">{t("sos.nearbyTitle")}</h2>
        {user && hasLocation ? <p className="text-sm text-muted">{t("sos.areaUsers", { count: areaUsers })}</p> : null}
        {!user ? (
          <p className="text-muted">{t("sos.startToSee")}</p>
        ) : nearby.length === 0 ? (
          <p>
            {t("sos.noneNearby")}
            {hasLocation ? "" : t("sos.shareToSee")}
          </p>
        ) : (
          <ul className="m-0 list-none p-0">
            {nearby.map((s) => (
              <li key={s.id} className="sos-item border-t border-line py-[0.6rem] [&_p]:my-[0.2rem]">
                <p>
                  <span className="tag">
                    {s.emergencyType in TYPE_KEYS ? t(TYPE_KEYS[s.emergencyType as EmergencyType]) : s.emergencyType}
                  </span>{" "}
                  <strong>{s.mine ? t("sos.you") : s.senderName}</strong>: {s.message}
                </p>
                <p className="text-sm text-muted">
                  {s.mine
                    ? t("sos.yours")
                    : s.distanceMetres === null
                      ? t("sos.distanceUnknown")
                      : formatDistanceIn(s.distanceMetres, t.tag)}{" "}
                  · <time dateTime={s.broadcastedAt}>{formatAgo(Date.parse(s.broadcastedAt), t.tag)}</time>
                  {s.locationText ? ` · ${s.locationText}` : ""}
                </p>
                {!s.mine ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="respond" />
                    <input type="hidden" name="id" value={s.id} />
                    <button
                      type="submit"
                      className="btn btn-primary"
                      aria-label={t("sos.comingToHelpLabel", { message: s.message.slice(0, 40) })}
                    >
                      {t("sos.comingToHelp")}
                    </button>
                  </Form>
                ) : null}
                {s.canResolve ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="resolve" />
                    <input type="hidden" name="id" value={s.id} />
                    <button type="submit" className="btn" aria-label={t("sos.resolveLabel", { message: s.message.slice(0, 40) })}>
                      {t("sos.resolve")}
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="guidance-title">
        <h2 id="guidance-title">{t("sos.guidanceTitle", { type: t(TYPE_KEYS[type]) })}</h2>
        <ol>
          {GUIDANCE[type].map((g) => (
            <li key={g}>{t(g)}</li>
          ))}
        </ol>
      </section>

      {user ? <EmergencyContacts contacts={contacts} /> : null}
    </div>
  );
}
