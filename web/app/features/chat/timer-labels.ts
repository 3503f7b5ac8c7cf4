// The disappearing-message timers' names, apart from the chat's control so /settings loads only these.
import type { DisappearTimer } from "../../../../core/disappearing-timers";
import type { MessageKey } from "../../../../core/i18n/en";

export const TIMER_LABELS: Record<DisappearTimer, MessageKey> = {
  never: "dis.never",
  "1hour": "dis.1hour",
  "1day": "dis.1day",
  "1week": "dis.1week",
  "1month": "dis.1month",
};
