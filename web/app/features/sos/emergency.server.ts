// Loader and action of /emergency (and the emergency contacts forms shown in settings). They call the API
// in-process; the SOS itself is decided in workers/sos.
import { data, redirect } from "react-router";
import type { Me } from "../../../../core/api-types";
import { newId } from "../../../../core/ids";
import { safeRedirectPath } from "../../../../core/redirect";
import type { BroadcastAnswer, EmergencyContactView, NearbySos } from "../../../../core/sos";
import { apiGet, apiSend, cookieFrom } from "../../lib/api.server";
import { type Refusal, refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiGet>[0];

export interface EmergencyActionData {
  intent: string;
  ok: boolean;
  error?: Refusal;
  sent?: BroadcastAnswer;
  resolved?: string;
  /** A session was started for the action: the page's visitor is someone new (every loader runs again). */
  visitorChanged?: boolean;
  /** The SOS as filled in, held for the confirmation step without JavaScript (intent "confirm") or back to edit ("edit"). */
  draft?: SosDraft;
}

/** An SOS form's fields, carried through the confirmation page and back. */
export interface SosDraft {
  message: string;
  emergencyType: string;
  locationText: string;
  latitude?: number;
  longitude?: number;
  clientRequestId: string;
}

export async function loadEmergencyContacts(context: Ctx): Promise<EmergencyContactView[]> {
  const res = await apiGet<{ contacts: EmergencyContactView[] }>(context, "/api/contacts");
  return res?.contacts ?? [];
}

export async function loadEmergency(context: Ctx) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  const [nearby, contacts] = me
    ? await Promise.all([
        apiGet<{ items: NearbySos[]; hasLocation: boolean; areaUsers: number }>(context, "/api/emergency/nearby"),
        loadEmergencyContacts(context),
      ])
    : [null, []];
  return {
    user: me?.user ?? null,
    nearby: nearby?.items ?? [],
    hasLocation: nearby?.hasLocation ?? false,
    areaUsers: nearby?.areaUsers ?? 0,
    contacts,
    // One id per rendered form: a resubmission of the same form (a retry on a bad network) is the same SOS.
    clientRequestId: newId(),
  };
}

function num(v: FormDataEntryValue | null): number | undefined {
  if (typeof v !== "string" || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

type Answer = Awaited<ReturnType<typeof apiSend>>;

/**
 * Sends with the visitor's session; without one (the API answers 401), starts an anonymous session and sends
 * again with its cookie, which `headers` passes on. One in-process call for a signed-in visitor, not a /api/me
 * first (docs/decisions/057-pages-ask-once-and-replicas.md).
 */
async function withSession<T extends Answer>(context: Ctx, send: (cookie: Record<string, string>) => Promise<T>) {
  const headers = new Headers();
  const first = await send({});
  if (first.status !== 401) return { res: first, headers, started: false };
  const started = await apiSend(context, "POST", "/api/auth/anonymous");
  if (!started.ok)
    throw data<EmergencyActionData>({ intent: "session", ok: false, error: refusalOr(started.json, "aif.err.start") }, { status: 500 });
  for (const c of started.headers.getSetCookie()) headers.append("set-cookie", c);
  return { res: await send(cookieFrom(started.headers)), headers, started: true };
}

function draftOf(form: FormData): SosDraft {
  return {
    message: String(form.get("message") ?? ""),
    emergencyType: String(form.get("emergencyType") ?? "other") || "other",
    locationText: String(form.get("locationText") ?? "").trim(),
    latitude: num(form.get("latitude")),
    longitude: num(form.get("longitude")),
    clientRequestId: String(form.get("clientRequestId") ?? ""),
  };
}

export async function emergencyAction(request: Request, context: Ctx) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  // Only a path on this site; anything else answers in place instead of redirecting.
  const back = safeRedirectPath(form.get("redirectTo"), "") || null;

  // Without JavaScript Start posts "confirm": nothing is sent, the page asks first as the chat does, with the
  // SOS held in the confirmation's own form; "edit" brings it back to the form (docs/decisions/062).
  if (intent === "confirm" || intent === "edit") {
    const draft = draftOf(form);
    if (intent === "confirm" && draft.message.trim() === "")
      return data<EmergencyActionData>({ intent, ok: false, error: { key: "api.describeEmergency" }, draft }, { status: 400 });
    return { intent, ok: true, draft, visitorChanged: false } satisfies EmergencyActionData;
  }

  if (intent === "broadcast") {
    // Anyone can send an SOS: without an identity yet, an anonymous one is started for it.
    const latitude = num(form.get("latitude"));
    const longitude = num(form.get("longitude"));
    const body = {
      message: String(form.get("message") ?? ""),
      emergencyType: String(form.get("emergencyType") ?? "other") || "other",
      locationText: String(form.get("locationText") ?? "").trim() || undefined,
      location: latitude !== undefined && longitude !== undefined ? { latitude, longitude } : undefined,
      clientRequestId: String(form.get("clientRequestId") ?? ""),
    };
    const { res, headers, started } = await withSession(context, (cookie) =>
      apiSend<BroadcastAnswer>(context, "POST", "/api/emergency/broadcast", body, cookie),
    );
    if (!res.ok || !res.json)
      return data<EmergencyActionData>(
        { intent, ok: false, error: refusalOr(res.json, "api.sosNotSent"), visitorChanged: started },
        { status: res.status, headers },
      );
    return data<EmergencyActionData>({ intent, ok: true, sent: res.json, visitorChanged: started }, { headers });
  }

  if (intent === "respond") {
    const id = String(form.get("id") ?? "");
    const res = await apiSend(context, "POST", `/api/emergency/${encodeURIComponent(id)}/respond`);
    if (!res.ok)
      return data<EmergencyActionData>({ intent, ok: false, error: refusalOr(res.json, "error.somethingWrong") }, { status: res.status });
    return { intent, ok: true, visitorChanged: false } satisfies EmergencyActionData;
  }

  if (intent === "resolve") {
    const id = String(form.get("id") ?? "");
    const res = await apiSend(context, "POST", `/api/emergency/${encodeURIComponent(id)}/resolve`);
    if (!res.ok)
      return data<EmergencyActionData>({ intent, ok: false, error: refusalOr(res.json, "error.somethingWrong") }, { status: res.status });
    return { intent, ok: true, resolved: id, visitorChanged: false } satisfies EmergencyActionData;
  }

  if (intent === "contact-add" || intent === "contact-delete") {
    const { res, headers, started } = await withSession(context, (cookie) =>
      intent === "contact-add"
        ? apiSend(
            context,
            "POST",
            "/api/contacts",
            { name: String(form.get("name") ?? ""), phone: String(form.get("phone") ?? "") },
            cookie,
          )
        : apiSend(context, "DELETE", `/api/contacts/${encodeURIComponent(String(form.get("id") ?? ""))}`, undefined, cookie),
    );
    if (!res.ok)
      return data<EmergencyActionData>(
        { intent, ok: false, error: refusalOr(res.json, "contacts.notSaved"), visitorChanged: started },
        { status: res.status, headers },
      );
    if (back) return redirect(back, { headers });
    return data<EmergencyActionData>({ intent, ok: true, visitorChanged: started }, { headers });
  }

  return data<EmergencyActionData>({ intent, ok: false, error: "Unknown action" }, { status: 400 });
}
