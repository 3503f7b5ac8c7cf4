// The local mesh protocol: what tabs and windows of one browser say to each other over BroadcastChannel.
// A tab whose relay socket is down asks a tab whose socket is up to relay for it; that tab passes the room's
// frames back to every tab. Checked with this schema on receipt like any other outside input.
// zod/mini, like core/frames.ts: this runs in the browser on the /chat budget.
import * as z from "zod/mini";
import { ClientFrameSchema, ServerFrameSchema } from "./frames";

export const LOCAL_MESH_CHANNEL = "linkup-mesh";

const tab = z.string().check(z.minLength(4), z.maxLength(40));
const room = z.string().check(z.minLength(3), z.maxLength(200));

export const LocalMeshMessageSchema = z.discriminatedUnion("kind", [
  /** Announces a tab, its hop name and the rooms it has an open relay socket for. Repeated as a heartbeat. */
  z.object({
    kind: z.literal("hello"),
    tab,
    hop: z.string().check(z.maxLength(60)),
    relays: z.array(room).check(z.maxLength(50)),
    online: z.boolean(),
  }),
  z.object({ kind: z.literal("bye"), tab }),
  /** Please send this frame to the room for me (my own socket is down). */
  z.object({ kind: z.literal("relay"), from: tab, to: tab, room, frame: ClientFrameSchema }),
  /** A frame the room sent to `via`, passed on to the other tabs. */
  z.object({ kind: z.literal("server"), via: tab, room, frame: ServerFrameSchema }),
  /** Stored messages changed (status, new message): other tabs re-read them from IndexedDB. */
  z.object({ kind: z.literal("changed"), room, ids: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(500)) }),
]);
export type LocalMeshMessage = z.infer<typeof LocalMeshMessageSchema>;
