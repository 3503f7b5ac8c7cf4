import { Link } from "react-router";
import type { Route } from "./+types/features";

export const meta: Route.MetaFunction = () => [{ title: "Features — LinkUp" }];

const FEATURES = [
  {
    title: "Nearby rooms",
    text: "A public room for your area (about 5 km) opens from your location. Everyone nearby can read it, and LinkUp says so.",
  },
  {
    title: "Private chats, end-to-end encrypted",
    text: "Direct chats and private groups are encrypted on your device with X25519 and AES-256-GCM. Our servers only carry ciphertext.",
  },
  {
    title: "Works on poor networks",
    text: "Messages wait in an outbox on your phone and go out once, exactly once, when any path returns. The room keeps what you missed.",
  },
  {
    title: "Local mesh between tabs and windows",
    text: "A window with no connection passes messages through another window on the same device that has one.",
  },
  {
    title: "AI helper",
    text: "Start a message with '@ai ' to translate, check market prices, get weather or emergency guidance, or ask anything.",
  },
  {
    title: "SOS by every channel",
    text: "One alert reaches your area room, nearby phones that allowed notifications and your emergency contacts by WhatsApp or SMS.",
  },
  {
    title: "Basic phones welcome",
    text: "A USSD menu and a WhatsApp bot give SOS, the assistant, market prices and translation without a smartphone.",
  },
  { title: "Installs like an app", text: "Add LinkUp to your home screen; it opens full screen and keeps working offline." },
];

export default function Features() {
  return (
    <>
      <section className="hero">
        <h1>Platform features</h1>
        <p>What LinkUp does today, for real.</p>
      </section>
      <div className="grid3">
        {FEATURES.map((f) => (
          <section key={f.title} className="card" aria-labelledby={f.title}>
            <h2 id={f.title}>{f.title}</h2>
            <p>{f.text}</p>
          </section>
        ))}
      </div>
      <div className="row">
        <Link to="/" className="btn btn-ghost">
          Back to Home
        </Link>
        <Link to="/ai-features" className="btn btn-primary">
          Try the AI features
        </Link>
        <Link to="/showcase" className="btn btn-ghost">
          Product showcase
        </Link>
        <Link to="/mockups" className="btn btn-ghost">
          Design gallery
        </Link>
      </div>
    </>
  );
}
