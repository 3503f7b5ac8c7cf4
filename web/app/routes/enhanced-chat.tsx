// /enhanced-chat: the route table names /chat itself "enhanced chat" (docs/product/screens.md), and its mesh chat
// screen already holds every panel (quick replies, actions, smart replies, the overflow menu). One chat, so this
// address leads there, keeping any query (a room to open).
import { redirect } from "react-router";
import type { Route } from "./+types/enhanced-chat";

export function loader({ request }: Route.LoaderArgs) {
  throw redirect(`/chat${new URL(request.url).search}`, 301);
}
