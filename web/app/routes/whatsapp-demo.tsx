// /whatsapp-demo: how to use LinkUp on WhatsApp and, locally, a chat with the real webhook (signed like Twilio).
import { Form, Link, useNavigation } from "react-router";
import { type DemoActionData, loadDemo, sendDemoMessage } from "../features/whatsapp/demo.server";
import type { Route } from "./+types/whatsapp-demo";

export const meta: Route.MetaFunction = () => [
  { title: "LinkUp on WhatsApp — LinkUp" },
  { name: "description", content: "Ask the LinkUp assistant, send an SOS and verify your phone from WhatsApp." },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadDemo(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return sendDemoMessage(request, context);
}

const COMMANDS: [string, string][] = [
  ["@ai <question>", "Ask the assistant: '@ai translate good morning to hausa', '@ai market rice kano', '@ai weather kano'."],
  ["Share a location", "Tap 📎 → Location. LinkUp keeps your last shared place for an SOS."],
  [
    "SOS <what happened>",
    "Alerts people near your shared location and your emergency contacts, then tells you how many were reached. Without a location yet, it asks for one and sends as soon as it arrives.",
  ],
  ["6-digit code", "Verifies your phone for the LinkUp web app: send the code LinkUp sent you from the same phone."],
  ["LANG <language>", "English, Hausa, Yoruba, Igbo or Pidgin."],
  ["STOP / START", "STOP ends all messages from LinkUp until you send START."],
  ["HELP", "Lists the commands."],
];
const SUGGESTIONS = ["HELP", "@ai translate thank you to yoruba", "@ai market rice kano", "SOS someone collapsed"];

export default function WhatsAppDemo({ loaderData, actionData }: Route.ComponentProps) {
  const { available, whatsappNumber, phone, later } = loaderData;
  const result = actionData as DemoActionData | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <section className="stack">
      <div className="card">
        <h1>LinkUp on WhatsApp</h1>
        <p>
          No app to install: ask the assistant, send an SOS and verify your phone from WhatsApp. The bot uses the same assistant, SOS and
          limits as the web app, counted for your phone number.
        </p>
        {whatsappNumber ? (
          <p>
            Message <strong>{whatsappNumber}</strong> on WhatsApp to start.
          </p>
        ) : !available ? (
          <p className="muted">WhatsApp is not connected on this server yet.</p>
        ) : null}
        <table className="table">
          <caption className="sr-only">WhatsApp commands</caption>
          <thead>
            <tr>
              <th scope="col">Send</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {COMMANDS.map(([cmd, what]) => (
              <tr key={cmd}>
                <td>
                  <code>{cmd}</code>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">
          On a basic phone, dial LinkUp's USSD code for the same SOS, assistant and market prices. In danger, call 112 or 199.
        </p>
      </div>

      {available ? (
        <div className="card">
          <h2>Try it here (local)</h2>
          <p className="honest-note">
            Local development: each message is signed with the local Twilio auth token exactly as Twilio signs it and sent to the real
            webhook at <code>/webhooks/whatsapp</code>. Answers that come later (an SOS report, a slow assistant answer) go to the{" "}
            <Link to="/dev/outbox">dev outbox</Link> and show below.
          </p>

          <div className="msg-list" aria-live="polite">
            {result?.sent ? (
              <>
                <div className="msg msg-mine">
                  <span className="sr-only">You: </span>
                  <span className="msg-text pre">{result.sent}</span>
                </div>
                {result.replies?.length ? (
                  result.replies.map((r, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: replies have no id and keep their order
                    <div key={i} className="msg msg-theirs">
                      <span className="msg-sender">LinkUp</span>
                      <span className="msg-text pre">{r}</span>
                    </div>
                  ))
                ) : (
                  <p className="muted">No reply: the bot stays silent for this phone (it sent STOP).</p>
                )}
              </>
            ) : null}
            {result?.error ? (
              <p className="error" role="alert">
                {result.error}
              </p>
            ) : null}
          </div>

          <Form method="post" className="form">
            <label>
              Your phone number
              <input name="phone" type="tel" required defaultValue={phone ?? "+2348030000000"} autoComplete="tel" />
            </label>
            <label>
              Message
              <input name="body" type="text" maxLength={1000} placeholder="@ai how do I treat a burn?" />
            </label>
            <div className="row">
              <button type="submit" name="intent" value="send" className="btn btn-primary" disabled={busy}>
                Send
              </button>
            </div>
            <fieldset className="chips">
              <legend>Or send a suggestion</legend>
              {SUGGESTIONS.map((s) => (
                <button key={s} type="submit" name="quick" value={s} className="chip" disabled={busy}>
                  {s}
                </button>
              ))}
            </fieldset>
          </Form>

          <Form method="post" className="form">
            <input type="hidden" name="phone" value={phone ?? "+2348030000000"} />
            <input type="hidden" name="intent" value="location" />
            <fieldset>
              <legend>Share a location</legend>
              <div className="grid2">
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
              <button type="submit" className="btn" disabled={busy}>
                Share location
              </button>
            </fieldset>
          </Form>

          <h3>Later messages to {phone ?? "this number"}</h3>
          {later.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <ul className="list-plain">
              {later.map((m) => (
                <li key={m.id} className="msg msg-theirs">
                  <span className="msg-text pre">{m.body}</span>{" "}
                  <time className="small muted" dateTime={m.createdAt}>
                    {new Date(m.createdAt).toLocaleTimeString("en-NG")}
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
