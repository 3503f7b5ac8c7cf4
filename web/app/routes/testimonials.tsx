import { Link } from "react-router";
import type { Route } from "./+types/testimonials";

export const meta: Route.MetaFunction = () => [{ title: "User Stories — LinkUp" }];

// How people use LinkUp, written as use cases: we do not publish invented quotes or figures.
const STORIES = [
  { who: "A maize farmer near Kano", story: "Checks the Dawanau price with '@ai market maize kano' on USSD before loading the truck." },
  {
    who: "A trader at Mile 12, Lagos",
    story: "Keeps a private group with suppliers; orders sent from a dead spot go out when the signal returns.",
  },
  { who: "A family in Enugu", story: "Added each other as emergency contacts, so one SOS reaches everyone by WhatsApp or SMS." },
  { who: "A student in Ibadan", story: "Translates class notes between Yoruba and English with '@ai translate'." },
];

export default function Testimonials() {
  return (
    <>
      <section className="hero">
        <h1>User stories</h1>
        <p>How communities use LinkUp.</p>
      </section>
      <div className="grid2">
        {STORIES.map((s) => (
          <figure key={s.who} className="card">
            <blockquote>{s.story}</blockquote>
            <figcaption className="muted">{s.who}</figcaption>
          </figure>
        ))}
      </div>
      <div className="row">
        <Link to="/" className="btn btn-ghost">
          Back to Home
        </Link>
        <Link to="/features" className="btn btn-primary">
          See all features
        </Link>
      </div>
    </>
  );
}
