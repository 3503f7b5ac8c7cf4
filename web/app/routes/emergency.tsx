import { useEffect, useState } from "react";
import { Form, useActionData, useNavigation, useRevalidator } from "react-router";
import { EMERGENCY_NUMBERS } from "../../../core/constants";
import { EMERGENCY_TYPE_LABELS, EMERGENCY_TYPES, type EmergencyType, formatDistance, SOS_MESSAGE_MAX, timeAgo } from "../../../core/sos";
import { useToast } from "../components/toast";
import { EmergencyContacts } from "../features/sos/EmergencyContacts";
import { type EmergencyActionData, emergencyAction, loadEmergency } from "../features/sos/emergency.server";
import { GUIDANCE } from "../features/sos/guidance";
import { useDeviceLocation } from "../features/sos/use-location";
import type { Route } from "./+types/emergency";

export const meta: Route.MetaFunction = () => [{ title: "Emergency mode — LinkUp" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadEmergency(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return emergencyAction(request, context);
}

const NEARBY_REFRESH_MS = 30_000;

function reachSummary(a: NonNullable<EmergencyActionData["sent"]>): string {
  const parts = [
    `${a.reached.room} ${a.reached.room === 1 ? "person" : "people"} in your area room`,
    `${a.reached.push} push ${a.reached.push === 1 ? "alert" : "alerts"}`,
    `${a.reached.contacts} emergency ${a.reached.contacts === 1 ? "contact" : "contacts"}`,
  ];
  return `Reached ${parts.join(", ")}.`;
}

export default function Emergency({ loaderData }: Route.ComponentProps) {
  const { user, nearby, hasLocation, areaUsers, contacts, clientRequestId } = loaderData;
  const actionData = useActionData<EmergencyActionData>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const toast = useToast();
  const [message, setMessage] = useState("");
  const [type, setType] = useState<EmergencyType>("medical");
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
      toast({ title: "SOS sent", description: reachSummary(actionData.sent), variant: "destructive" });
    } else if (actionData.intent === "resolve" && actionData.ok) {
      toast({ title: "SOS resolved", description: "People nearby have been told it is over.", variant: "success" });
    } else if (actionData.intent === "respond" && actionData.ok) {
      toast({
        title: "Thank you",
        description: "The sender knows help is coming. Call 112 or 199 if lives are at risk.",
        variant: "success",
      });
    } else if (!actionData.ok && ["broadcast", "resolve", "respond"].includes(actionData.intent)) {
      toast({ title: "Something went wrong", description: actionData.error, variant: "destructive" });
    }
  }, [actionData, toast]);

  const sent = actionData?.intent === "broadcast" && actionData.ok ? actionData.sent : undefined;

  return (
    <div className="emergency">
      <section className="card emergency-hero" aria-labelledby="emergency-title">
        <h1 id="emergency-title">Emergency mode</h1>
        <p>
          Send an SOS to people in your area, to everyone who gets LinkUp alerts nearby, and to your emergency contacts, all at once. If
          life is in danger, call the emergency services first.
        </p>
        <div className="row">
          {EMERGENCY_NUMBERS.map((n) => (
            <a key={n} href={`tel:${n}`} className="btn btn-danger btn-lg">
              Call {n}
            </a>
          ))}
        </div>
      </section>

      <section className="card" aria-labelledby="sos-form-title">
        <h2 id="sos-form-title">Send an SOS</h2>
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="broadcast" />
          <input type="hidden" name="clientRequestId" value={clientRequestId} />
          {loc.status === "ok" ? (
            <>
              <input type="hidden" name="latitude" value={loc.latitude} />
              <input type="hidden" name="longitude" value={loc.longitude} />
            </>
          ) : null}
          <label>
            Emergency type
            <select name="emergencyType" value={type} onChange={(e) => setType(e.target.value as EmergencyType)}>
              {EMERGENCY_TYPES.map((t) => (
                <option key={t} value={t}>
                  {EMERGENCY_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Emergency message
            <textarea
              name="message"
              required
              rows={3}
              maxLength={SOS_MESSAGE_MAX}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              placeholder="What is happening? Who needs help?"
            />
          </label>
          <label>
            Where (landmark or address, optional)
            <input name="locationText" maxLength={120} placeholder="e.g. Yaba market, by the bus stop" />
          </label>
          <div className="location-status" aria-live="polite">
            {loc.status === "ok" ? (
              <p className="small">
                Using your device location ({loc.latitude.toFixed(4)}, {loc.longitude.toFixed(4)}, within {Math.round(loc.accuracy)} m).
              </p>
            ) : loc.status === "locating" ? (
              <p className="small">Finding your location…</p>
            ) : loc.status === "denied" ? (
              <p className="small error">
                {loc.message}{" "}
                {hasLocation ? "Your last reported area will be used." : "Without a location, only your emergency contacts are alerted."}
              </p>
            ) : loc.status === "unsupported" ? (
              <p className="small">This browser cannot share a location.</p>
            ) : (
              <p className="small muted">
                {hasLocation
                  ? "Your last reported area will be used unless you share your location now."
                  : "Share your location so people near you can be alerted."}
              </p>
            )}
            {loc.status !== "ok" ? (
              <button type="button" className="btn btn-ghost" onClick={locate} disabled={loc.status === "locating"}>
                Use my location
              </button>
            ) : null}
          </div>
          <button type="submit" className="btn btn-danger btn-lg" disabled={(hydrated && message.trim() === "") || sending}>
            {sending ? "Sending SOS…" : "Start Emergency Broadcast"}
          </button>
        </Form>
        {sent ? (
          <div className="sos-result" role="status">
            <p>
              <strong>SOS sent.</strong> {reachSummary(sent)}
            </p>
            {sent.room === null ? <p className="small">No location was known, so no area was alerted.</p> : null}
            {sent.failed.length > 0 ? (
              <p className="small error">Could not reach: {sent.failed.join(", ")}. The other channels still went out.</p>
            ) : null}
          </div>
        ) : null}
        {actionData && !actionData.ok && actionData.intent === "broadcast" ? (
          <p className="error" role="alert">
            {actionData.error}
          </p>
        ) : null}
      </section>

      <section className="card" aria-labelledby="nearby-title">
        <h2 id="nearby-title">Active SOS nearby</h2>
        {user && hasLocation ? (
          <p className="small muted">
            {areaUsers === 1
              ? "You are the only LinkUp user whose last reported location is in this area (about 5 km)."
              : `${areaUsers} LinkUp users last reported a location in this area (about 5 km); an SOS here alerts them.`}
          </p>
        ) : null}
        {!user ? (
          <p className="muted">Start LinkUp (send an SOS or join the chat) to see alerts near you.</p>
        ) : nearby.length === 0 ? (
          <p>No active SOS near you.{hasLocation ? "" : " Share your location to see alerts in your area."}</p>
        ) : (
          <ul className="sos-list">
            {nearby.map((s) => (
              <li key={s.id} className="sos-item">
                <p>
                  <span className="tag">{EMERGENCY_TYPE_LABELS[s.emergencyType as EmergencyType] ?? s.emergencyType}</span>{" "}
                  <strong>{s.senderName}</strong>: {s.message}
                </p>
                <p className="small muted">
                  {s.mine ? "Your SOS" : formatDistance(s.distanceMetres)} ·{" "}
                  <time dateTime={s.broadcastedAt}>{timeAgo(s.broadcastedAt)}</time>
                  {s.locationText ? ` · ${s.locationText}` : ""}
                </p>
                {!s.mine ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="respond" />
                    <input type="hidden" name="id" value={s.id} />
                    <button type="submit" className="btn btn-primary" aria-label={`I'm coming to help: ${s.message.slice(0, 40)}`}>
                      I'm coming to help
                    </button>
                  </Form>
                ) : null}
                {s.canResolve ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="resolve" />
                    <input type="hidden" name="id" value={s.id} />
                    <button type="submit" className="btn" aria-label={`Resolve SOS: ${s.message.slice(0, 40)}`}>
                      Resolve
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="guidance-title">
        <h2 id="guidance-title">What to do now: {EMERGENCY_TYPE_LABELS[type]}</h2>
        <ol>
          {GUIDANCE[type].map((g) => (
            <li key={g}>{g}</li>
          ))}
        </ol>
      </section>

      {user ? <EmergencyContacts contacts={contacts} /> : null}
    </div>
  );
}
