import { Link } from "react-router";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = () => [
  { title: "Join LinkUp — free community chat" },
  { name: "description", content: "Join LinkUp free: nearby chat, an AI helper and SOS for your community." },
];

/** The Join screen (spec part 1 §2): one button into onboarding, and a way back in for returning people. */
export default function Signup() {
  return (
    <section className="card narrow center" aria-labelledby="join-title">
      <h1 id="join-title">Join LinkUp</h1>
      <p>Chat with people nearby, ask the AI helper in your language and reach help fast with SOS. Free to start.</p>
      <Link to="/onboarding" className="btn btn-primary btn-lg">
        Join Free Now
      </Link>
      <p className="muted small">
        Already verified your phone on another device? <Link to="/signup-verification?step=verify-phone">Sign in with your phone</Link>
      </p>
    </section>
  );
}
