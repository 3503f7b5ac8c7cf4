// The mesh chat screen (docs/product/screens.md): header, status bar, rooms, messages, quick replies, actions, input.
// Everything it says about the network is live: the node count comes from the room's presence, the
// transport line from the relay socket and the local mesh, the encryption badge from the room's kind.
import { Lock, Mic, Paperclip, Phone, Radio, SendHorizontal } from "lucide-react";
import { AreaChooser } from "./area-chooser";
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useNavigate, useSearchParams } from "react-router";
import { AI_PREFIX } from "../../../../core/ai-command";
import { badgeText, QUICK_REPLIES, TIER_LIMITS, type Tier } from "../../../../core/constants";
import type { MessageKey } from "../../../../core/i18n/en";
import { formatAgo } from "../../../../core/i18n/translate";
import { dmPeer, roomKind } from "../../../../core/room-ids";
import type { RoomSummary, RoomsAnswer } from "../../../../core/rooms";
import { useOnline } from "../../components/shell";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { roomLabel } from "./room-label";
import { ChatUpsell, PremiumOffer, SmartReplyChips } from "./assistant";
import { lazyPart } from "./lazy-part";
import { requestCall } from "../calls/start";
import { Invitations, MembershipActions, MessageRequests } from "./membership";
import { MessageList } from "./message-list";
import { OnDeviceReplyChips } from "./on-device-reply-chips";
import { isPrivateRoomId } from "./private-assistant";
import { fetchRooms, openDirectChat, useAreaRooms } from "./rooms";
import { useChatSos, useShareLocation } from "./use-position-actions";
import { useSend } from "./use-send";
import { useMeshNode, useRoom } from "./use-mesh";
import { TransferList } from "../files/transfer-list";
import type { Refusal } from "../../i18n/refusal";

function NeedsConnection() {
  const t = useT();
  return <p className="text-muted">{t("chat.needsConnection")}</p>;
}
const needsConnection = <NeedsConnection />;
const PeoplePanel = lazyPart(() => import("./panels").then((m) => m.PeoplePanel), needsConnection);
const GroupInfo = lazyPart(() => import("./panels").then((m) => m.GroupInfo), needsConnection);
const NewGroupPanel = lazyPart(() => import("./panels").then((m) => m.NewGroupPanel), needsConnection);
// A voice note goes to the room as an encrypted file (features/files).
const VoiceNote = lazyPart(() => import("../files/voice-note").then((m) => m.VoiceNote), needsConnection);
const CallDock = lazyPart(() => import("../calls/call-dock").then((m) => m.CallDock));
// Pairing phones by code works with no network, so its chunk is in the offline cache (docs/decisions/066-…).
const PairingPanel = lazyPart(() => import("./pairing-panel").then((m) => m.PairingPanel));

/** The quick replies in the person's language: the words sent are the ones on the button. */
const QUICK_REPLY_TEXT: Record<(typeof QUICK_REPLIES)[number], MessageKey> = {
  Hello: "quick.hello",
  "Got it": "quick.gotIt",
  "Share location": "quick.shareLocation",
  Emergency: "quick.emergency",
  Amazing: "quick.amazing",
  "Thank you": "quick.thankYou",
};

/** Rooms kept connected at once besides the one on screen (one socket each). */
const OPEN_ROOMS = 8;
const ROOMS_REFRESH_MS = 30_000;

interface Props {
  me: { id: string; nickname: string; tier: Tier; verified: boolean };
  initialRooms: RoomsAnswer | null;
  supportPhone: string;
  cookiesAccepted: boolean;
  /** Why the last membership form (accept, leave, block…) failed, in the server's words. */
  actionError?: Refusal | null;
}

export function ChatScreen({ me, initialRooms, supportPhone, cookiesAccepted, actionError }: Props) {
  const toast = useToast();
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { rooms, setRooms, areaProblem } = useAreaRooms(me.id, initialRooms);
  const node = useMeshNode(me);
  // Until the page's JavaScript runs (or when it never does), say why the chat is not live.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // Keep this screen and its assets in the offline worker's cache, so /chat opens with no network.
  useEffect(() => {
    navigator.serviceWorker?.ready
      .then((reg) => {
        const assets = performance
          .getEntriesByType("resource")
          .map((e) => e.name)
          .filter((n) => n.includes("/assets/"));
        reg.active?.postMessage({ type: "cache-urls", urls: [location.pathname + location.search, ...assets] });
      })
      .catch(() => {});
  }, []);

  const list = rooms?.rooms ?? [];
  const areaRoomId = rooms?.nearby?.roomId ?? list.find((r) => r.kind === "nearby")?.id ?? null;
  const roomId = params.get("room") ?? areaRoomId ?? list[0]?.id ?? null;
  const room: RoomSummary | undefined =
    list.find((r) => r.id === roomId) ??
    (roomId
      ? {
          id: roomId,
          kind: roomKind(roomId) ?? "nearby",
          name: roomKind(roomId) === "nearby" ? (rooms?.nearby?.name ?? t("chat.yourArea")) : t("chat.title"),
          encrypted: roomKind(roomId) !== "nearby",
          joined: true,
          memberCount: 0,
          lastMessageAt: null,
        }
      : undefined);
  // No area known (location denied, no town): ask for one here rather than wait for what cannot come.
  const needsArea = !areaRoomId && (areaProblem !== null || rooms?.nearby === null);
  const { state, messages } = useRoom(node, roomId);
  // The area room stays open too, so SOS and presence work from any chat; so do the user's other recent
  // rooms, so their messages arrive (and show as delivered to their senders) while another room is on screen.
  useRoom(node, areaRoomId);
  const roomIds = list
    .slice(0, OPEN_ROOMS)
    .map((r) => r.id)
    .join(" ");
  useEffect(() => {
    if (!node || !roomIds) return;
    for (const id of roomIds.split(" ")) void node.open(id);
  }, [node, roomIds]);
  // New direct chats and groups appear without a reload (mesh data refreshes every 30 s, docs/product/screens.md).
  useEffect(() => {
    const timer = setInterval(() => {
      if (navigator.onLine && document.visibilityState === "visible")
        fetchRooms()
          .then(setRooms)
          .catch(() => {});
    }, ROOMS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [setRooms]);

  // A first message from someone new (issue 32): the room tells this tab, so the chat joins the list at once,
  // with its unread badge, and a toast says who wrote (only when another room is on screen).
  useEffect(() => {
    if (!node) return;
    return node.onChatWaiting((waiting, fromName) => {
      fetchRooms()
        .then(setRooms)
        .catch(() => {});
      if (waiting !== roomId)
        toast({ title: t("chat.newChatTitle", { name: fromName || t("chat.someone") }), description: t("chat.newChatBody") });
    });
  }, [node, roomId, setRooms, toast, t]);

  // The status strip and the Mesh badge speak of the room on screen.
  useEffect(() => {
    node?.focus(roomId);
    return () => node?.focus(null);
  }, [node, roomId]);

  // Whatever is on screen while the page is visible counts as read (again whenever messages arrive).
  // biome-ignore lint/correctness/useExhaustiveDependencies: messages.length re-runs it for new messages
  useEffect(() => {
    if (!node || !roomId) return;
    node.markRead(roomId);
    const onVisible = () => node.markRead(roomId);
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [node, roomId, messages.length]);

  const chatSend = useSend(node, roomId, me.id, supportPhone);
  const areaName = rooms?.nearby?.name ?? null;
  const locationShare = useShareLocation(node, roomId, areaName);
  const sos = useChatSos(node, areaRoomId);

  const peers = state?.presence?.members.filter((m) => m.userId !== me.id) ?? [];
  // `info=1` opens the chat's info, where /advanced-security's safety numbers link to compare.
  const [panel, setPanel] = useState<null | "people" | "info" | "group" | "phones">(params.get("info") === "1" ? "info" : null);
  const [selected, setSelected] = useState<Set<string> | null>(null);

  const startDirect = async (userId: string) => {
    try {
      const id = await openDirectChat(userId);
      fetchRooms()
        .then(setRooms)
        .catch(() => {});
      if (id) navigate(`/chat?room=${encodeURIComponent(id)}`);
      setPanel(null);
    } catch (e) {
      toast({ title: t("chat.openFailed"), description: t.error(e instanceof Error ? e : String(e)), variant: "destructive" });
    }
  };

  const isDirect = room?.kind === "dm";
  const peerId = isDirect ? (room?.peerId ?? (roomId ? dmPeer(roomId, me.id) : null)) : null;
  const peerOnline = peerId ? (state?.presence?.members.some((m) => m.userId === peerId) ?? false) : false;
  // Someone online in the area room is online, even if this private chat is not open on their screen.
  const areaState = areaRoomId ? node?.roomState(areaRoomId) : undefined;
  const peerNearby = peerId ? (areaState?.presence?.members.some((m) => m.userId === peerId) ?? false) : false;
  const lastReceived = messages.filter((m) => !m.mine && !m.isAI && m.text && m.type === "text").at(-1);
  // After someone's SOS the chips would offer "Hello!": the SOS bubble's own 'I'm coming to help' is the answer.
  const lastFromOthers = messages.filter((m) => !m.mine && !m.isAI).at(-1);
  const afterSos = lastFromOthers?.type === "emergency";
  const lastFromPeer = isDirect ? lastReceived : undefined;
  const context = messages
    .filter((m) => m.text)
    .slice(-5)
    .map((m) => m.text ?? "");

  const section = useChatHeight();

  return (
    <section className="chat" ref={section} aria-label={t("chat.label")}>
      <ChatHeader
        title={room ? roomLabel(room.name, room.kind, t) : t("chat.title")}
        state={state}
        node={node}
        statusLine={
          isDirect
            ? peerOnline
              ? t("chat.onlineMesh")
              : peerNearby
                ? t("chat.onlineNearby")
                : lastFromPeer
                  ? t("chat.lastSeen", { ago: formatAgo(lastFromPeer.timestamp, t.tag) })
                  : t("chat.notHere")
            : null
        }
        kind={room?.kind ?? null}
        // Calls need both phones verified (core/calls.ts): no call button for someone who cannot take one.
        callable={room?.peerVerified !== false}
        onPeople={() => setPanel("people")}
        onCall={
          isDirect && roomId && hydrated
            ? () =>
                room?.request
                  ? // No calls before a message request is accepted (docs/decisions/050-…); the room refuses them too.
                    toast({
                      title: t("req.title"),
                      description: t(room.request.direction === "outgoing" ? "req.callWait" : "req.callAccept"),
                      variant: "destructive",
                    })
                  : me.verified
                    ? requestCall({ room: roomId, peerName: room?.name ?? t("files.chat") })
                    : toast({ title: t("files.premiumTitle"), description: t("api.callVerify"), variant: "destructive" })
            : null
        }
      />
      {node ? <CallDock node={node} /> : null}
      <Invitations invitations={rooms?.invitations ?? []} />
      <MessageRequests rooms={rooms?.rooms ?? []} current={roomId} />
      <RoomSwitcher rooms={list} current={roomId} unread={(id) => node?.unread(id) ?? 0} />
      {panel === "phones" && node ? <PairingPanel node={node} onClose={() => setPanel(null)} /> : null}
      {room ? <MembershipActions room={room} blocked={rooms?.blocked ?? []} /> : null}
      {actionError ? (
        <p className="text-muted" role="alert">
          {t.error(actionError)}
        </p>
      ) : null}
      {hydrated ? null : <p className="text-muted">{t("chat.needsJs")}</p>}
      {needsArea ? <AreaChooser problem={areaProblem} onJoined={setRooms} /> : null}
      {/* While the area is being chosen the chooser has the list's place (no empty list beside it). */}
      <div className={`chat-body${needsArea && !roomId ? " chat-body-idle" : ""}`}>
        {roomId ? (
          <MessageList
            messages={messages}
            loaded={state?.loaded ?? false}
            onMessage={isDirect ? undefined : (userId) => void startDirect(userId)}
            onHelp={(m) => void chatSend.send(t("sos.comingText", { name: m.senderName ?? t("chat.someone") }))}
            selected={selected}
            onToggle={(id) =>
              setSelected((set) => {
                const next = new Set(set);
                if (!next.delete(id)) next.add(id);
                return next;
              })
            }
          />
        ) : needsArea ? null : (
          <p className="text-muted">{t("chat.findingRoom")}</p>
        )}
        {chatSend.thinking ? (
          <p className="mx-0 mt-1 mb-0 text-muted italic" role="status">
            {t("chat.aiThinking")}
          </p>
        ) : null}
        {state?.typing.length ? (
          <p className="mx-0 mt-1 mb-0 text-muted italic" role="status">
            {t("chat.typing", { count: state.typing.length, names: state.typing.map((p) => p.nickname).join(", ") })}
          </p>
        ) : null}
      </div>
      {selected ? (
        <div className="card flex flex-wrap items-center gap-2" role="toolbar" aria-label={t("chat.selectedToolbar")}>
          <span>{t("chat.selectedCount", { count: selected.size })}</span>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={selected.size === 0}
            onClick={async () => {
              const text = messages
                .filter((m) => selected.has(m.id) && m.text)
                .map((m) => `${m.mine ? me.nickname : (m.senderName ?? t("chat.someone"))}: ${m.text}`)
                .join("\n");
              try {
                await navigator.clipboard.writeText(text);
                toast({ title: t("chat.copied"), description: t("chat.copiedBody", { count: selected.size }) });
              } catch {
                toast({ title: t("chat.copyFailed"), description: t("chat.copyRefused"), variant: "destructive" });
              }
            }}
          >
            {t("chat.copy")}
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={selected.size === 0 || !node || !roomId}
            onClick={async () => {
              if (node && roomId) await node.forget(roomId, [...selected]);
              setSelected(null);
            }}
          >
            {t("chat.deleteHere")}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setSelected(null)}>
            {t("chat.done")}
          </button>
        </div>
      ) : null}
      {chatSend.offer ? (
        <PremiumOffer error={chatSend.offer.error} code={chatSend.offer.code} phone={supportPhone} onClose={chatSend.closeOffer} />
      ) : null}
      {chatSend.aiCommandsToday !== undefined ? <ChatUpsell aiCommandsToday={chatSend.aiCommandsToday} phone={supportPhone} /> : null}
      {panel === "people" ? (
        <PeoplePanel title={t("chat.peopleHereTitle")} room={room} peers={peers} onMessage={startDirect} onClose={() => setPanel(null)} />
      ) : null}
      {panel === "info" && room ? (
        <GroupInfo
          room={room}
          me={me.id}
          online={new Set(peers.map((p) => p.userId))}
          onMessage={startDirect}
          onClose={() => setPanel(null)}
        />
      ) : null}
      {panel === "group" ? (
        <NewGroupPanel
          people={peers}
          onCreated={(id) => {
            setPanel(null);
            fetchRooms()
              .then(setRooms)
              .catch(() => {});
            navigate(`/chat?room=${encodeURIComponent(id)}`);
          }}
          onClose={() => setPanel(null)}
        />
      ) : null}
      {chatSend.askingConsent ? (
        <div className="card" role="alertdialog" aria-label={t("chat.aiDialog")}>
          <p>{t("chat.aiNotice")}</p>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className="btn btn-primary" onClick={chatSend.consent}>
              {t("chat.aiSend")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={chatSend.cancelConsent}>
              {t("common.cancel")}
            </button>
          </div>
        </div>
      ) : null}
      {locationShare.open ? (
        <div className="card" role="alertdialog" aria-label={t("chat.locationDialog")}>
          <p>
            {room?.kind === "nearby"
              ? t("chat.locationPublic", { room: room.name })
              : room?.kind === "dm"
                ? t("chat.locationDm", { name: room.name })
                : t("chat.locationGroup")}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            {areaName ? (
              <button type="button" className="btn btn-primary" onClick={() => void locationShare.share(false)}>
                {t("chat.shareArea", { area: roomLabel(areaName, "nearby", t) })}
              </button>
            ) : null}
            <button type="button" className="btn btn-ghost" onClick={() => void locationShare.share(true)}>
              {t("chat.shareExact")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={locationShare.cancel}>
              {t("common.cancel")}
            </button>
          </div>
        </div>
      ) : null}
      {sos.open ? (
        <div className="card sos-confirm" role="alertdialog" aria-label={t("chat.sosDialog")}>
          <p>{areaRoomId ? t("chat.sosConfirm") : t("chat.sosConfirmNoArea")}</p>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className="btn btn-danger" onClick={sos.confirm}>
              {t("chat.sosNow")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={sos.cancel}>
              {t("common.cancel")}
            </button>
          </div>
        </div>
      ) : null}
      {/* In the flow above the composer, never over the message box. */}
      {cookiesAccepted ? null : <CookieNotice />}
      <TransferList />
      <Composer
        initialDraft={params.get("draft")}
        // Smart replies are a verified users' feature (docs/product/identity.md): others are not asked to fetch them.
        lastReceived={me.verified && !afterSos ? (lastReceived?.text ?? null) : null}
        afterSos={afterSos}
        context={context}
        privateRoom={roomId ? isPrivateRoomId(roomId) : false}
        disabled={!roomId}
        isDirect={isDirect}
        onSend={chatSend.send}
        voiceNote={<VoiceNote node={node} roomId={roomId} voiceLimit={TIER_LIMITS[me.tier]?.voiceMessages ?? 0} phone={supportPhone} />}
        onAttach={(files) => {
          // Encryption and upload code loads when a file is chosen, not with the screen (bench/README.md, bundle).
          if (node && roomId) void import("../files/send").then((m) => m.sendFiles(node, roomId, files, toast, t));
        }}
        onTyping={(active) => node && roomId && node.typing(roomId, active)}
        onLocation={locationShare.show}
        onSos={sos.show}
        onMenu={(item) => {
          if (item === "people") setPanel("people");
          else if (item === "info") setPanel("info");
          else if (item === "group") setPanel("group");
          else if (item === "sos") sos.show();
          else if (item === "select") setSelected(new Set());
          else if (item === "phones") setPanel("phones");
        }}
      />
    </section>
  );
}

/**
 * On a phone the chat fills the screen between where it starts and the bottom navigation (styles.css): the list
 * takes what is left and the composer sits below it, never over it. Where the chat starts is measured here.
 */
function useChatHeight() {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = section.current;
    if (!el) return;
    const place = () => el.style.setProperty("--chat-top", `${Math.round(el.getBoundingClientRect().top + window.scrollY)}px`);
    place();
    window.addEventListener("resize", place);
    return () => window.removeEventListener("resize", place);
  }, []);
  return section;
}

function ChatHeader({
  title,
  state,
  node,
  statusLine,
  kind,
  callable,
  onPeople,
  onCall,
}: {
  callable: boolean;
  onPeople: () => void;
  /** Direct chats: start a voice call (null elsewhere, and before the page's JavaScript runs). */
  onCall: (() => void) | null;
  title: string;
  state: ReturnType<MeshNode["roomState"]>;
  node: MeshNode | null;
  statusLine: string | null;
  kind: RoomSummary["kind"] | null;
}) {
  const live = state?.relay === "open";
  const viaTab = !live && state?.viaTab;
  // Before the first connection attempt has ended (the page's scripts, the node, the socket) the honest word is
  // "Connecting…": "Offline" and "No connection" only once a try has failed.
  const online = useOnline();
  const connecting = online !== false && !live && !viaTab && !state?.settled;
  // With no room yet there is nothing to be live about; with the browser offline that is still worth saying.
  const showConnection = Boolean(kind) || online === false;
  const tabs = node ? node.localPeers().length : 0;
  const nodes = state?.presence?.nodes;
  const t = useT();
  return (
    <>
      <header className="chat-header flex flex-wrap items-center gap-2 narrow:flex-nowrap">
        <Link to="/" className="btn btn-ghost" aria-label={t("common.back")}>
          <span className="flip-rtl" aria-hidden="true">
            ←
          </span>
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="m-0 text-lg wrap-anywhere narrow:truncate narrow:text-[1.05rem]">{title}</h1>
          {statusLine ? <p className="m-0 text-sm text-muted">{statusLine}</p> : null}
        </div>
        {kind === "dm" && callable ? (
          <button
            type="button"
            className="btn btn-ghost"
            aria-label={t("chat.voiceCallLabel", { name: title })}
            disabled={!onCall}
            onClick={() => onCall?.()}
          >
            <Phone size={18} aria-hidden="true" />
          </button>
        ) : null}
        {/* No room yet (the area is being chosen) and online: nothing to be live or offline about. */}
        {showConnection ? (
          <span
            className={`live-badge rounded-full px-2 py-[0.15rem] text-xs font-bold text-white ${live ? "bg-ok" : viaTab || connecting ? "bg-warn" : "bg-muted"}`}
          >
            {live ? t("chat.live") : viaTab ? t("chat.viaTab") : connecting ? t("chat.connecting") : t("chat.offline")}
          </span>
        ) : null}
        {/* The node count opens the people list: the plain way to start a private chat with someone here. */}
        <button
          type="button"
          className="btn btn-ghost node-count text-sm text-muted"
          title={t("chat.nodesTitle")}
          aria-label={t("chat.peopleHereLabel", { nodes: nodes === undefined ? t("chat.unknown") : t("chat.nodes", { count: nodes }) })}
          onClick={onPeople}
        >
          {nodes === undefined
            ? // Until the room's first presence: unknown only when offline ("— nodes"), not while it is on its way.
              live || connecting
              ? t("chat.nodesConnecting")
              : t("chat.nodesUnknown")
            : t("chat.nodes", { count: nodes })}
        </button>
      </header>
      {/* On a phone this line scrolls sideways: focusable, so a keyboard can scroll it too (axe's scrollable-region-focusable). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard */}
      <div className={STATUS_BAR} role="status" aria-label={t("chat.statusLabel")} tabIndex={0}>
        {!showConnection ? null : connecting ? (
          <span>{t("chat.connectingBody")}</span>
        ) : (
          <>
            <span>{live ? t("chat.meshActive") : viaTab ? t("chat.meshViaTab") : t("chat.meshOffline")}</span>
            <span>{live ? t("chat.relayConnected") : viaTab ? t("chat.localMesh") : t("chat.noConnection")}</span>
          </>
        )}
        {tabs > 0 ? <span>{t("chat.otherTabs", { count: tabs })}</span> : null}
        {kind === "nearby" ? <span>{t("chat.areaRoom")}</span> : null}
        {kind === "dm" || kind === "group" ? (
          <span className="font-semibold text-ok">{t("chat.e2e")}</span>
        ) : kind ? (
          <span className="text-warn">{t("chat.publicRoom")}</span>
        ) : null}
      </div>
    </>
  );
}

/** The chat's status line: one row that scrolls sideways on a phone. */
const STATUS_BAR =
  "chat-statusbar flex flex-wrap gap-x-[0.9rem] gap-y-[0.4rem] text-caption text-muted narrow:flex-nowrap narrow:overflow-x-auto narrow:whitespace-nowrap narrow:[scrollbar-width:none]";

function RoomSwitcher({ rooms, current, unread }: { rooms: RoomSummary[]; current: string | null; unread: (id: string) => number }) {
  const t = useT();
  if (rooms.length === 0) return null;
  return (
    <nav className="flex gap-[0.4rem] overflow-x-auto" aria-label={t("chat.rooms")}>
      {/* The room links are navigation: 44 px tall like every other (WCAG 2.5.5; issue 32 measured 28 px). */}
      {rooms.map((r) => (
        <Link
          key={r.id}
          to={`/chat?room=${encodeURIComponent(r.id)}`}
          className={`room-chip inline-flex min-h-touch items-center gap-1 rounded-full border border-line px-[0.7rem] py-[0.3rem] text-sm whitespace-nowrap no-underline ${r.id === current ? "bg-primary text-primary-fg" : ""}`}
          aria-current={r.id === current ? "page" : undefined}
        >
          {r.encrypted ? <Lock aria-hidden="true" size={14} /> : <Radio aria-hidden="true" size={14} />} {roomLabel(r.name, r.kind, t)}
          {r.request?.direction === "incoming" ? <span className="room-request"> · {t("req.badge")}</span> : null}
          {r.id !== current && unread(r.id) > 0 ? (
            <span className="room-unread ms-[0.35rem] rounded-full bg-danger px-[0.4rem] text-[0.7rem] text-white">
              {badgeText(unread(r.id))}
              <span className="sr-only">{t("shell.unread")}</span>
            </span>
          ) : null}
        </Link>
      ))}
    </nav>
  );
}

type MenuItem = "info" | "select" | "settings" | "people" | "group" | "phones" | "sos";

function Composer({
  initialDraft,
  lastReceived,
  afterSos,
  context,
  privateRoom,
  disabled,
  isDirect,
  onSend,
  onAttach,
  voiceNote,
  onTyping,
  onLocation,
  onSos,
  onMenu,
}: {
  /** Text to start with (links such as /chat?draft=@ai%20market put a command in the box). */
  initialDraft: string | null;
  lastReceived: string | null;
  /** The newest message from others is an SOS: no small-talk chips under it. */
  afterSos: boolean;
  context: string[];
  /** Private rooms get smart replies computed on this device; nothing of theirs goes to the server. */
  privateRoom: boolean;
  disabled: boolean;
  isDirect: boolean;
  onSend: (text: string) => Promise<boolean>;
  /** Files chosen with the attach button: encrypted and sent by features/files. */
  onAttach: (files: File[]) => void;
  /** The voice recorder (features/files): a voice note goes to the room as a file. */
  voiceNote: ReactNode;
  onTyping: (active: boolean) => void;
  onLocation: () => void;
  onSos: () => void;
  onMenu: (item: MenuItem) => void;
}) {
  const t = useT();
  const [text, setText] = useState(initialDraft?.slice(0, 4000) ?? "");
  const [recording, setRecording] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const typingSent = useRef(0);
  const blank = text.trim() === "";

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (blank || disabled) return;
    const value = text;
    setText("");
    onTyping(false);
    typingSent.current = 0;
    await onSend(value);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };
  const prefill = (value: string) => {
    setText(value);
    input.current?.focus();
  };
  const menu = useMemo(
    () =>
      [
        ["info", t("chat.menu.info")],
        ["select", t("chat.menu.select")],
        ["settings", t("chat.menu.settings")],
        ["people", t("chat.menu.people")],
        ["group", t("chat.menu.group")],
        ["phones", t("pair.open")],
        ["sos", t("chat.menu.sos")],
      ] as const,
    [t],
  );

  return (
    <div className="composer">
      {/* One bar: on a phone its chips and actions scroll sideways in a single row (actions first), with the ⋮
          menu outside the scroller so it opens inside the screen (issue 32). */}
      <div className="composer-bar">
        <div className="composer-tools">
          {lastReceived ? (
            privateRoom ? (
              <OnDeviceReplyChips message={lastReceived} onPick={(t) => void onSend(t)} />
            ) : (
              <SmartReplyChips message={lastReceived} context={context} onPick={(t) => void onSend(t)} />
            )
          ) : null}
          <div className="quick-replies" role="group" aria-label={t("chat.quickReplies")}>
            {QUICK_REPLIES.filter((q) => !afterSos || q === "Share location" || q === "Emergency").map((q) => (
              <button
                key={q}
                type="button"
                className="chip"
                disabled={disabled}
                // 'Share location' and 'Emergency' open their confirmations: one tap never shares a position or
                // posts a bare word that looks like an SOS and is not one.
                onClick={() => (q === "Share location" ? onLocation() : q === "Emergency" ? onSos() : void onSend(t(QUICK_REPLY_TEXT[q])))}
              >
                {t(QUICK_REPLY_TEXT[q])}
              </button>
            ))}
          </div>
          <div className="action-row" role="group" aria-label={t("chat.actions")}>
            <button type="button" className="btn btn-ghost" onClick={() => prefill(AI_PREFIX)}>
              {t("chat.aiHelp")}
            </button>
            {isDirect ? (
              <button type="button" className="btn btn-ghost" onClick={() => prefill(`${AI_PREFIX}translate `)}>
                {t("chat.aiTranslate")}
              </button>
            ) : null}
            <button type="button" className="btn btn-ghost" onClick={() => file.current?.click()}>
              {t("chat.media")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={onLocation} disabled={disabled}>
              {t("chat.location")}
            </button>
            <button type="button" className="btn btn-danger" onClick={onSos}>
              {isDirect ? t("chat.emergency") : t("chat.sos")}
            </button>
          </div>
        </div>
        <details className="overflow-menu">
          <summary className="btn btn-ghost" aria-label={t("chat.moreOptions")}>
            ⋮
          </summary>
          <ul>
            {menu.map(([key, label]) => (
              <li key={key}>
                {key === "settings" ? (
                  <Link to="/settings?tab=network">{label}</Link>
                ) : (
                  <button
                    type="button"
                    onClick={(e) => {
                      e.currentTarget.closest("details")?.removeAttribute("open");
                      onMenu(key);
                    }}
                  >
                    {label}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </details>
      </div>
      <form className="composer-row" onSubmit={submit}>
        <button type="button" className="btn btn-ghost" aria-label={t("chat.attach")} onClick={() => file.current?.click()}>
          <Paperclip aria-hidden="true" size={20} />
        </button>
        <input
          type="file"
          ref={file}
          hidden
          multiple
          aria-label={t("chat.filesToSend")}
          onChange={(e) => {
            const chosen = Array.from(e.currentTarget.files ?? []);
            e.currentTarget.value = "";
            if (chosen.length) onAttach(chosen);
          }}
        />
        <input
          ref={input}
          className="composer-input"
          dir="auto"
          aria-label={t("chat.message")}
          placeholder={disabled ? t("chat.waitingRoom") : t("chat.placeholder")}
          value={text}
          maxLength={4000}
          onChange={(e) => {
            setText(e.target.value);
            if (Date.now() - typingSent.current > 3000 && e.target.value.trim()) {
              typingSent.current = Date.now();
              onTyping(true);
            }
          }}
          onKeyDown={onKey}
        />
        <button
          type="button"
          className={`btn btn-ghost${recording ? " recording" : ""}`}
          aria-label={t("chat.voice")}
          aria-pressed={recording}
          onClick={() => setRecording(!recording)}
        >
          <Mic aria-hidden="true" size={20} />
        </button>
        <button type="submit" className="btn btn-primary composer-send" disabled={blank || disabled} aria-label={t("chat.send")}>
          {/* On a phone only the arrow shows, so the message box keeps room for its whole placeholder. */}
          <SendHorizontal aria-hidden="true" size={20} className="send-icon" />
          <span className="send-word">{t("chat.send")}</span>
        </button>
      </form>
      {recording ? voiceNote : null}
    </div>
  );
}

function CookieNotice() {
  const [hidden, setHidden] = useState(false);
  const t = useT();
  useEffect(() => {
    if (sessionStorage.getItem("linkup-cookie-notice-dismissed") === "true") setHidden(true);
  }, []);
  if (hidden) return null;
  return (
    <div className="rounded-xl border border-line bg-card p-3" role="region" aria-label={t("chat.cookieNotice")}>
      <p>{t("chat.cookieBody")}</p>
      <Form method="post" action="/consent" reloadDocument className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="redirectTo" value="/chat" />
        <button
          type="submit"
          className="btn btn-primary"
          onClick={() => {
            try {
              localStorage.setItem("linkup-cookies-accepted", "true");
              localStorage.setItem("linkup-cookie-consent-version", "1.0");
            } catch {}
          }}
        >
          {t("chat.cookieAccept")}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            sessionStorage.setItem("linkup-cookie-notice-dismissed", "true");
            setHidden(true);
          }}
        >
          {t("chat.cookieDismiss")}
        </button>
      </Form>
    </div>
  );
}
