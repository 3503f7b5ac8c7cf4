// /competitive-advantage: what LinkUp does that a chat app built for strong networks does not, each claim backed
// by a screen that does it, and what LinkUp does not do (spec README: comparisons that are true).
import { Link } from "react-router";
import type { Route } from "./+types/competitive-advantage";

export const meta: Route.MetaFunction = () => [{ title: "Why LinkUp — LinkUp" }];

const ADVANTAGES = [
  {
    title: "Made for weak networks",
    text: "Messages wait in an outbox on the phone and go out once when any connection returns; the room keeps what you missed.",
    to: "/chat",
    cta: "Open the chat",
  },
  {
    title: "No smartphone needed",
    text: "A USSD code and a WhatsApp number give SOS, the assistant, market prices and translation on any phone.",
    to: "/whatsapp-demo",
    cta: "See the WhatsApp bot",
  },
  {
    title: "One SOS, every channel",
    text: "An alert reaches your area room, nearby phones with notifications on and your emergency contacts by WhatsApp or SMS.",
    to: "/emergency",
    cta: "Emergency page",
  },
  {
    title: "Nigerian languages",
    text: "The assistant understands English and Pidgin phrasings and translates to and from Hausa, Igbo and Yoruba, plus Swahili, French and Arabic.",
    to: "/ai-features",
    cta: "Try the assistant",
  },
  {
    title: "Private by design",
    text: "Private chats and groups are end-to-end encrypted on your device; the server only ever holds ciphertext.",
    to: "/security",
    cta: "How we protect you",
  },
  {
    title: "No app store, little data",
    text: "LinkUp installs from the browser and works offline once opened; there is nothing large to download.",
    to: "/download",
    cta: "Install LinkUp",
  },
];

const LIMITS = [
  "A browser cannot run a Bluetooth mesh between phones: LinkUp's mesh links windows on one device, and rooms travel through our relay.",
  "Public area rooms are readable by everyone nearby, and LinkUp says so in the room.",
  "The online assistant needs a connection; offline, a built-in assistant answers the common commands.",
];

export default function CompetitiveAdvantage() {
  return (
    <div className="stack">
      <section className="hero">
        <h1>Why LinkUp</h1>
        <p>What LinkUp does for communities on weak networks, and where each of these works today.</p>
      </section>
      <div className="grid3">
        {ADVANTAGES.map((a) => (
          <section key={a.title} className="card stack" aria-label={a.title}>
            <h2>{a.title}</h2>
            <p>{a.text}</p>
            <Link to={a.to} className="btn btn-ghost">
              {a.cta}
            </Link>
          </section>
        ))}
      </div>
      <section className="card" aria-labelledby="limits-title">
        <h2 id="limits-title">What LinkUp does not do</h2>
        <ul>
          {LIMITS.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      </section>
      <div className="row">
        <Link to="/pricing" className="btn btn-primary">
          See plans
        </Link>
        <Link to="/features" className="btn btn-ghost">
          All features
        </Link>
      </div>
    </div>
  );
}
