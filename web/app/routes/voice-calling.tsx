// /voice-calling (docs/product/client-conventions.md): the people you can call (your direct chats, from the server), and the call
// itself. Every direct chat's room is opened here, so a call rings on this screen too.
import { Phone } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import type { Me } from "../../../core/api-types";
import type { RoomsAnswer } from "../../../core/rooms";
import { useToast } from "../components/toast";
import { CallDock } from "../features/calls/call-dock";
import { requestCall } from "../features/calls/start";
import { useMeshNode } from "../features/chat/use-mesh";
import { metaTitle, useT } from "../i18n";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/voice-calling";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "calls.metaTitle", "Voice Calls · LinkUp") }];

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
  const t = useT();
  const node = useMeshNode(user);
  const [inCall, setInCall] = useState<string | null>(null);
  const roomIds = contacts.map((c) => c.id).join(" ");
  useEffect(() => {
    if (!node || !roomIds) return;
    for (const id of roomIds.split(" ")) void node.open(id);
  }, [node, roomIds]);

  if (!user) {
    return (
      <section className="card grid justify-items-center gap-3 text-center" aria-labelledby="calls-title">
        <h1 id="calls-title">{t("calls.title")}</h1>
        <p>{t("calls.joinFirst")}</p>
        <Link to="/chat" className="btn btn-primary">
          {t("calls.openChat")}
        </Link>
      </section>
    );
  }
  return (
    <section className="grid gap-[0.6rem]" aria-labelledby="calls-title">
      <h1 id="calls-title">{t("calls.title")}</h1>
      <p className="text-muted">{t("calls.intro")}</p>
      {user.verified ? null : (
        <p className="card" role="note">
          {t("api.callVerify")} <Link to="/signup-verification?step=verify-phone">{t("calls.verifyPhone")}</Link>
        </p>
      )}
      {node ? <CallDock node={node} onActive={setInCall} /> : null}
      <h2>{t("calls.contacts")}</h2>
      {contacts.length === 0 ? (
        <p>
          {t("calls.noContactsBefore")} <Link to="/chat">{t("calls.meshChat")}</Link>
          {t("calls.noContactsAfter")}
        </p>
      ) : (
        <ul className="grid gap-[0.6rem] m-0 list-none p-0 [&_li]:justify-between [&_li]:border-t [&_li]:border-line [&_li]:py-[0.4rem]">
          {contacts.map((c) => {
            const present = c.peerId ? node?.roomState(c.id)?.presence?.members.some((m) => m.userId === c.peerId) : false;
            const status =
              inCall === c.id ? t("calls.statusCalling") : present ? t("calls.statusConnected") : t("calls.statusNotConnected");
            return (
              <li key={c.id} className="card flex flex-wrap items-center gap-2 contact">
                <div>
                  <strong>{c.name}</strong>
                  <p className="text-muted">{status}</p>
                </div>
                <button
                  type="button"
                  className="btn btn-primary"
                  aria-label={t("calls.callName", { name: c.name })}
                  disabled={!node || inCall !== null}
                  onClick={() =>
                    user.verified
                      ? requestCall({ room: c.id, peerName: c.name })
                      : toast({ title: t("files.premiumTitle"), description: t("api.callVerify"), variant: "destructive" })
                  }
                >
                  <Phone size={18} aria-hidden="true" /> {t("calls.call")}
                </button>
                <Link
                  to={`/chat?room=${encodeURIComponent(c.id)}`}
                  className="btn btn-ghost"
                  aria-label={t("calls.chatWith", { name: c.name })}
                >
                  {t("calls.chat")}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
