// What the chat's send button does with the text (docs/product/screens.md): the panic code wipes this device instead of
// being sent (docs/decisions/039-safety-marks-and-the-panic-code-anywhere.md); '@ai …' asks the assistant, after the person agreed in a
// private chat that the question leaves the device; anything else goes to the room through the mesh node.
import { useCallback, useState } from "react";
import { AI_PREFIX } from "../../../../core/ai-command";
import { useT } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { isPanicCode, panicWipe } from "../security/panic";
import { ask, helpMessage } from "./assistant";
import { assistantContext, hasPrivateAiConsent, isPrivateRoomId, rememberPrivateAiConsent } from "./private-assistant";
import type { Offer } from "../../i18n/refusal";

export function useSend(node: MeshNode | null, roomId: string | null, meId: string, supportPhone: string) {
  const t = useT();
  const [thinking, setThinking] = useState(false);
  /** An '@ai' question from a private chat, held until the person agrees that it leaves the device. */
  const [heldQuestion, setHeldQuestion] = useState<string | null>(null);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [aiCommandsToday, setAiCommandsToday] = useState<number | undefined>(undefined);

  const send = useCallback(
    async (raw: string) => {
      const text = raw.trim();
      if (!text || !node || !roomId) return false;
      if (await isPanicCode(meId, text)) {
        await panicWipe(meId);
        return false;
      }
      if (!raw.trimStart().startsWith(AI_PREFIX)) {
        await node.send(roomId, text);
        return true;
      }
      if (isPrivateRoomId(roomId) && !hasPrivateAiConsent(meId)) {
        setHeldQuestion(raw);
        return false;
      }
      await node.addLocal(roomId, text);
      setThinking(true);
      const answer = await ask(text.slice(AI_PREFIX.length).trim(), assistantContext(roomId, node.list(roomId)));
      setThinking(false);
      if (answer.kind === "reply") {
        await node.addLocal(roomId, answer.message, { isAI: true });
        setAiCommandsToday(answer.aiCommandsToday);
      } else if (answer.kind === "offer") {
        await node.addLocal(roomId, t.error(answer.error), { isAI: true, meta: { offer: answer.code } });
        setOffer({ error: answer.error, code: answer.code });
      } else await node.addLocal(roomId, helpMessage(t, supportPhone), { isAI: true });
      return true;
    },
    [node, roomId, supportPhone, meId, t],
  );

  return {
    send,
    thinking,
    offer,
    closeOffer: () => setOffer(null),
    aiCommandsToday,
    /** Whether a private chat's question waits for the person's consent. */
    askingConsent: heldQuestion !== null,
    consent: () => {
      const question = heldQuestion;
      rememberPrivateAiConsent(meId);
      setHeldQuestion(null);
      if (question !== null) void send(question);
    },
    cancelConsent: () => setHeldQuestion(null),
  };
}
