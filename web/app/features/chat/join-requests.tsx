// Someone waits to join a private group without an invitation a member's device signed (docs/decisions/
// 081-no-silent-join.md): the chat's line, in the reader's language, and the "Let in" button an owner's or
// admin's device shows with it. Nothing is handed to them before the press (web/app/mesh/sealing.ts).
import { useState } from "react";
import { useT } from "../../i18n";
import { currentMeshNode } from "../../mesh/current";

const isJoinMeta = (meta: Record<string, unknown> | undefined) => meta?.event === "join-waiting" && typeof meta.userId === "string";

/** The line the sealing layer leaves for someone waiting to join; null for any other message. */
export function useJoinLine(): (meta: Record<string, unknown> | undefined) => string | null {
  const t = useT();
  return (meta) => {
    if (!isJoinMeta(meta)) return null;
    const name = typeof meta?.name === "string" ? meta.name : t("grp.join.someone");
    if (meta?.admitted === true) return t("grp.join.admitted", { name });
    return meta?.canLetIn === true ? t("grp.join.wants", { name }) : t("grp.join.waiting", { name });
  };
}

/** "Let in" under the line, for an owner or admin, until pressed. */
export function LetIn({ room, meta }: { room: string; meta: Record<string, unknown> | undefined }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!isJoinMeta(meta) || meta?.canLetIn !== true || meta.admitted === true) return null;
  const name = typeof meta.name === "string" ? meta.name : t("grp.join.someone");
  return (
    <>
      <button
        type="button"
        className="btn btn-primary justify-self-start"
        aria-label={t("grp.join.letInName", { name })}
        disabled={busy}
        onClick={() => {
          const node = currentMeshNode();
          if (!node) return setFailed(true);
          setBusy(true);
          setFailed(false);
          node
            .letIn(room, meta.userId as string)
            .catch((e) => {
              console.warn("groups: letting someone in", e);
              setFailed(true);
            })
            .finally(() => setBusy(false));
        }}
      >
        {t("grp.join.letIn")}
      </button>
      {failed ? (
        <span className="text-xs text-danger" role="alert">
          {t("grp.join.failed")}
        </span>
      ) : null}
    </>
  );
}
