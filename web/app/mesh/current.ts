// Which mesh node this tab has, for the shell (status strip, badges) on every page. A module of its own so the
// shell's bundle does not carry the node, its crypto and its transports: only the chat makes a node.
import type { MeshNode } from "./node";

let current: MeshNode | null = null;
const listeners = new Set<() => void>();

/** The tab's mesh node if the chat has made one. */
export function currentMeshNode(): MeshNode | null {
  return current;
}
/** Tells the listener whenever the tab's node is made or replaced. */
export function onMeshNode(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
export function setCurrentMeshNode(node: MeshNode) {
  current = node;
  for (const l of listeners) l();
}
