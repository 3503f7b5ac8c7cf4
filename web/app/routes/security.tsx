// Security overview (spec part 1 §founder story and security): what protects a LinkUp account, with links to
// /signup and /security-settings, where each protection is switched on.
import { Link } from "react-router";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = () => [{ title: "Security — LinkUp" }];

export default function Security() {
  return (
    <section className="card narrow" aria-labelledby="security-overview-title">
      <h1 id="security-overview-title">Security</h1>
      <ul>
        <li>Private chats and groups are end-to-end encrypted: the server relays only ciphertext.</li>
        <li>A verified phone proves who you are; a new sign-in to your account is announced to you.</li>
        <li>You can see every browser signed in to your account and sign any of them out.</li>
      </ul>
      <div className="row">
        <Link to="/signup" className="btn btn-primary">
          Join Free
        </Link>
        <Link to="/security-settings" className="btn btn-ghost">
          Security Settings
        </Link>
      </div>
    </section>
  );
}
