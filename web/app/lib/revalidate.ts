// Which loaders run again after an action (docs/decisions/057-pages-ask-once-and-replicas.md). React Router
// re-runs every loader on the page after any action; the root's loader (the visitor, their settings, the Alerts
// badge) is skipped after actions that cannot change those: one in-process /api/me fewer per action.
import type { ShouldRevalidateFunctionArgs } from "react-router";

// The /chat forms that only touch rooms and blocks (features/chat/membership.server.ts); "set-town" changes the
// visitor's place, and the join form starts a session.
const CHAT_ROOM_INTENTS = new Set([
  "accept",
  "decline",
  "leave",
  "accept-request",
  "decline-request",
  "block-request",
  "block",
  "unblock",
  "report",
]);

/** Whether the action just submitted left the visitor (the root loader's data) as it was. */
export function actionKeepsVisitor({ formAction, formData, actionResult }: ShouldRevalidateFunctionArgs): boolean {
  if (!formAction) return false;
  const path = new URL(formAction, "http://page.invalid").pathname;
  // /emergency's answers say whether the action had to start a session (features/sos/emergency.server.ts).
  if (path === "/emergency")
    return (
      typeof actionResult === "object" && actionResult !== null && (actionResult as { visitorChanged?: unknown }).visitorChanged === false
    );
  if (path === "/chat") return CHAT_ROOM_INTENTS.has(String(formData?.get("intent") ?? ""));
  return false;
}

/** The root's shouldRevalidate. */
export function rootShouldRevalidate(args: ShouldRevalidateFunctionArgs): boolean {
  return actionKeepsVisitor(args) ? false : args.defaultShouldRevalidate;
}
