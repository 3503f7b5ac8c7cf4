// /whatsapp-demo: how to use LinkUp on WhatsApp and, locally, a chat with the real webhook (signed like Twilio).
import { Form, Link, useNavigation } from "react-router";
import { type DemoActionData, loadDemo, sendDemoMessage } from "../features/whatsapp/demo.server";
import type { MessageKey } from "../../../core/i18n/en";
import { formatTime } from "../../../core/i18n/translate";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/whatsapp-demo";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "wa.metaTitle", "LinkUp on WhatsApp — LinkUp") },
  {
    name: "description",
    content: metaTitle(matches, "wa.metaDescription", "Ask the LinkUp assistant, send an SOS and verify your phone from WhatsApp."),
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadDemo(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return sendDemoMessage(request, context);
}

// What a person sends: the bot's own keywords stay as typed; a described action ("Share a location") is translated.
const COMMANDS: { cmd: string | MessageKey; translated?: true; what: MessageKey }[] = [
  { cmd: "@ai <question>", what: "wa.cmd.ai" },
  { cmd: "wa.cmd.location", translated: true, what: "wa.cmd.locationWhat" },
  { cmd: "SOS <what happened>", what: "wa.cmd.sos" },
  { cmd: "wa.cmd.code", translated: true, what: "wa.cmd.codeWhat" },
  { cmd: "LANG <language>", what: "wa.cmd.langWhat" },
  { cmd: "STOP / START", what: "wa.cmd.stopWhat" },
  { cmd: "HELP", what: "wa.cmd.helpWhat" },
];
const SUGGESTIONS = ["HELP", "@ai translate thank you to yoruba", "@ai market rice kano", "SOS someone collapsed"];

export default function WhatsAppDemo({ loaderData, actionData }: Route.ComponentProps) {
  const { available, whatsappNumber, phone, later } = loaderData;
  const result = actionData as DemoActionData | undefined;
  const busy = useNavigation().state === "submitting";
  const t = useT();
  return (
    <section className="grid gap-[0.6rem]">
      <div className="card">
        <h1>{t("wa.title")}</h1>
        <p>{t("wa.intro")}</p>
        {whatsappNumber ? (
          <p>
            {t("wa.messageBefore")} <strong>{whatsappNumber}</strong> {t("wa.messageAfter")}
          </p>
        ) : !available ? (
          <p className="text-muted">{t("wa.notConnected")}</p>
        ) : null}
        <table className="table table-stack">
          <caption className="sr-only">{t("wa.commands")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("wa.send")}</th>
              <th scope="col">{t("wa.what")}</th>
            </tr>
          </thead>
          <tbody>
            {COMMANDS.map(({ cmd, translated, what }) => (
              <tr key={cmd}>
                <td>
                  <strong>{translated ? t(cmd as MessageKey) : <code>{cmd}</code>}</strong>
                </td>
                <td>{t(what)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-muted">{t("wa.basicPhone")}</p>
      </div>

      {available ? (
        <div className="card">
          <h2>Try it here (local)</h2>
          <p className="text-sm text-muted">
            Local development: each message is signed with the local Twilio auth token exactly as Twilio signs it and sent to the real
            webhook at <code>/webhooks/whatsapp</code>. Answers that come later (an SOS report, a slow assistant answer) go to the{" "}
            <Link to="/dev/outbox">dev outbox</Link> and show below.
          </p>

          <div className="m-0 grid list-none gap-2 p-0" aria-live="polite">
            {result?.sent ? (
              <>
                <div className="msg msg-mine">
                  <span className="sr-only">You: </span>
                  <span className="m-0 whitespace-pre-wrap wrap-anywhere">{result.sent}</span>
                </div>
                {result.replies?.length ? (
                  result.replies.map((r, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: replies have no id and keep their order
                    <div key={i} className="msg msg-theirs">
                      <span className="msg-sender">LinkUp</span>
                      <span className="m-0 whitespace-pre-wrap wrap-anywhere">{r}</span>
                    </div>
                  ))
                ) : (
                  <p className="text-muted">No reply: the bot stays silent for this phone (it sent STOP).</p>
                )}
              </>
            ) : null}
            {result?.error ? (
              <p className="text-danger" role="alert">
                {result.error}
              </p>
            ) : null}
          </div>

          {/* One form, so a message and a shared location always go from the phone number typed in it. */}
          <Form method="post" className="form">
            <label>
              Your phone number
              <input name="phone" type="tel" required defaultValue={phone ?? "+2348030000000"} autoComplete="tel" />
            </label>
            <label>
              Message
              <input name="body" type="text" maxLength={1000} placeholder="@ai how do I treat a burn?" />
            </label>
            <div className="flex flex-wrap items-center gap-2">
              {/* The location fields need not be valid to send a message. */}
              <button type="submit" name="intent" value="send" className="btn btn-primary" disabled={busy} formNoValidate>
                Send
              </button>
            </div>
            <fieldset className="flex flex-wrap gap-[0.4rem]">
              <legend>Or send a suggestion</legend>
              {SUGGESTIONS.map((s) => (
                <button key={s} type="submit" name="quick" value={s} className="chip" disabled={busy} formNoValidate>
                  {s}
                </button>
              ))}
            </fieldset>
            <fieldset>
              <legend>Share a location</legend>
              <div className="grid grid-cols-2 gap-3 phone:grid-cols-1">
                <label>
                  Latitude
                  <input name="latitude" type="number" step="any" min={-90} max={90} required defaultValue="6.6018" />
                </label>
                <label>
                  Longitude
                  <input name="longitude" type="number" step="any" min={-180} max={180} required defaultValue="3.3515" />
                </label>
              </div>
              <label>
                Place name
                <input name="place" type="text" maxLength={120} defaultValue="Ikeja, Lagos" />
              </label>
              <button type="submit" name="intent" value="location" className="btn" disabled={busy}>
                Share location
              </button>
            </fieldset>
          </Form>

          <h3>Later messages to {phone ?? "this number"}</h3>
          {later.length === 0 ? (
            <p className="text-muted">None yet.</p>
          ) : (
            <ul className="m-0 grid list-none gap-[0.35rem] p-0">
              {later.map((m) => (
                <li key={m.id} className="msg msg-theirs">
                  <span className="m-0 whitespace-pre-wrap wrap-anywhere">{m.body}</span>{" "}
                  <time className="text-sm text-muted" dateTime={m.createdAt}>
                    {formatTime(m.createdAt, t.tag)}
                  </time>
                </li>
              ))}
            </ul>
          )}
          <Form method="get">
            <button type="submit" className="btn btn-ghost">
              Refresh
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  );
}
