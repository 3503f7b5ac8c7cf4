// An SOS from someone else, on whatever screen the person is (issue 32): a banner at the top with "I'm coming to
// help" and the chat, the phone's vibration, and a short tone where the browser lets a page play sound (after the
// person has touched the page). Fed by the tab's mesh node: every room it has open, the area room among them.
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { StoredMessage } from "../../mesh/db";
import type { MeshNode } from "../../mesh/node";
import { useT } from "../../i18n";

/** An SOS older than this when it first reaches this screen is history, not an alarm. */
const FRESH_MS = 15 * 60_000;
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

export function SosAlert({ node }: { node: MeshNode | null }) {
  const t = useT();
  const [, setDismissed] = useState(0);
  const alerted = useRef(new Set<string>());
  const sos = node ? newestAlert(node) : null;

  useEffect(() => {
    if (!sos || alerted.current.has(sos.id)) return;
    alerted.current.add(sos.id);
    navigator.vibrate?.(VIBRATION);
    beep();
  }, [sos]);

  if (!node || !sos) return null;
  const done = () => {
    markSeen(sos.id);
    setDismissed((n) => n + 1);
  };
  const name = sos.senderName ?? t("chat.someone");
  return (
    <section className="sos-banner" role="alert" aria-label={t("sos.bannerLabel")}>
      <p>
        <strong>{t("sos.bannerTitle", { name })}</strong> {sos.text}
      </p>
      <div className="row">
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
        <Link to={`/chat?room=${encodeURIComponent(sos.room)}`} className="btn btn-ghost" onClick={done}>
          {t("sos.openChat")}
        </Link>
        <button type="button" className="btn btn-ghost" onClick={done}>
          {t("sos.dismiss")}
        </button>
      </div>
    </section>
  );
}
