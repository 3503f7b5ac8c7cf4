import { data } from "react-router";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/dev.outbox";

interface OutboxMessage {
  id: string;
  to: string;
  channel: "whatsapp" | "sms";
  body: string;
  status: string;
  createdAt: string;
}

export async function loader({ context }: Route.LoaderArgs) {
  const res = await apiGet<{ messages: OutboxMessage[] }>(context, "/api/dev/outbox").catch(() => null);
  // The outbox only exists while Twilio is not configured.
  if (!res) throw data(null, { status: 404 });
  return res;
}

export const meta: Route.MetaFunction = () => [{ title: "Dev outbox — LinkUp" }];

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  return (
    <section className="card">
      <h1>Dev outbox</h1>
      <p>Twilio is not configured, so WhatsApp and SMS messages are kept here instead of being sent. Newest first.</p>
      {loaderData.messages.length === 0 ? (
        <p>No messages yet.</p>
      ) : (
        <table className="table table-stack">
          <thead>
            <tr>
              <th>To</th>
              <th>Channel</th>
              <th>Message</th>
              <th>Status</th>
              <th>Sent</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.messages.map((m) => (
              <tr key={m.id}>
                <td data-label="To">{m.to}</td>
                <td data-label="Channel">{m.channel === "whatsapp" ? "WhatsApp" : "SMS"}</td>
                <td data-label="Message" className="whitespace-pre-wrap">
                  {m.body}
                </td>
                <td data-label="Status">{m.status}</td>
                <td data-label="Sent">
                  <time dateTime={m.createdAt}>{new Date(m.createdAt).toLocaleString("en-NG")}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form method="get">
        <button type="submit" className="btn btn-ghost">
          Refresh
        </button>
      </form>
    </section>
  );
}
