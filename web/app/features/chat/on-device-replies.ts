// Smart replies for private rooms, computed on this device: a private chat's words never go to the server's
// assistant (issue 20, docs/protocol.md §1). A few plain rules on the last message received (core/smart-reply-rules.ts);
// no model. The replies are offered in the person's language.
import type { SmartReply } from "../../../../core/ai-schemas";
import type { MessageKey } from "../../../../core/i18n/en";
import { replyKeysFor } from "../../../../core/smart-reply-rules";

/** Up to three short replies to a received message; [] for an empty message. */
export function onDeviceReplies(message: string, t: (key: MessageKey) => string): SmartReply[] {
  return replyKeysFor(message).map((reply, i) => ({ id: `local-${i}`, text: t(reply) }));
}
