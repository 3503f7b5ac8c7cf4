import { useState } from "react";
import { Link } from "react-router";
import type { Me } from "../../../core/api-types";
import type { RoomsAnswer } from "../../../core/rooms";
import { TabLinks, useQueryTab } from "../components/tabs";
import { useAreaRooms } from "../features/chat/rooms";
import { useMeshNode, useRoom } from "../features/chat/use-mesh";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/mobile-demo";

export const meta: Route.MetaFunction = () => [{ title: "Mobile Demo · LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, rooms: null };
  const rooms = await apiGet<RoomsAnswer>(context, "/api/rooms").catch(() => null);
  return { user: { id: me.user.id, nickname: me.user.nickname, verified: me.user.authMode === "verified" }, rooms };
}

const TABS = [
  { id: "overview", label: "Overview" },
  { id: "mesh", label: "Mesh" },
  { id: "ai", label: "AI Features" },
  { id: "security", label: "Security" },
] as const;

const AI_COMMANDS = [
  { name: "translate", example: "@ai translate good morning to Hausa" },
  { name: "emergency", example: "@ai emergency someone has fainted" },
  { name: "market", example: "@ai market rice Lagos" },
  { name: "weather", example: "@ai weather Kano" },
];

/** The mobile demo of spec part 1 §2, on live data: this phone's area room and local mesh, not simulated devices. */
export default function MobileDemo({ loaderData }: Route.ComponentProps) {
  const [tab, setTab] = useQueryTab(TABS);
  const user = loaderData.user;
  const node = useMeshNode(user);
  const { rooms } = useAreaRooms(user?.id ?? null, loaderData.rooms);
  const areaRoom = rooms?.nearby?.roomId ?? rooms?.rooms.find((r) => r.kind === "nearby")?.id ?? null;
  const { state } = useRoom(node, areaRoom);
  const [scanning, setScanning] = useState(false);
  const [scannedAt, setScannedAt] = useState<number | null>(null);
  const people = state?.presence?.members.filter((m) => m.userId !== user?.id) ?? [];
  const tabs = node?.localPeers() ?? [];

  const scan = () => {
    // The list is live already; the scan refreshes presence from the room and shows when it last looked.
    setScanning(true);
    node?.refreshPresence(areaRoom);
    setTimeout(() => {
      setScanning(false);
      setScannedAt(Date.now());
    }, 3000);
  };

  return (
    <div className="stack">
      <section className="card">
        <h1>LinkUp on your phone</h1>
        <p>Live from this device: your area room and the other LinkUp tabs here. Nothing on this page is simulated.</p>
        <TabLinks tabs={TABS} current={tab} label="Mobile demo" onSelect={setTab} />
      </section>
      {!user ? (
        <section className="card">
          <p>
            <Link to="/chat">Join the mesh</Link> to see the people near you.
          </p>
        </section>
      ) : null}
      {tab === "overview" ? (
        <section className="card" aria-labelledby="overview-title">
          <h2 id="overview-title">Overview</h2>
          <dl className="grid2">
            <div className="stat">
              <dt>Connected devices in your area room</dt>
              <dd>{state?.presence ? state.presence.nodes : "—"}</dd>
            </div>
            <div className="stat">
              <dt>Area</dt>
              <dd>{rooms?.nearby?.name ?? "Not known yet"} (about 5 km)</dd>
            </div>
          </dl>
          <p>
            <span className="tag">Relay + local mesh</span> <span className="tag">Bluetooth: scan only</span>
          </p>
          <div className="row">
            <Link to="/chat" className="btn btn-primary">
              Mesh Chat
            </Link>
            <Link to="/emergency" className="btn btn-danger">
              SOS
            </Link>
            <Link to="/ai-features" className="btn btn-ghost">
              AI Assistant
            </Link>
            <Link to="/mesh-network" className="btn btn-ghost">
              Network
            </Link>
          </div>
        </section>
      ) : null}
      {tab === "mesh" ? (
        <section className="card" aria-labelledby="mesh-title">
          <h2 id="mesh-title">Devices near you</h2>
          <button type="button" className="btn btn-primary" onClick={scan} disabled={scanning || !user}>
            {scanning ? "Scanning..." : "Scan for Devices"}
          </button>
          {scannedAt ? <p className="muted small">Last scan {new Date(scannedAt).toLocaleTimeString()}</p> : null}
          <ul className="people" aria-label="Devices">
            {people.map((p) => (
              <li key={p.userId} className="card">
                <span>
                  <strong>{p.nickname}</strong>{" "}
                  <small>{p.nodes === 1 ? "1 device" : `${p.nodes} devices`} in your area room · online</small>
                </span>
              </li>
            ))}
            {tabs.map((t) => (
              <li key={t.tab} className="card">
                <span>
                  <strong>{t.hop}</strong> <small>this phone, local mesh</small>
                </span>
              </li>
            ))}
          </ul>
          {user && people.length === 0 && tabs.length === 0 ? <p>No other devices right now.</p> : null}
        </section>
      ) : null}
      {tab === "ai" ? (
        <section className="card" aria-labelledby="ai-title">
          <h2 id="ai-title">AI commands</h2>
          <ul className="people">
            {AI_COMMANDS.map((c) => (
              <li key={c.name}>
                <span>
                  <strong>{c.name}</strong>: <code>{c.example}</code>
                </span>
                <Link to={`/chat?draft=${encodeURIComponent(c.example)}`} className="btn btn-ghost">
                  Try {c.name} in chat
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {tab === "security" ? (
        <section className="card" aria-labelledby="security-title">
          <h2 id="security-title">Security on this device</h2>
          <ul>
            <li>Encryption: direct chats and groups are end-to-end encrypted (X25519, AES-256-GCM); area rooms are public.</li>
            <li>Private keys: kept in this browser, never sent to LinkUp.</li>
            <li>Phone: {user?.verified ? "verified" : user ? "not verified yet" : "not signed in"}.</li>
            <li>Two-factor, a biometric lock and panic mode are not offered yet.</li>
          </ul>
        </section>
      ) : null}
    </div>
  );
}
