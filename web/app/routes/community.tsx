// /community: public area rooms near you and the largest ones, your area's active SOS board, support and
// social-good links. Everything is live from D1; joining a room opens it in the chat.
import { Form, Link } from "react-router";
import { COMMUNITY_RADIUS_KM, type CommunityRoom } from "../../../core/rooms";
import { joinRoom, loadCommunity } from "../features/community/community.server";
import type { Route } from "./+types/community";

export const meta: Route.MetaFunction = () => [{ title: "Community — LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadCommunity(context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return joinRoom(request, context);
}

function RoomList({ rooms, label, signedIn }: { rooms: CommunityRoom[]; label: string; signedIn: boolean }) {
  return (
    <ul className="list-plain stack" aria-label={label}>
      {rooms.map((r) => (
        <li key={r.id} className="row">
          <span>
            <strong>{r.name}</strong>{" "}
            <span className="small muted">
              {r.memberCount} {r.memberCount === 1 ? "member" : "members"}
              {r.distanceKm !== null ? ` · ${r.distanceKm < 1 ? "your area" : `${r.distanceKm} km away`}` : ""}
            </span>
          </span>
          {r.joined ? (
            <Link to={`/chat?room=${encodeURIComponent(r.id)}`} className="btn btn-ghost" aria-label={`Open ${r.name}`}>
              Open
            </Link>
          ) : signedIn ? (
            <Form method="post">
              <input type="hidden" name="roomId" value={r.id} />
              <button type="submit" className="btn btn-primary" aria-label={`Join ${r.name}`}>
                Join
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function Community({ loaderData, actionData }: Route.ComponentProps) {
  const { community, sos } = loaderData;
  const error = (actionData as { error?: string } | undefined)?.error;
  return (
    <div className="stack">
      <section className="hero">
        <h1>Community</h1>
        <p>Public area rooms are open to everyone nearby. Private groups and chats are by invitation and never listed here.</p>
      </section>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <section className="card" aria-labelledby="near-title">
        <h2 id="near-title">Rooms near you</h2>
        {!community.signedIn ? (
          <p>
            <Link to="/signup">Start chatting</Link> to see and join the rooms near you.
          </p>
        ) : !community.area ? (
          <p>
            Share your location in the chat or <Link to="/settings">set your town in Settings</Link> to see the rooms near you.
          </p>
        ) : (
          <>
            <p className="small muted">
              Area rooms within {COMMUNITY_RADIUS_KM} km of {community.area.name}, nearest first.
            </p>
            <RoomList rooms={community.near} label="Rooms near you" signedIn />
          </>
        )}
      </section>
      <section className="card" aria-labelledby="largest-title">
        <h2 id="largest-title">Largest rooms</h2>
        {community.largest.length ? (
          <RoomList rooms={community.largest} label="Largest rooms" signedIn={community.signedIn} />
        ) : (
          <p className="muted">No area rooms yet. Be the first: start chatting and your area room opens.</p>
        )}
      </section>
      <section className="card" aria-labelledby="sos-title">
        <h2 id="sos-title">Active SOS in your area</h2>
        {sos === null ? (
          <p className="muted">Start chatting to see SOS alerts from your area.</p>
        ) : sos.length === 0 ? (
          <p>No active SOS near you right now.</p>
        ) : (
          <ul className="list-plain stack" aria-label="Active SOS">
            {sos.map((s) => (
              <li key={s.id} className="card">
                <strong>
                  {s.emergencyType}: {s.senderName}
                </strong>
                <p>{s.message}</p>
                <p className="small muted">
                  {s.locationText ?? ""}
                  {s.distanceMetres !== null ? ` · ${(s.distanceMetres / 1000).toFixed(1)} km away` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Link to="/emergency">Emergency page</Link>
      </section>
      <section className="card" aria-labelledby="help-links">
        <h2 id="help-links">Support and social good</h2>
        <div className="row">
          <Link to="/support" className="btn btn-ghost">
            AI Support
          </Link>
          <Link to="/customer-service" className="btn btn-ghost">
            Customer Service
          </Link>
          <Link to="/social-good" className="btn btn-ghost">
            Social Good
          </Link>
        </div>
      </section>
    </div>
  );
}
