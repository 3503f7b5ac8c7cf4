// /about-founder (spec part 1 §2): why LinkUp exists, the founder's pledge (labelled as a pledge), live figures
// and the ways in: /signup and /whatsapp-demo.
import { Link } from "react-router";
import { SETTINGS_OPTIONS } from "../../../core/constants";
import { loadPublicStats } from "../features/story/story.server";
import { LiveFigures } from "../features/story/live-figures";
import type { Route } from "./+types/about-founder";

export const meta: Route.MetaFunction = () => [{ title: "The founder's story — LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadPublicStats(context);
}

export default function AboutFounder({ loaderData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <section className="hero">
        <h1>The founder's story</h1>
        <p>
          LinkUp was started for the people a chat app usually forgets: those with a weak network, a modest phone or no smartphone at all.
        </p>
      </section>
      <section className="card" aria-labelledby="why-title">
        <h2 id="why-title">Why LinkUp</h2>
        <p>
          In much of Nigeria the network comes and goes, data is dear and many people still carry a basic phone. When something goes wrong,
          a message that waits for a perfect connection is no use.
        </p>
        <p>
          So LinkUp keeps messages on the phone until any path returns, reaches basic phones over USSD and WhatsApp, and sends an SOS
          through every channel at once. The settings speak {SETTINGS_OPTIONS.languages.length} languages, and the assistant translates
          between English, Hausa, Igbo, Yoruba, Swahili, French and Arabic.
        </p>
      </section>
      <section className="card" aria-labelledby="pledge-title">
        <h2 id="pledge-title">The pledge</h2>
        <ul>
          <li>Pledge: 40% of the founder's equity and 40% of LinkUp's revenue go to community programmes.</li>
          <li>Goal: ₦890 million of economic impact for the communities LinkUp serves.</li>
        </ul>
        <p className="small muted">These are commitments and a goal, not results. What LinkUp has done so far is counted below.</p>
        <Link to="/social-good">How the pledge is spent</Link>
      </section>
      <LiveFigures stats={loaderData.stats} label="So far" />
      <div className="row">
        <Link to="/signup" className="btn btn-primary">
          Join LinkUp
        </Link>
        <Link to="/whatsapp-demo" className="btn btn-ghost">
          Try LinkUp on WhatsApp
        </Link>
      </div>
    </div>
  );
}
