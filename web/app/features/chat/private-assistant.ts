// What the assistant may see from a chat (docs/protocol.md §1). In a private room (direct chat or group)
// only the words the person typed after '@ai ' leave the device, and only after they were told so once;
// area rooms are public, so their last lines may go along as context.
import { isPrivateRoomId } from "../../../../core/private-rooms";
import type { StoredMessage } from "../../mesh/db";

export { isPrivateRoomId } from "../../../../core/private-rooms";

/** Lines of the room the assistant gets as context with a question: none from a private room. */
export function assistantContext(room: string, messages: Pick<StoredMessage, "text">[]): string[] {
  if (isPrivateRoomId(room)) return [];
  return messages
    .filter((m) => m.text)
    .slice(-5)
    .map((m) => m.text ?? "");
}

const consentKey = (userId: string) => `linkup-ai-private-ok:${userId}`;

/** Whether this person already accepted that '@ai' text from a private chat goes to the assistant. */
export function hasPrivateAiConsent(userId: string): boolean {
  try {
    return localStorage.getItem(consentKey(userId)) === "yes";
  } catch {
    return false;
  }
}

export function rememberPrivateAiConsent(userId: string): void {
  try {
    localStorage.setItem(consentKey(userId), "yes");
  } catch {
    // Storage refused (private mode): the person is asked again next time.
  }
}
