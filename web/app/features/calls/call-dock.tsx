// The call dock (docs/decisions/024-calls-through-the-room.md): rings for incoming calls in any room this tab has
// open, starts the calls the chat header and /voice-calling ask for, and shows the one call of this device.
// Loaded lazily, so the chat's first load carries none of it.
import { useEffect, useState } from "react";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { CallPanel } from "./call-panel";
import { CallSession } from "./session";
import { onCallRequest } from "./start";

/** How long the last call's outcome stays on screen. */
const ENDED_SHOWN_MS = 4000;

export function CallDock({ node, onActive }: { node: MeshNode; onActive?: (room: string | null) => void }) {
  const toast = useToast();
  const t = useT();
  const [session, setSession] = useState<CallSession | null>(null);
  const [, setVersion] = useState(0);

  useEffect(() => {
    let current: CallSession | null = null;
    const adopt = (s: CallSession) => {
      current?.dispose();
      current = s;
      setSession(s);
    };
    const rerender = () => setVersion((v) => v + 1);
    const offRing = node.onCall((room, frame) => {
      if (frame.type !== "ring" || frame.from === node.me.id || current?.live) return;
      adopt(new CallSession(node, { room, peerName: frame.fromName, role: "callee", callId: frame.callId }, rerender));
    });
    const offRequest = onCallRequest(({ room, peerName }) => {
      if (current?.live) return;
      const s = new CallSession(node, { room, peerName, role: "caller" }, rerender);
      adopt(s);
      void s.start();
    });
    return () => {
      offRing();
      offRequest();
      current?.dispose();
    };
  }, [node]);

  const view = session?.view;
  // A refusal (Premium Feature, no microphone) becomes a toast once.
  const problem = view?.problem;
  useEffect(() => {
    if (problem) toast({ title: t.error(problem.title), description: t.error(problem.description), variant: "destructive" });
  }, [problem, toast, t]);
  const phase = view?.phase;
  const room = view?.room ?? null;
  useEffect(() => onActive?.(phase && phase !== "ended" ? room : null), [phase, room, onActive]);
  useEffect(() => {
    if (phase !== "ended") return;
    const timer = setTimeout(() => setSession((s) => (s?.live ? s : null)), ENDED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  if (!session || !view) return null;
  return <CallPanel session={session} view={view} onClose={() => setSession(null)} />;
}
