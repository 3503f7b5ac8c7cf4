// /voice-calling (spec part 2 #4): the people you can call (your direct chats, from the server), and the call
// itself. Every direct chat's room is opened here, so a call rings on this screen too.
import { Phone } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { Me } from "../../../core/api-types";
import { CALL_TEXTS } from "../../../core/calls";
import type { RoomsAnswer } from "../../../core/rooms";
import { useToast } from "../components/toast";
import { CallDock } from "../features/calls/call-dock";
import { requestCall } from "../features/calls/start";
import { useMeshNode } from "../features/chat/use-mesh";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/voice-calling";

export const meta: Route.MetaFunction = () => [{ title: "Voice Calls · LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, contacts: [] };
  const rooms = await apiGet<RoomsAnswer>(context, "/api/rooms").catch(() => null);
  const contacts = (rooms?.rooms ?? []).filter((r) => r.kind === "dm").map((r) => ({ id: r.id, name: r.name, peerId: r.peerId ?? null }));
  return { user: { id: me.user.id, nickname: me.user.nickname, verified: me.user.authMode === "verified" }, contacts };
}

export default function VoiceCalling({ loaderData }: Route.ComponentProps) {
  const { user, contacts } = loaderData;
  const toast = useToast();
  const node = useMeshNode(user);
  const [inCall, setInCall] = useState<string | null>(null);
  const roomIds = contacts.map((c) => c.id).join(" ");
  useEffect(() => {
    if (!node || !roomIds) return;
    for (const id of roomIds.split(" ")) void node.open(id);
  }, [node, roomIds]);

  if (!user) {
    return (
      <section className="card center" aria-labelledby="calls-title">
        <h1 id="calls-title">Voice Calls</h1>
        <p>Call the people you chat with privately, end to end encrypted. Join the mesh first.</p>
        <Link to="/chat" className="btn btn-primary">
          Open Mesh Chat
        </Link>
      </section>
    );
  }
  return (
    <section className="stack" aria-labelledby="calls-title">
      <h1 id="calls-title">Voice Calls</h1>
      <p className="muted">
        Calls go straight between your phones, encrypted end to end. Someone who does not have LinkUp open sees a missed call.
      </p>
      {user.verified ? null : (
        <p className="card" role="note">
          {CALL_TEXTS.verifyToCall} <Link to="/signup-verification?step=verify-phone">Verify your phone</Link>
        </p>
      )}
      {node ? <CallDock node={node} onActive={setInCall} /> : null}
      <h2>Contacts</h2>
      {contacts.length === 0 ? (
        <p>
          No contacts yet. Start a private chat from the people in <Link to="/chat">Mesh Chat</Link>, then call them here.
        </p>
      ) : (
        <ul className="stack contact-list">
          {contacts.map((c) => {
            const present = c.peerId ? node?.roomState(c.id)?.presence?.members.some((m) => m.userId === c.peerId) : false;
            const status = inCall === c.id ? "Calling" : present ? "Connected" : "Not connected";
            return (
              <li key={c.id} className="card row contact">
                <div>
                  <strong>{c.name}</strong>
                  <p className="muted">{status}</p>
                </div>
                <button
                  type="button"
                  className="btn btn-primary"
                  aria-label={`Call ${c.name}`}
                  disabled={!node || inCall !== null}
                  onClick={() =>
                    user.verified
                      ? requestCall({ room: c.id, peerName: c.name })
                      : toast({ title: CALL_TEXTS.premiumTitle, description: CALL_TEXTS.verifyToCall, variant: "destructive" })
                  }
                >
                  <Phone size={18} aria-hidden="true" /> Call
                </button>
                <Link to={`/chat?room=${encodeURIComponent(c.id)}`} className="btn btn-ghost" aria-label={`Chat with ${c.name}`}>
                  Chat
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
