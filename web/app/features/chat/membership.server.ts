// The /chat action's membership forms (membership.tsx): each calls one room API and goes back to the chat.
import { data, redirect } from "react-router";
import { apiSend } from "../../lib/api.server";
import { refusalOr } from "../../i18n/refusal";

type Ctx = Parameters<typeof apiSend>[0];

const chatOf = (roomId?: string) => (roomId ? `/chat?room=${encodeURIComponent(roomId)}` : "/chat");

export async function membershipAction(context: Ctx, intent: string, form: FormData) {
  const roomId = String(form.get("roomId") ?? "");
  const userId = String(form.get("userId") ?? "");
  const room = encodeURIComponent(roomId);
  const call = {
    accept: () => apiSend(context, "POST", `/api/rooms/invitations/${room}/accept`),
    decline: () => apiSend(context, "POST", `/api/rooms/invitations/${room}/decline`),
    leave: () => apiSend(context, "POST", `/api/rooms/${room}/leave`),
    // Message requests (docs/decisions/050-consent-before-a-stranger-reaches-you.md); blocking declines too.
    "accept-request": () => apiSend(context, "POST", `/api/rooms/requests/${room}/accept`),
    "decline-request": () => apiSend(context, "POST", `/api/rooms/requests/${room}/decline`),
    "block-request": async () => {
      const declined = await apiSend(context, "POST", `/api/rooms/requests/${room}/decline`);
      return declined.ok ? apiSend(context, "POST", "/api/blocks", { userId }) : declined;
    },
    block: () => apiSend(context, "POST", "/api/blocks", { userId }),
    unblock: () => apiSend(context, "DELETE", `/api/blocks/${encodeURIComponent(userId)}`),
    report: () =>
      apiSend(context, "POST", "/api/reports", {
        userId,
        roomId,
        reason: String(form.get("reason") ?? ""),
        details: String(form.get("details") ?? ""),
      }),
  }[intent];
  if (!call) return data({ error: "Unknown action" as string | null }, { status: 400 });
  const res = await call();
  if (!res.ok) return data({ error: refusalOr(res.json, "error.somethingWrong") }, { status: res.status });
  // Reported: the same chat, saying the report was sent.
  if (intent === "report") throw redirect(`${chatOf(roomId)}&reported=1`);
  // Accepted: into the group. Left or declined: back to the chat. Blocked or unblocked: the same direct chat.
  const staysInChat = ["accept", "accept-request", "block", "unblock"].includes(intent);
  throw redirect(staysInChat ? chatOf(roomId) : chatOf());
}
