// React access to the tab's mesh node: created after hydration (it needs IndexedDB, WebSocket and
// BroadcastChannel), kept in the tab's store (web/app/mesh/current.ts), and read through useSyncExternalStore so
// every frame re-renders what changed.
import { useEffect, useSyncExternalStore } from "react";
import type { Me, MeshNode } from "../../mesh/node";
import { currentMeshNode, onMeshNode, useCurrentMeshNode } from "../../mesh/current";
import { useRootData } from "../../root";

export function useMeshNode(me: Me | null): MeshNode | null {
  const made = useCurrentMeshNode();
  const id = me?.id;
  const nickname = me?.nickname;
  // The saved 'Mesh networking' setting decides whether this tab joins the local mesh at all.
  const localMesh = useRootData()?.user?.settings.meshNetworking ?? true;
  useEffect(() => {
    if (!id || !nickname) return;
    let live = true;
    // Loaded after the first paint: the node and its frame schemas are the chat's largest code and nothing on
    // the server-rendered screen needs them (bench/README.md, bundle).
    void import("../../mesh/tab-node").then(({ meshNode }) => {
      if (live) meshNode({ id, nickname, localMesh });
    });
    return () => {
      live = false;
    };
  }, [id, nickname, localMesh]);
  // The store's node is this person's once the import above has made it (a node of someone signed out is not).
  const node = made && made.me.id === id && made.me.localMesh === localMesh ? made : null;
  useSyncExternalStore(
    node?.subscribe ?? noopSubscribe,
    () => node?.version ?? 0,
    () => 0,
  );
  return node;
}

const noopSubscribe = () => () => {};

/** The tab's node for an action taken before useMeshNode's import has made it (a file chosen at once). */
export function meshNodeReady(): Promise<MeshNode> {
  const now = currentMeshNode();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = onMeshNode(() => {
      const made = currentMeshNode();
      if (!made) return;
      stop();
      resolve(made);
    });
  });
}

/** Opens a room on the node (history first, then the socket). */
export function useRoom(node: MeshNode | null, room: string | null) {
  useEffect(() => {
    if (node && room) void node.open(room);
  }, [node, room]);
  return node && room ? { state: node.roomState(room), messages: node.list(room) } : { state: undefined, messages: [] };
}
