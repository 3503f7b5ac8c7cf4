// The security lines the sealing layer leaves in a chat (web/app/mesh/sealing.ts), worded from their meta in the
// reader's language. The stored text is the English fallback; the meta carries the event, the kind and whose keys
// (self, or a name), so every language builds its own sentence (no English possessive to fill in).
import type { MessageKey } from "../../../../core/i18n/en";
import type { Vars } from "../../../../core/i18n/translate";

type Translate = (key: MessageKey, vars?: Vars) => string;

/** The events whose lines show under "Security" rather than a sender's name (features/chat/message-list.tsx). */
export const SECURITY_EVENTS: ReadonlySet<unknown> = new Set([
  "device-change",
  "device-removed",
  "key-refused",
  "join-waiting",
  "epoch-refused",
  "member-joined",
  "member-gone",
]);

/** What the server offered about a group's members that was refused (meta kind "group-…"). */
const GROUP_REFUSED: Record<string, MessageKey> = {
  "group-rolled-back": "sec.notice.groupRolledBack",
  "group-unbridged": "sec.notice.groupUnbridged",
  "group-forked": "sec.notice.groupListForked",
  "group-no-right": "sec.notice.groupNoRight",
  "group-bad-signature": "sec.notice.groupUnsigned",
  "group-broken-chain": "sec.notice.groupUnsigned",
};

/** A device list of this account ("…Yours") or of a contact that the server offered and this device refused. */
const LIST_REFUSED: Record<string, [yours: MessageKey, theirs: MessageKey]> = {
  "rolled-back": ["sec.notice.listRolledBackYours", "sec.notice.listRolledBack"],
  "relisted-revoked": ["sec.notice.relistedRevokedYours", "sec.notice.relistedRevoked"],
  "unsigned-list": ["sec.notice.listUnsignedYours", "sec.notice.listUnsigned"],
};

const nameOf = (meta: Record<string, unknown>) => (typeof meta.name === "string" && meta.name ? meta.name : null);

/** The line for a security notice's meta, or null when the meta is not one (the stored text is shown then). */
export function securityLine(t: Translate, meta: Record<string, unknown> | undefined): string | null {
  if (!meta) return null;
  const name = nameOf(meta);
  switch (meta.event) {
    case "epoch-refused": {
      // A group message refused for the membership epoch it names (docs/protocol.md §6a).
      const who = name ?? t("msg.someone");
      return meta.kind === "withheld-epoch"
        ? t("sec.notice.groupWithheld", { who })
        : meta.kind === "stale-epoch"
          ? t("sec.notice.groupStale", { who })
          : t("sec.notice.groupForked", { who });
    }
    case "device-change":
    case "device-removed": {
      // Sentence-initial: "Your account" / a name / "This contact", as the catalogs write them.
      const who = meta.self === true ? t("sec.notice.you") : (name ?? t("sec.notice.contact"));
      if (meta.event === "device-removed") return t("sec.notice.deviceRemoved", { who });
      return meta.kind === "new-device" ? t("sec.notice.newDevice", { who }) : t("sec.notice.keyChanged", { who });
    }
    case "key-refused": {
      const kind = typeof meta.kind === "string" ? meta.kind : "";
      if (kind === "group-relisted-removed") return t("sec.notice.groupRelisted", { who: name ?? t("sec.notice.someone") });
      const group = GROUP_REFUSED[kind];
      if (group) return t(group);
      const list = LIST_REFUSED[kind];
      if (!list) return null;
      return meta.self === true ? t(list[0]) : t(list[1], { who: name ?? t("sec.notice.thisContact") });
    }
    case "member-joined":
    case "member-gone": {
      // A group's signed membership gained or lost someone (docs/protocol.md §6a).
      const who = name ?? t("msg.someone");
      return meta.event === "member-joined" ? t("sec.notice.memberJoined", { who }) : t("sec.notice.memberGone", { who });
    }
    default:
      return null;
  }
}
