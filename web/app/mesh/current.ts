// Which mesh node this tab has, for the shell (status strip, badges) on every page: a zustand store
// (docs/decisions/071-client-state-in-zustand.md). A module of its own so the shell's bundle does not carry the
// node, its crypto and its transports: only the chat makes a node.
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import type { MeshNode } from "./node";

const meshNodeStore = createStore<{ node: MeshNode | null }>(() => ({ node: null }));

/** The tab's mesh node if the chat has made one. */
export function currentMeshNode(): MeshNode | null {
  return meshNodeStore.getState().node;
}
/** Tells the listener whenever the tab's node is made or replaced. */
export function onMeshNode(listener: () => void): () => void {
  return meshNodeStore.subscribe(listener);
}
export function setCurrentMeshNode(node: MeshNode) {
  meshNodeStore.setState({ node });
}
/** The tab's node in React: null on the server and until the chat makes one, then re-rendered when replaced. */
export function useCurrentMeshNode(): MeshNode | null {
  return useStore(meshNodeStore, (s) => s.node);
}
