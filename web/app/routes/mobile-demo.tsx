import { useState } from "react";
import { Link } from "react-router";
import type { Me } from "../../../core/api-types";
import type { MessageKey } from "../../../core/i18n/en";
import { formatTime } from "../../../core/i18n/translate";
import type { RoomsAnswer } from "../../../core/rooms";
import { TabLinks, useQueryTab } from "../components/tabs";
import { useAreaRooms } from "../features/chat/rooms";
import { useMeshNode, useRoom } from "../features/chat/use-mesh";
import { metaTitle, useT } from "../i18n";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/mobile-demo";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "md.metaTitle", "Mobile Demo · LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  const me = await apiGet<{ user: Me }>(context, "/api/me");
  if (!me) return { user: null, rooms: null };
  const rooms = await apiGet<RoomsAnswer>(context, "/api/rooms").catch(() => null);
  return { user: { id: me.user.id, nickname: me.user.nickname, verified: me.user.authMode === "verified" }, rooms };
}

const TABS = [
  { id: "overview", label: "md.tab.overview" },
  { id: "mesh", label: "md.tab.mesh" },
  { id: "ai", label: "md.tab.ai" },
  { id: "security", label: "md.tab.security" },
] as const satisfies readonly { id: string; label: MessageKey }[];

const AI_COMMANDS = [
  { name: "translate", example: "@ai translate good morning to Hausa" },
  { name: "emergency", example: "@ai emergency someone has fainted" },
  { name: "market", example: "@ai market rice Lagos" },
  { name: "weather", example: "@ai weather Kano" },
];

/** The mobile demo (docs/product/screens.md), on live data: this phone's area room and local mesh, not simulated devices. */
export default function MobileDemo({ loaderData }: Route.ComponentProps) {
  const t = useT();
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
    <div className="grid gap-[0.6rem]">
      <section className="card">
        <h1>{t("md.title")}</h1>
        <p>{t("md.intro")}</p>
        <TabLinks tabs={TABS.map((x) => ({ ...x, label: t(x.label) }))} current={tab} label={t("md.tabs")} onSelect={setTab} />
      </section>
      {!user ? (
        <section className="card">
          <p>
            <Link to="/chat">{t("md.join")}</Link> {t("md.joinAfter")}
          </p>
        </section>
      ) : null}
      {tab === "overview" ? (
        <section className="card" aria-labelledby="overview-title">
          <h2 id="overview-title">{t("md.tab.overview")}</h2>
          <dl className="m-0 grid grid-cols-2 gap-3 phone:grid-cols-1">
            <div className="stat">
              <dt>{t("md.connectedDevices")}</dt>
              <dd>{state?.presence ? state.presence.nodes : "—"}</dd>
            </div>
            <div className="stat">
              <dt>{t("md.area")}</dt>
              <dd>{t("md.areaValue", { area: rooms?.nearby?.name ?? t("md.notKnown") })}</dd>
            </div>
          </dl>
          <p>
            <span className="tag">{t("md.tagRelay")}</span> <span className="tag">{t("md.tagBluetooth")}</span>
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <Link to="/chat" className="btn btn-primary">
              {t("md.meshChat")}
            </Link>
            <Link to="/emergency" className="btn btn-danger">
              {t("shell.link.sos")}
            </Link>
            <Link to="/ai-features" className="btn btn-ghost">
              {t("md.aiAssistant")}
            </Link>
            <Link to="/mesh-network" className="btn btn-ghost">
              {t("shell.link.network")}
            </Link>
          </div>
        </section>
      ) : null}
      {tab === "mesh" ? (
        <section className="card" aria-labelledby="mesh-title">
          <h2 id="mesh-title">{t("md.devicesTitle")}</h2>
          <button type="button" className="btn btn-primary" onClick={scan} disabled={scanning || !user}>
            {scanning ? t("md.scanning") : t("md.scan")}
          </button>
          {scannedAt ? <p className="text-muted text-sm">{t("md.lastScan", { time: formatTime(scannedAt, t.tag) })}</p> : null}
          <ul
            className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
            aria-label={t("md.devices")}
          >
            {people.map((p) => (
              <li key={p.userId} className="card">
                <span>
                  <strong>{p.nickname}</strong> <small>{t("md.inRoom", { count: p.nodes })}</small>
                </span>
              </li>
            ))}
            {tabs.map((peer) => (
              <li key={peer.tab} className="card">
                <span>
                  <strong>{peer.hop}</strong> <small>{t("md.thisPhone")}</small>
                </span>
              </li>
            ))}
          </ul>
          {user && people.length === 0 && tabs.length === 0 ? <p>{t("md.noDevices")}</p> : null}
        </section>
      ) : null}
      {tab === "ai" ? (
        <section className="card" aria-labelledby="ai-title">
          <h2 id="ai-title">{t("md.aiTitle")}</h2>
          <ul className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2">
            {AI_COMMANDS.map((c) => (
              <li key={c.name}>
                <span>
                  <strong>{c.name}</strong>: <code>{c.example}</code>
                </span>
                <Link to={`/chat?draft=${encodeURIComponent(c.example)}`} className="btn btn-ghost">
                  {t("md.try", { name: c.name })}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {tab === "security" ? (
        <section className="card" aria-labelledby="security-title">
          <h2 id="security-title">{t("md.securityTitle")}</h2>
          <ul>
            <li>{t("md.sec.encryption")}</li>
            <li>{t("md.sec.keys")}</li>
            <li>
              {t("md.sec.phone", {
                status: user?.verified ? t("md.sec.verified") : user ? t("md.sec.notVerified") : t("md.sec.notSignedIn"),
              })}
            </li>
            <li>
              <Link to="/security-settings">{t("md.sec.more")}</Link>
            </li>
          </ul>
        </section>
      ) : null}
    </div>
  );
}
