// /customer-service (spec part 2 §2 item 23): the phone number, a Call button, hours and links.
import { Phone } from "lucide-react";
import { Link } from "react-router";
import { SUPPORT_HOURS } from "../../../core/constants";
import { useRootData } from "../root";
import type { Route } from "./+types/customer-service";

export const meta: Route.MetaFunction = () => [{ title: "Customer Service — LinkUp" }];

export default function CustomerService(_: Route.ComponentProps) {
  const phone = useRootData()?.env.SUPPORT_PHONE ?? "";
  return (
    <section className="card center">
      <h1>Customer Service</h1>
      <p>Talk to a person on the LinkUp support line.</p>
      <p className="support-phone">
        <strong>{phone}</strong>
      </p>
      <a className="btn btn-primary btn-lg" href={`tel:${phone}`} aria-label={`Call ${phone}`}>
        <Phone aria-hidden="true" size={20} /> Call
      </a>
      <h2>Hours (WAT)</h2>
      <ul className="list-plain">
        {SUPPORT_HOURS.map((h) => (
          <li key={h.days}>
            {h.days}: {h.hours}
          </li>
        ))}
      </ul>
      <p className="muted">24/7 emergency support for premium users. In danger, call 112 or 199.</p>
      <div className="row">
        <Link to="/support" className="btn btn-ghost">
          AI Support
        </Link>
        <Link to="/community" className="btn btn-ghost">
          Community
        </Link>
        <Link to="/pricing" className="btn btn-ghost">
          Pricing
        </Link>
      </div>
    </section>
  );
}
