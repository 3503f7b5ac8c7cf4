// The chat's two actions that reveal where the person is: an SOS to the area, and sharing a location in the
// room on screen. Each opens a confirmation first; neither is ever one tap.
import { useCallback, useState } from "react";
import { apiRequest, HttpError } from "../../../../core/http";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import type { MeshNode } from "../../mesh/node";
import { currentPosition } from "./rooms";
import { sendSos } from "./sos";

/** SOS from the chat: the server's pipeline when it answers, the mesh outbox when there is no network. */
export function useChatSos(node: MeshNode | null, areaRoomId: string | null) {
  const toast = useToast();
  const t = useT();
  const [open, setOpen] = useState(false);
  const confirm = useCallback(async () => {
    setOpen(false);
    if (!node || !areaRoomId) {
      toast({ title: t("chat.noAreaTitle"), description: t("chat.noAreaBody"), variant: "destructive" });
      return;
    }
    const pos = await currentPosition(4000);
    try {
      const outcome = await sendSos(node, {
        areaRoom: areaRoomId,
        position: pos ? { latitude: pos.coords.latitude, longitude: pos.coords.longitude } : null,
      });
      if (outcome.via === "server") {
        const { room, push, contacts } = outcome.answer.reached;
        toast({
          title: t("sos.sentTitle"),
          description: t("chat.sosReached", {
            room: t("chat.devices", { count: room }),
            push,
            contacts: t("sos.reachedContacts", { count: contacts }),
          }),
          variant: "success",
        });
      } else toast({ title: t("chat.sosWaiting"), description: t("chat.sosOutbox") });
    } catch (e) {
      toast({
        title: t("chat.sosNotSent"),
        description: t.error(e instanceof HttpError ? e : String(e)),
        variant: "destructive",
      });
    }
  }, [node, areaRoomId, toast, t]);
  return { open, show: () => setOpen(true), cancel: () => setOpen(false), confirm };
}

/**
 * Sharing a location: the confirmation says who will see it and offers the area's name instead of the exact
 * coordinates.
 */
export function useShareLocation(node: MeshNode | null, roomId: string | null, areaName: string | null) {
  const toast = useToast();
  const t = useT();
  const [open, setOpen] = useState(false);
  const share = useCallback(
    async (exact: boolean) => {
      setOpen(false);
      if (!node || !roomId) return;
      if (!exact && areaName) {
        await node.send(roomId, `📍 I am near: ${areaName}`);
        toast({ title: t("chat.areaShared"), variant: "success" });
        return;
      }
      const pos = await currentPosition();
      if (!pos) {
        toast({ title: t("chat.locationUnavailable"), description: t("chat.allowLocation"), variant: "destructive" });
        return;
      }
      const { latitude, longitude } = pos.coords;
      apiRequest("PUT", "/api/me/location", { latitude, longitude }).catch(() => {});
      await node.send(roomId, `📍 My location: ${latitude.toFixed(5)}, ${longitude.toFixed(5)}`, {
        meta: { location: { latitude, longitude } },
      });
      toast({ title: t("chat.locationShared"), variant: "success" });
    },
    [node, roomId, areaName, toast, t],
  );
  return { open, show: () => setOpen(true), cancel: () => setOpen(false), share };
}
