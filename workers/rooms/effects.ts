// The Worker's side of the room's port (durable-objects/room-effects.ts): notices go through the notification
// module, trouble through the operator's counters.
import type { RoomEffects } from "../../durable-objects/room-effects";
import { countTrouble } from "../analytics";
import { notify, notifyDirectMessageIfOffline } from "../notifications";

export const roomEffects: RoomEffects = {
  notifyDirectMessageIfOffline: (env, db, input) => notifyDirectMessageIfOffline(env, db, input),
  notify: (env, db, userId, notice) => notify(env, db, userId, notice),
  countD1WriteFailed: (db) => countTrouble(db, "d1_write_failed"),
};
