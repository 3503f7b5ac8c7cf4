// Disappearing messages on screen (docs/decisions/040-disappearing-messages.md): the line a member's device seals
// when someone changes the timer, and the chat's security lines (the info panel's control is in
// ./disappearing-control.tsx). The room keeps the timer and stamps each message's expiry; devices delete what
// expired (web/app/mesh/expiry.ts).
import { isDisappearingMeta } from "../../../../core/disappearing-timers";
import { useT } from "../../i18n";
import { securityLine } from "./security-lines";
import { TIMER_LABELS } from "./timer-labels";

/** The room's announcement of a timer change, in the reader's language; null for any other message. */
export function useDisappearingLine(): (meta: Record<string, unknown> | undefined) => string | null {
  const t = useT();
  return (meta) => {
    if (!isDisappearingMeta(meta)) return null;
    const { byName, timer } = meta;
    return timer === "never" ? t("dis.off", { name: byName }) : t("dis.on", { name: byName, timer: t(TIMER_LABELS[timer]) });
  };
}

/**
 * A contact's (or this account's) devices changed, the server offered keys or a group's members that were refused,
 * or a group message was refused for the epoch it names: the line the sealing layer leaves, in the person's language.
 */
export function useDeviceChangeLine(): (meta: Record<string, unknown> | undefined) => string | null {
  const t = useT();
  return (meta) => securityLine(t, meta);
}
