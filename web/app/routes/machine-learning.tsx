// /machine-learning (spec part 2 §2 item 26): tabs routing, prediction and optimization, telling what the
// assistant really runs (docs/decisions/005-assistant-models.md), with live use counted on the server.
import { Link } from "react-router";
import { LANGUAGES } from "../../../core/ai-command";
import { AI_TIMEOUT_MS, type AssistantUsageStats, INSTRUCT_MODEL, SPEECH_MODEL, TRANSLATION_MODEL } from "../../../core/assistant-models";
import { TIER_LIMITS } from "../../../core/constants";
import { TabLinks, useQueryTab } from "../components/tabs";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/machine-learning";

export const meta: Route.MetaFunction = () => [{ title: "Machine Learning — LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  return { usage: (await apiGet<AssistantUsageStats>(context, "/api/stats/assistant")) as AssistantUsageStats };
}

const TABS = [
  { id: "routing", label: "Routing" },
  { id: "prediction", label: "Prediction" },
  { id: "optimization", label: "Optimization" },
] as const;

const n = (v: number) => v.toLocaleString("en-NG");
const limit = (v: number | null) => (v === null ? "unlimited" : String(v));

function Routing() {
  const rows = [
    { task: "Chat, support answers, smart replies in public rooms", model: INSTRUCT_MODEL },
    { task: "Translation between English, French and Arabic", model: TRANSLATION_MODEL },
    { task: "Translation to or from Hausa, Igbo, Yoruba or Swahili", model: `${INSTRUCT_MODEL}, prompted as a translator` },
    { task: "Voice messages to text", model: SPEECH_MODEL },
  ];
  return (
    <section className="card stack" aria-labelledby="routing-title">
      <h2 id="routing-title">Which model answers what</h2>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Model (Workers AI)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.task}>
              <td>{r.task}</td>
              <td>
                <code>{r.model}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul>
        <li>
          Common phrases in all {Object.keys(LANGUAGES).length} languages come from a phrasebook first: instant and exact, online or not.
        </li>
        <li>
          First-aid and SOS steps, market prices and support facts are never generated: they are vetted text or come from our database.
        </li>
        <li>
          Every online call has {AI_TIMEOUT_MS / 1000} seconds. After that, or without a connection, the offline assistant answers the
          commands it knows and says honestly when a question needs the online one.
        </li>
      </ul>
    </section>
  );
}

function Prediction() {
  return (
    <section className="card stack" aria-labelledby="prediction-title">
      <h2 id="prediction-title">Smart replies</h2>
      <p>
        In public area rooms, verified people get suggested replies to the last message, written by <code>{INSTRUCT_MODEL}</code>.
      </p>
      <p>
        In private chats and groups, replies are suggested on your device by a few plain rules, with no model: the words of a private chat
        never go to the assistant unless you write <code>@ai</code> and agree.
      </p>
      <p className="small muted">
        We have not measured the accuracy of these suggestions, so we show no accuracy figure. Each answer is checked for its shape before
        it is used; a malformed one falls back to the offline assistant.
      </p>
    </section>
  );
}

function Optimization() {
  return (
    <section className="card stack" aria-labelledby="optimization-title">
      <h2 id="optimization-title">Limits and fallbacks</h2>
      <ul>
        <li>
          Community: {limit(TIER_LIMITS.free.aiCommands)} AI commands and {limit(TIER_LIMITS.free.translations)} translations a day.
          Premium: {limit(TIER_LIMITS.premium.aiCommands)} commands and {TIER_LIMITS.premium.voiceMessages} voice messages a month.
        </li>
        <li>Only real answers count against the daily limit; a refused or failed request costs nothing.</li>
        <li>Limits are counted on the server per person and per UTC day, so a new session does not reset them.</li>
        <li>
          The offline assistant runs inside LinkUp itself, so SOS guidance and market prices keep working when the online models do not.
        </li>
      </ul>
    </section>
  );
}

export default function MachineLearning({ loaderData }: Route.ComponentProps) {
  const { usage } = loaderData;
  const [tab, setTab] = useQueryTab(TABS);
  return (
    <div className="stack">
      <section className="hero">
        <h1>Machine Learning</h1>
        <p>What LinkUp's assistant really runs, where it runs, and what it will not guess.</p>
      </section>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">The assistant's work</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Use</th>
              <th scope="col">Last 7 days</th>
              <th scope="col">All time</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Questions answered</th>
              <td>{n(usage.lastSevenDays.aiCommands)}</td>
              <td>{n(usage.allTime.aiCommands)}</td>
            </tr>
            <tr>
              <th scope="row">Translations</th>
              <td>{n(usage.lastSevenDays.translations)}</td>
              <td>{n(usage.allTime.translations)}</td>
            </tr>
            <tr>
              <th scope="row">Voice messages</th>
              <td>{n(usage.lastSevenDays.voiceMessages)}</td>
              <td>{n(usage.allTime.voiceMessages)}</td>
            </tr>
          </tbody>
        </table>
        <p className="small muted">Counted live on the server.</p>
      </section>
      <TabLinks tabs={TABS} current={tab} label="Machine learning" onSelect={setTab} />
      {tab === "routing" ? <Routing /> : tab === "prediction" ? <Prediction /> : <Optimization />}
      <Link to="/chat" className="btn btn-primary">
        Try it in the chat
      </Link>
    </div>
  );
}
