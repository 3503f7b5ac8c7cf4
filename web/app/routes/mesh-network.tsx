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
import type { MessageKey } from "../../../core/i18n/en";
import { metaTitle, useT } from "../i18n";
import type { MeshNode } from "../mesh/node";
import { roomLabel } from "../features/chat/room-label";
import { edgeNames, hopName } from "../mesh/hop-label";
import type { Route } from "./+types/mesh-network";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "mesh.metaTitle", "Mesh Network · LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, rooms: null };
  const rooms = await apiGet<RoomsAnswer>(context, "/api/rooms").catch(() => null);
  return { user: { id: me.user.id, nickname: me.user.nickname }, rooms };
}

const TABS = [
  { id: "nearby", label: "mesh.tab.nearby" },
  { id: "map", label: "mesh.tab.map" },
  { id: "stats", label: "mesh.tab.stats" },
] as const satisfies readonly { id: string; label: MessageKey }[];

export default function MeshNetwork({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const [tab, setTab] = useQueryTab(TABS);
  const node = useMeshNode(loaderData.user);
  const { rooms, areaProblem } = useAreaRooms(loaderData.user?.id ?? null, loaderData.rooms);
  const areaRoom = rooms?.nearby?.roomId ?? rooms?.rooms.find((r) => r.kind === "nearby")?.id ?? null;
  const { state } = useRoom(node, areaRoom);

  return (
    <div className="grid gap-[0.6rem]">
      <section className="card">
        <h1>{t("mesh.title")}</h1>
        <TabLinks tabs={TABS.map((x) => ({ ...x, label: t(x.label) }))} current={tab} label={t("mesh.tabs")} onSelect={setTab} />
      </section>
      {!loaderData.user ? (
        <section className="card">
          <p>
            {t("mesh.join")} <Link to="/chat">{t("why.weak.cta")}</Link>
          </p>
        </section>
      ) : null}
      {areaProblem && loaderData.user ? (
        <p className="card" role="status">
          {t.error(areaProblem)}
        </p>
      ) : null}
      {tab === "nearby" && loaderData.user ? (
        <Nearby
          node={node}
          me={loaderData.user.id}
          areaName={rooms?.nearby?.name ? roomLabel(rooms.nearby.name, "nearby", t) : null}
          state={state}
        />
      ) : null}
      {tab === "map" && loaderData.user ? <NetworkMap node={node} /> : null}
      {tab === "stats" && loaderData.user ? <Stats node={node} state={state} areaRoom={areaRoom} /> : null}
      {tab === "nearby" ? (
        <section className="card" aria-labelledby="phones-title">
          <h2 id="phones-title">{t("mesh.phonesTitle")}</h2>
          <p>{t("mesh.phonesNote")}</p>
          <p>
            <Link to="/chat">{t("mesh.phonesLink")}</Link>
          </p>
        </section>
      ) : null}
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
  const t = useT();
  const navigate = useNavigate();
  const people = state?.presence?.members.filter((m) => m.userId !== me) ?? [];
  const tabs = node?.localPeers() ?? [];
  return (
    <section className="card" aria-labelledby="nearby-title">
      <h2 id="nearby-title">{t("mesh.peopleIn", { area: areaName ?? t("cm.yourArea") })}</h2>
      {!state ? <p>{t("mesh.finding")}</p> : null}
      {state && !state.presence ? <p>{t("mesh.connecting")}</p> : null}
      {state?.presence && people.length === 0 ? <p>{t("mesh.nobody")}</p> : null}
      <ul
        className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
        aria-label={t("mesh.peopleNearby")}
      >
        {people.map((p) => (
          <li key={p.userId}>
            <span>
              {p.nickname} <small>({t("mesh.devices", { count: p.nodes })})</small>
            </span>
            <button
              type="button"
              className="btn btn-primary"
              onClick={async () => {
                const id = await openDirectChat(p.userId);
                if (id) navigate(`/chat?room=${encodeURIComponent(id)}`);
              }}
            >
              {t("mesh.message", { name: p.nickname })}
            </button>
          </li>
        ))}
      </ul>
      <h3>{t("mesh.onDevice")}</h3>
      {tabs.length === 0 ? (
        <p>{t("mesh.noTabs")}</p>
      ) : (
        <ul
          className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
          aria-label={t("mesh.tabsOnDevice")}
        >
          {tabs.map((peer) => (
            <li key={peer.tab}>
              <span>{hopName(peer.hop)}</span>
              <small>{peer.relays.size > 0 ? t("mesh.tabRelay") : peer.online ? t("mesh.tabOnline") : t("mesh.tabOffline")}</small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NetworkMap({ node }: { node: MeshNode | null }) {
  const t = useT();
  if (!node) return <section className="card">{t("mesh.starting")}</section>;
  const rooms = node.openRooms();
  const edges = [...node.routes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  return (
    <section className="card" aria-labelledby="map-title">
      <h2 id="map-title">{t("mesh.mapTitle")}</h2>
      <ul className="grid gap-[0.3rem]">
        {rooms.map((r) => (
          <li key={r.room}>
            {t("mesh.map.line", {
              hop: hopName(node.hop),
              route:
                r.relay === "open"
                  ? t("mesh.map.relay")
                  : r.viaTab
                    ? t("mesh.map.via", { hop: hopName(node.peers.get(r.viaTab)?.hop ?? "") || t("mesh.map.otherTab") })
                    : t("mesh.map.noRoute"),
              room: roomKind(r.room) === "nearby" ? t("mesh.map.area") : roomKind(r.room) === "dm" ? t("mesh.map.dm") : t("mesh.map.group"),
            })}
          </li>
        ))}
        {node.localPeers().map((p) => (
          <li key={p.tab}>
            {p.relays.size > 0
              ? t("mesh.map.peerRelays", { hop: hopName(p.hop), count: p.relays.size })
              : t("mesh.map.peer", { hop: hopName(p.hop) })}
          </li>
        ))}
      </ul>
      <h3>{t("mesh.routesTitle")}</h3>
      {edges.length === 0 ? (
        <p>{t("mesh.noRoutes")}</p>
      ) : (
        <ul className="grid gap-[0.3rem]">
          {edges.map(([edge, count]) => (
            <li key={edge}>{t("mesh.edge", { edge: edgeNames(edge), count })}</li>
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
  const t = useT();
  const room = useRoomStats(areaRoom, state?.presence?.nodes);
  if (!node) return <section className="card">{t("mesh.starting")}</section>;
  const openRelays = node.openRooms().filter((r) => r.relay === "open").length;
  const figures = [
    { label: t("mesh.stat.nodes"), value: state?.presence ? String(state.presence.nodes) : "—" },
    { label: t("mesh.stat.connections"), value: String(openRelays + node.localPeers().length) },
    { label: t("mesh.stat.relayed"), value: String(node.stats.relayedForTabs + node.stats.forwardedToTabs) },
    { label: t("mesh.stat.received"), value: String(node.stats.received) },
    { label: t("mesh.stat.sent"), value: String(node.stats.sent) },
  ];
  const roomFigures = [
    { label: t("mesh.stat.people"), value: room ? String(room.people) : "—" },
    { label: t("mesh.stat.active"), value: room ? String(room.activeConnections) : "—" },
    { label: t("mesh.stat.stored"), value: room ? String(room.messagesStored) : "—" },
    { label: t("mesh.stat.roomRelayed"), value: room ? String(room.messagesRelayed) : "—" },
  ];
  return (
    <section className="card" aria-labelledby="stats-title">
      <h2 id="stats-title">{t("home.stats.title")}</h2>
      <dl className="m-0 grid grid-cols-2 gap-3 phone:grid-cols-1">
        {figures.map((f) => (
          <div key={f.label} className="stat">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-muted text-sm">{t("mesh.sinceOpened")}</p>
      <h3>{t("mesh.yourRoom")}</h3>
      <dl className="m-0 grid grid-cols-2 gap-3 phone:grid-cols-1" aria-label={t("mesh.roomFigures")}>
        {roomFigures.map((f) => (
          <div key={f.label} className="stat">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-muted text-sm">{t("mesh.roomNote")}</p>
    </section>
  );
}
