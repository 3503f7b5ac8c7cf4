// The tab's one mesh node, made by the chat (or the offline tab) and published to the shell's store. Apart from
// node.ts so the node does not import the store that names its type (no circle between the two).
import { setCurrentMeshNode } from "./current";
import { type Me, MeshNode } from "./node";

let node: MeshNode | null = null;

/** The tab's mesh node for the signed-in user (a new one if the user changed). */
export function meshNode(me: Me): MeshNode {
  if (node && node.me.id === me.id && node.me.localMesh === me.localMesh) return node;
  node?.destroy();
  node = new MeshNode(me);
  setCurrentMeshNode(node);
  return node;
}
