// /showcase (spec part 2 §2 item 14): the product at a glance, with live figures and the main screens.
import { Link } from "react-router";
import { LiveFigures } from "../features/story/live-figures";
import { SCREENS } from "../features/story/screens";
import { loadPublicStats } from "../features/story/story.server";
import type { Route } from "./+types/showcase";

export const meta: Route.MetaFunction = () => [{ title: "Product showcase — LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadPublicStats(context);
}

const HIGHLIGHTS = ["/chat", "/emergency", "/ai-features", "/whatsapp-demo"];

export default function Showcase({ loaderData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <section className="hero">
        <h1>Product showcase</h1>
        <p>Community chat that keeps working on a weak network, an assistant in Nigerian languages, and an SOS that reaches everyone.</p>
        <Link to="/signup" className="btn btn-primary">
          Join Free
        </Link>
      </section>
      <LiveFigures stats={loaderData.stats} label="LinkUp today" />
      <div className="grid2">
        {SCREENS.filter((s) => HIGHLIGHTS.includes(s.to)).map((s) => (
          <section key={s.to} className="card stack" aria-label={s.title}>
            <h2>{s.title}</h2>
            <p>{s.text}</p>
            <Link to={s.to} className="btn btn-ghost" aria-label={`Open ${s.title}`}>
              Open
            </Link>
          </section>
        ))}
      </div>
      <div className="row">
        <Link to="/mockups" className="btn btn-ghost">
          Design gallery
        </Link>
        <Link to="/competitive-advantage" className="btn btn-ghost">
          Why LinkUp
        </Link>
        <Link to="/about-founder" className="btn btn-ghost">
          The founder's story
        </Link>
      </div>
    </div>
  );
}
