import { Link } from "react-router";
import { useRootData } from "../root";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = () => [{ title: "About — LinkUp" }];

export default function About() {
  const root = useRootData();
  return (
    <section className="card">
      <h1>About LinkUp</h1>
      <p>
        LinkUp is community chat for Nigeria and wider Africa, built for poor networks and modest phones: farmers, traders, students and
        families talk in nearby rooms and private chats that keep working when the connection does not.
      </p>
      <p>
        We build for the phone people actually have. The web app is small and works offline; a basic phone reaches SOS and the assistant
        over USSD; WhatsApp users chat with the LinkUp bot.
      </p>
      <p>
        Support: <a href={`tel:${root?.env.SUPPORT_PHONE}`}>{root?.env.SUPPORT_PHONE}</a>, Monday to Friday 8:00-20:00 WAT, Saturday
        9:00-18:00, Sunday 10:00-16:00.
      </p>
      <div className="row">
        <Link to="/" className="btn btn-primary">
          Back to Home
        </Link>
        <Link to="/about-founder" className="btn btn-ghost">
          The founder's story
        </Link>
        <Link to="/competitive-advantage" className="btn btn-ghost">
          Why LinkUp
        </Link>
      </div>
    </section>
  );
}
