// An SOS from someone else, on whatever screen the person is (issue 32): a banner at the top with "I'm coming to
// help" and the chat, the phone's vibration, and a short tone where the browser lets a page play sound (after the
// person has touched the page). Fed by the tab's mesh node (every room it has open, the area room among them) and,
// on a screen opened without the chat, by the page's data: the session's read finds the newest SOS in the person's
// area, so the banner is in the server's HTML, and a push that reaches this browser reloads that data while the
// screen is open (docs/decisions/062-what-a-newcomer-trips-on.md).
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useRevalidator } from "react-router";
import { SOS_ALARM_MS, type SosBanner } from "../../../../core/sos";
import type { StoredMessage } from "../../mesh/db";
import type { MeshNode } from "../../mesh/node";
import { useT } from "../../i18n";
import { vibrate } from "../../lib/vibrate";

const FRESH_MS = SOS_ALARM_MS;
const SEEN_KEY = "linkup-sos-seen";
/** Vibration pattern (ms on, off, on…): long enough to notice in a pocket, short enough not to drain a battery. */
const VIBRATION = [400, 200, 400, 200, 800];

function seenIds(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? "[]") as string[]);
  } catch {
    return new Set();
  }
}

function markSeen(id: string) {
  const seen = seenIds();
  seen.add(id);
  try {
    sessionStorage.setItem(SEEN_KEY, JSON.stringify([...seen].slice(-50)));
  } catch {}
}

/** Two short tones through Web Audio; browsers refuse sound before a tap on the page, which is fine. */
function beep() {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    for (const [i, freq] of [880, 660].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.value = 0.2;
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + i * 0.35);
      osc.stop(ctx.currentTime + i * 0.35 + 0.3);
    }
    setTimeout(() => void ctx.close().catch(() => {}), 1500);
  } catch {}
}

/** The newest SOS from someone else, fresh and not yet answered or dismissed on this tab. */
function newestAlert(node: MeshNode): (StoredMessage & { room: string }) | null {
  const seen = seenIds();
  let found: (StoredMessage & { room: string }) | null = null;
  for (const state of node.openRooms()) {
    for (const m of node.list(state.room)) {
      if (m.type !== "emergency" || m.mine || seen.has(m.id) || Date.now() - m.timestamp > FRESH_MS) continue;
      if (!found || m.timestamp > found.timestamp) found = { ...m, room: state.room };
    }
  }
  return found;
}

/** Reloads the page's data when the service worker says a push arrived (web/public/sw.js tells open pages). */
function useRefreshOnPush() {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    const sw = navigator.serviceWorker;
    if (!sw) return;
    const onMessage = (e: MessageEvent) => {
      if ((e.data as { type?: string } | null)?.type === "push" && latest.current.state === "idle") void latest.current.revalidate();
    };
    sw.addEventListener("message", onMessage);
    return () => sw.removeEventListener("message", onMessage);
  }, []);
}

type Shown = { id: string; room: string; senderName: string | null; text: string | null; fromNode: boolean };

export function SosAlert({ node, fromServer = null }: { node: MeshNode | null; fromServer?: SosBanner | null }) {
  const t = useT();
  const [, setDismissed] = useState(0);
  const alerted = useRef(new Set<string>());
  // sessionStorage is read only once hydrated, so the first render matches the server's HTML.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useRefreshOnPush();
  const respond = useFetcher();
  const live = node ? newestAlert(node) : null;
  // The node's envelope of an SOS is `sos-<broadcast id>` (workers/sos sosEnvelope): one id for both sources.
  const serverId = fromServer ? `sos-${fromServer.id}` : null;
  const sos: Shown | null = live
    ? { id: live.id, room: live.room, senderName: live.senderName ?? null, text: live.text, fromNode: true }
    : fromServer && serverId && !(hydrated && seenIds().has(serverId))
      ? {
          id: serverId,
          room: fromServer.room,
          senderName: fromServer.senderName,
          text: `${fromServer.message}${fromServer.locationText ? ` (${fromServer.locationText})` : ""}`,
          fromNode: false,
        }
      : null;

  useEffect(() => {
    if (!sos || alerted.current.has(sos.id)) return;
    alerted.current.add(sos.id);
    vibrate(VIBRATION);
    beep();
  }, [sos]);

  if (!sos) return null;
  const done = () => {
    markSeen(sos.id);
    setDismissed((n) => n + 1);
  };
  const name = sos.senderName ?? t("chat.someone");
  return (
    <section
      className="sticky top-0 z-40 m-2 rounded-xl border-2 border-danger bg-sos-tint px-3 py-2 [&_p]:mt-0 [&_p]:mb-[0.4rem] [&_p]:wrap-anywhere"
      role="alert"
      aria-label={t("sos.bannerLabel")}
    >
      <p>
        <strong>{t("sos.bannerTitle", { name })}</strong> {sos.text}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {sos.fromNode && node ? (
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => {
              void node.send(sos.room, t("sos.comingText", { name }));
              done();
            }}
          >
            {t("sos.comingToHelp")}
          </button>
        ) : (
          // Without the chat's connection the answer goes through /emergency's form: it posts before any script.
          <respond.Form method="post" action="/emergency" onSubmit={done}>
            <input type="hidden" name="intent" value="respond" />
            <input type="hidden" name="id" value={fromServer?.id ?? ""} />
            <button type="submit" className="btn btn-danger">
              {t("sos.comingToHelp")}
            </button>
          </respond.Form>
        )}
        <Link to={`/chat?room=${encodeURIComponent(sos.room)}`} className="btn btn-ghost" onClick={done}>
          {t("sos.openChat")}
        </Link>
        {sos.fromNode || hydrated ? (
          <button type="button" className="btn btn-ghost" onClick={done}>
            {t("sos.dismiss")}
          </button>
        ) : null}
      </div>
    </section>
  );
}
