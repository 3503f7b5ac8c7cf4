// Chat panels that need the network (people here, group info, new group): loaded when first opened.
import { useEffect, useState } from "react";
import { apiRequest, HttpError } from "../../../../core/http";
import { DisappearingControl } from "./disappearing-control";
import type { RoomMemberInfo, RoomSummary } from "../../../../core/rooms";
import { useT } from "../../i18n";
import { createGroup } from "./rooms";
import { useSafetyNumber, VerifyToggle } from "../security/safety-numbers";
import { type Refusal, refusalOf } from "../../i18n/refusal";

export function PeoplePanel({
  title,
  room,
  peers,
  onMessage,
  onClose,
}: {
  title: string;
  room: RoomSummary | undefined;
  peers: { userId: string; nickname: string; nodes: number }[];
  onMessage: (userId: string) => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <div className="card chat-panel" role="dialog" aria-label={title}>
      <h2>{title}</h2>
      {room ? (
        <p>
          {room.name}: {room.encrypted ? t("panel.private") : t("panel.public")}
          {room.memberCount ? t("panel.members", { count: room.memberCount }) : ""}.
        </p>
      ) : null}
      {peers.length === 0 ? <p>{t("panel.nobody")}</p> : null}
      <ul className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2">
        {peers.map((p) => (
          <li key={p.userId}>
            <span>
              {p.nickname} <small>({t("panel.devices", { count: p.nodes })})</small>
            </span>
            <button type="button" className="btn btn-primary" onClick={() => onMessage(p.userId)}>
              {t("msg.messageName", { name: p.nickname })}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost" onClick={onClose}>
        {t("panel.close")}
      </button>
    </div>
  );
}

/** Group Info: the room's members from the server (private rooms), who is connected now, and what kind of room it is. */
export function GroupInfo({
  room,
  me,
  online,
  onMessage,
  onClose,
}: {
  room: RoomSummary;
  me: string;
  online: Set<string>;
  onMessage: (userId: string) => void;
  onClose: () => void;
}) {
  const [members, setMembers] = useState<RoomMemberInfo[] | null>(null);
  const [error, setError] = useState<Refusal | null>(null);
  const [loads, setLoads] = useState(0);
  const t = useT();
  useEffect(() => {
    void loads;
    apiRequest<{ members: RoomMemberInfo[] }>("GET", `/api/rooms/${encodeURIComponent(room.id)}/members`)
      .then((a) => setMembers(a.members))
      .catch((e) => setError((e instanceof HttpError && refusalOf(e.json)) || t("panel.noConnection")));
  }, [room.id, t, loads]);
  // The owner of a private group (not a team room: decision 067) removes someone; the owner's device signs the
  // removal into the group's membership epochs, so no member's device hands them a key again (decision 073).
  const owner = room.kind === "group" && !room.team && members?.some((m) => m.userId === me && m.role === "owner");
  const remove = async (userId: string) => {
    try {
      await apiRequest("POST", `/api/rooms/${encodeURIComponent(room.id)}/members/${encodeURIComponent(userId)}/remove`);
      await import("../../mesh/keys")
        .then(async (keys) => (await keys.groupMembership()).change(room.id, { kind: "remove", userId }))
        .catch((e) => console.warn("groups: signing the removal (the next message signs it)", e));
      setLoads((n) => n + 1);
    } catch (e) {
      setError((e instanceof HttpError && refusalOf(e.json)) || t("panel.noConnection"));
    }
  };
  return (
    <div className="card chat-panel" role="dialog" aria-label={t("panel.groupInfo")}>
      <h2>{t("panel.groupInfo")}</h2>
      <p>
        {room.name}: {room.encrypted ? t("panel.privateLong") : t("panel.publicLong")}.
      </p>
      {error ? <p role="status">{t.error(error)}</p> : null}
      {members ? (
        <ul
          className="grid list-none gap-[0.4rem] p-0 [&_li]:flex [&_li]:items-center [&_li]:justify-between [&_li]:gap-2"
          aria-label={t("panel.membersList")}
        >
          {members.map((m) => (
            <li key={m.userId}>
              <span>
                {m.nickname}
                {m.userId === me ? t("panel.you") : ""}{" "}
                <small>
                  {[m.role === "owner" ? t("panel.owner") : null, online.has(m.userId) ? t("panel.connectedNow") : null]
                    .filter(Boolean)
                    .join(", ")}
                </small>
              </span>
              {m.userId !== me && room.kind !== "dm" ? (
                <button type="button" className="btn btn-ghost" onClick={() => onMessage(m.userId)}>
                  {t("msg.messageName", { name: m.nickname })}
                </button>
              ) : null}
              {owner && m.userId !== me ? (
                <button type="button" className="btn btn-ghost" onClick={() => void remove(m.userId)}>
                  {t("panel.removeMember", { name: m.nickname })}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : error ? null : (
        <p>{t("panel.loading")}</p>
      )}
      {room.encrypted ? <DisappearingControl roomId={room.id} team={Boolean(room.team)} /> : null}
      {room.kind === "dm" && members ? <SafetyNumber peerId={members.find((m) => m.userId !== me)?.userId ?? null} /> : null}
      <button type="button" className="btn btn-ghost" onClick={onClose}>
        {t("panel.close")}
      </button>
    </div>
  );
}

/**
 * The safety number of a direct chat (docs/protocol.md §5): computed on this device from the two account keys
 * (docs/decisions/063-one-identity-per-person.md). The same digits on both phones mean no one sits in between.
 */
function SafetyNumber({ peerId }: { peerId: string | null }) {
  const { digits, failed, state, setVerified, noOneTimePrekey } = useSafetyNumber(peerId);
  const t = useT();
  if (!peerId) return null;
  return (
    <section aria-label={t("safety.one")}>
      <h3>{t("safety.one")}</h3>
      {digits ? (
        <>
          <p className="[&_code]:wrap-anywhere [&_code]:[word-spacing:0.2em]">
            <code>{digits}</code>
          </p>
          <p>{t("safety.compareHow")}</p>
          <VerifyToggle state={state} onChange={(on) => void setVerified(on)} />
          {noOneTimePrekey ? <p className="text-muted text-sm">{t("safety.noOneTimePrekey")}</p> : null}
        </>
      ) : (
        <p>{failed ? t("safety.unavailable") : t("safety.computing")}</p>
      )}
    </section>
  );
}

export function NewGroupPanel({
  people,
  onCreated,
  onClose,
}: {
  people: { userId: string; nickname: string }[];
  onCreated: (id: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState("");
  const [members, setMembers] = useState<string[]>([]);
  const [error, setError] = useState<Refusal | null>(null);
  const t = useT();
  return (
    <form
      className="card chat-panel"
      aria-label={t("panel.newGroup")}
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const id = await createGroup(name.trim(), members);
          if (id) onCreated(id);
        } catch (err) {
          setError(err instanceof HttpError ? (refusalOf(err.json) ?? err.errorText) : String(err));
        }
      }}
    >
      <h2>{t("panel.newGroupTitle")}</h2>
      <p>{t("panel.newGroupBody")}</p>
      <label>
        {t("panel.groupName")}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} required />
      </label>
      {people.length ? (
        <fieldset>
          <legend>{t("panel.invitePeople")}</legend>
          {people.map((p) => (
            <label key={p.userId}>
              <input
                type="checkbox"
                checked={members.includes(p.userId)}
                onChange={(e) => setMembers((list) => (e.target.checked ? [...list, p.userId] : list.filter((id) => id !== p.userId)))}
              />{" "}
              {p.nickname}
            </label>
          ))}
        </fieldset>
      ) : (
        <p>{t("panel.nobodyGroup")}</p>
      )}
      {error ? <p role="alert">{t.error(error)}</p> : null}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
          {t("panel.createGroup")}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
