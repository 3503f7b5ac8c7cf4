import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Me } from "../../../core/api-types";
import { apiRequest } from "../../../core/http";
import { roomKind } from "../../../core/room-ids";
import type { RoomStats, RoomsAnswer } from "../../../core/rooms";
import { BluetoothPanel } from "../features/chat/bluetooth-panel";
import { TabLinks, useQueryTab } from "../components/tabs";
import { openDirectChat, useAreaRooms } from "../features/chat/rooms";
import { useMeshNode, useRoom } from "../features/chat/use-mesh";
import { apiGet } from "../lib/api.server";
import type { MeshNode } from "../mesh/node";
import type { Route } from "./+types/mesh-network";

export const meta: Route.MetaFunction = () => [{ title: "Mesh Network · LinkUp" }];

export async function loader({ context }: Route.LoaderArgs) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, rooms: null };
  const rooms = await apiGet<RoomsAnswer>(context, "/api/rooms").catch(() => null);
  return { user: { id: me.user.id, nickname: me.user.nickname }, rooms };
}

const TABS = [
  { id: "nearby", label: "Nearby" },
  { id: "map", label: "Network Map" },
  { id: "stats", label: "Stats" },
] as const;

export default function MeshNetwork({ loaderData }: Route.ComponentProps) {
  const [tab, setTab] = useQueryTab(TABS);
  const node = useMeshNode(loaderData.user);
  const { rooms, areaProblem } = useAreaRooms(loaderData.user?.id ?? null, loaderData.rooms);
  const areaRoom = rooms?.nearby?.roomId ?? rooms?.rooms.find((r) => r.kind === "nearby")?.id ?? null;
  const { state } = useRoom(node, areaRoom);

  return (
    <div className="stack">
      <section className="card">
        <h1>Mesh Network</h1>
        <TabLinks tabs={TABS} current={tab} label="Mesh network views" onSelect={setTab} />
      </section>
      {!loaderData.user ? (
        <section className="card">
          <p>
            Join the mesh to see who is near you. <Link to="/chat">Open the chat</Link>
          </p>
        </section>
      ) : null}
      {areaProblem && loaderData.user ? (
        <p className="card" role="status">
          {areaProblem}
        </p>
      ) : null}
      {tab === "nearby" && loaderData.user ? (
        <Nearby node={node} me={loaderData.user.id} areaName={rooms?.nearby?.name ?? null} state={state} />
      ) : null}
      {tab === "map" && loaderData.user ? <NetworkMap node={node} /> : null}
      {tab === "stats" && loaderData.user ? <Stats node={node} state={state} areaRoom={areaRoom} /> : null}
      {tab === "nearby" ? <BluetoothPanel /> : null}
    </div>
  );
}

function Nearby({
  node,
  me,
  areaName,
  state,
}: {
  node: MeshNode | null;
  me: string;
  areaName: string | null;
  state: ReturnType<MeshNode["roomState"]>;
}) {
  const navigate = useNavigate();
  const people = state?.presence?.members.filter((m) => m.userId !== me) ?? [];
  const tabs = node?.localPeers() ?? [];
  return (
    <section className="card" aria-labelledby="nearby-title">
      <h2 id="nearby-title">People in {areaName ?? "your area"} right now</h2>
      {!state ? <p>Finding your area room… Allow location, or set your town in Settings.</p> : null}
      {state && !state.presence ? <p>Connecting to your area room…</p> : null}
      {state?.presence && people.length === 0 ? <p>Nobody else is connected to your area room right now.</p> : null}
      <ul className="people" aria-label="People nearby">
        {people.map((p) => (
          <li key={p.userId}>
            <span>
              {p.nickname} <small>({p.nodes === 1 ? "1 device" : `${p.nodes} devices`}, distance not shared)</small>
            </span>
            <button
              type="button"
              className="btn btn-primary"
              onClick={async () => {
                const id = await openDirectChat(p.userId);
                if (id) navigate(`/chat?room=${encodeURIComponent(id)}`);
              }}
            >
              Message {p.nickname}
            </button>
          </li>
        ))}
      </ul>
      <h3>On this device (local mesh)</h3>
      {tabs.length === 0 ? (
        <p>No other LinkUp tabs are open on this device.</p>
      ) : (
        <ul className="people" aria-label="Tabs on this device">
          {tabs.map((t) => (
            <li key={t.tab}>
              <span>{t.hop}</span>
              <small>{t.relays.size > 0 ? "connected to the relay" : t.online ? "online, no room open" : "offline"}</small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NetworkMap({ node }: { node: MeshNode | null }) {
  if (!node) return <section className="card">Starting the mesh node…</section>;
  const rooms = node.openRooms();
  const edges = [...node.routes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  return (
    <section className="card" aria-labelledby="map-title">
      <h2 id="map-title">Who relays for whom</h2>
      <ul className="mesh-map">
        {rooms.map((r) => (
          <li key={r.room}>
            This tab ({node.hop}) →{" "}
            {r.relay === "open"
              ? "LinkUp relay"
              : r.viaTab
                ? `${node.peers.get(r.viaTab)?.hop ?? r.viaTab} → LinkUp relay`
                : "no route (messages wait in the outbox)"}{" "}
            for {roomKind(r.room) === "nearby" ? "the area room" : roomKind(r.room) === "dm" ? "a direct chat" : "a group"}
          </li>
        ))}
        {node.localPeers().map((p) => (
          <li key={p.tab}>
            {p.hop} ↔ this tab (local mesh{p.relays.size > 0 ? `, relays ${p.relays.size} room${p.relays.size === 1 ? "" : "s"}` : ""})
          </li>
        ))}
      </ul>
      <h3>Routes seen on messages</h3>
      {edges.length === 0 ? (
        <p>No multi-hop messages seen yet.</p>
      ) : (
        <ul className="mesh-map">
          {edges.map(([edge, count]) => (
            <li key={edge}>
              {edge}: {count} {count === 1 ? "message" : "messages"}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The area room's own figures from its Durable Object: fetched again whenever presence changes (someone
 * joins or leaves) and every 10 s for the message counts, while the tab is open.
 */
function useRoomStats(roomId: string | null, presenceNodes: number | undefined): RoomStats | null {
  const [stats, setStats] = useState<RoomStats | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: presenceNodes is the signal to fetch again
  useEffect(() => {
    if (!roomId) return;
    let live = true;
    const load = () =>
      apiRequest<RoomStats>("GET", `/api/rooms/${encodeURIComponent(roomId)}/stats`)
        .then((s) => live && setStats(s))
        .catch(() => {});
    load();
    const timer = setInterval(load, 10_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [roomId, presenceNodes]);
  return stats;
}

function Stats({ node, state, areaRoom }: { node: MeshNode | null; state: ReturnType<MeshNode["roomState"]>; areaRoom: string | null }) {
  const room = useRoomStats(areaRoom, state?.presence?.nodes);
  if (!node) return <section className="card">Starting the mesh node…</section>;
  const openRelays = node.openRooms().filter((r) => r.relay === "open").length;
  const figures = [
    { label: "Nodes in your area room", value: state?.presence ? String(state.presence.nodes) : "—" },
    { label: "Connections from this tab", value: String(openRelays + node.localPeers().length) },
    { label: "Messages relayed by this tab", value: String(node.stats.relayedForTabs + node.stats.forwardedToTabs) },
    { label: "Messages received", value: String(node.stats.received) },
    { label: "Messages sent", value: String(node.stats.sent) },
  ];
  const roomFigures = [
    { label: "People connected", value: room ? String(room.people) : "—" },
    { label: "Active connections", value: room ? String(room.activeConnections) : "—" },
    { label: "Messages the room keeps", value: room ? String(room.messagesStored) : "—" },
    { label: "Messages relayed by the room", value: room ? String(room.messagesRelayed) : "—" },
  ];
  return (
    <section className="card" aria-labelledby="stats-title">
      <h2 id="stats-title">Live figures</h2>
      <dl className="grid2">
        {figures.map((f) => (
          <div key={f.label} className="stat">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">Counted since this tab opened.</p>
      <h3>Your area room</h3>
      <dl className="grid2" aria-label="Area room figures">
        {roomFigures.map((f) => (
          <div key={f.label} className="stat">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">From the room itself, all time; refreshed as people come and go, and every 10 seconds.</p>
    </section>
  );
}
