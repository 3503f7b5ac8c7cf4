// Chat panels that need the network (people here, group info, new group): loaded when first opened.
import { useEffect, useState } from "react";
import { apiRequest, HttpError } from "../../../../core/http";
import { DisappearingControl } from "./disappearing";
import type { RoomMemberInfo, RoomSummary } from "../../../../core/rooms";
import { createGroup } from "./rooms";

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
  return (
    <div className="card chat-panel" role="dialog" aria-label={title}>
      <h2>{title}</h2>
      {room ? (
        <p>
          {room.name}: {room.encrypted ? "private, end-to-end encrypted" : "public area room"}
          {room.memberCount ? `, ${room.memberCount} members` : ""}.
        </p>
      ) : null}
      {peers.length === 0 ? <p>Nobody else is connected to this room right now.</p> : null}
      <ul className="people">
        {peers.map((p) => (
          <li key={p.userId}>
            <span>
              {p.nickname} <small>({p.nodes === 1 ? "1 device" : `${p.nodes} devices`})</small>
            </span>
            <button type="button" className="btn btn-primary" onClick={() => onMessage(p.userId)}>
              Message {p.nickname}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost" onClick={onClose}>
        Close
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
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    apiRequest<{ members: RoomMemberInfo[] }>("GET", `/api/rooms/${encodeURIComponent(room.id)}/members`)
      .then((a) => setMembers(a.members))
      .catch((e) => setError(e instanceof HttpError ? e.errorText : "Members cannot be listed without a connection."));
  }, [room.id]);
  return (
    <div className="card chat-panel" role="dialog" aria-label="Group Info">
      <h2>Group Info</h2>
      <p>
        {room.name}:{" "}
        {room.encrypted
          ? "private and end-to-end encrypted; only members' devices can read it"
          : "a public area room; anyone in this area can read it"}
        .
      </p>
      {error ? <p role="status">{error}</p> : null}
      {members ? (
        <ul className="people" aria-label="Members">
          {members.map((m) => (
            <li key={m.userId}>
              <span>
                {m.nickname}
                {m.userId === me ? " (you)" : ""}{" "}
                <small>
                  {[m.role === "owner" ? "owner" : null, online.has(m.userId) ? "connected now" : null].filter(Boolean).join(", ")}
                </small>
              </span>
              {m.userId !== me && room.kind !== "dm" ? (
                <button type="button" className="btn btn-ghost" onClick={() => onMessage(m.userId)}>
                  Message {m.nickname}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : error ? null : (
        <p>Loading members…</p>
      )}
      {room.encrypted ? <DisappearingControl roomId={room.id} /> : null}
      {room.kind === "dm" && members ? <SafetyNumber peerId={members.find((m) => m.userId !== me)?.userId ?? null} /> : null}
      <button type="button" className="btn btn-ghost" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/**
 * The safety number of a direct chat (docs/protocol.md §5): computed on this device from the identity keys it
 * pinned for both people. The same digits on both phones mean no one sits in between.
 */
function SafetyNumber({ peerId }: { peerId: string | null }) {
  const [digits, setDigits] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!peerId) return;
    import("../../mesh/keys")
      .then((k) => k.safetyNumberWith(peerId))
      .then(setDigits)
      .catch(() => setFailed(true));
  }, [peerId]);
  if (!peerId) return null;
  return (
    <section aria-label="Safety number">
      <h3>Safety number</h3>
      {digits ? (
        <>
          <p className="safety-number">
            <code>{digits}</code>
          </p>
          <p>Compare these digits with the other person's screen, in person or on a call. If they match, your chat is private.</p>
        </>
      ) : (
        <p>
          {failed ? "The safety number needs both people's keys: open the chat once with a connection." : "Computing the safety number…"}
        </p>
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
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="card chat-panel"
      aria-label="New group"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const id = await createGroup(name.trim(), members);
          if (id) onCreated(id);
        } catch (err) {
          setError(err instanceof HttpError ? err.errorText : String(err));
        }
      }}
    >
      <h2>New private group</h2>
      <p>Groups are end-to-end encrypted: only the members' devices can read them.</p>
      <label>
        Group name
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} required />
      </label>
      {people.length ? (
        <fieldset>
          <legend>Invite people who are here now (they join when they accept)</legend>
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
        <p>Nobody else is in this room right now; you can start the group and share it later.</p>
      )}
      {error ? <p role="alert">{error}</p> : null}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
          Create group
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
