// /community: public area rooms near you and the largest ones, your area's active SOS board, support and
// social-good links. Everything is live from D1; joining a room opens it in the chat.
import { Form, Link } from "react-router";
import { formatKm } from "../../../core/i18n/translate";
import { COMMUNITY_RADIUS_KM } from "../../../core/room-limits";
import type { CommunityRoom } from "../../../core/rooms";
import { joinRoom, loadCommunity } from "../features/community/community.server";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/community";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "cm.metaTitle", "Community — LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  return loadCommunity(context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return joinRoom(request, context);
}

function RoomList({ rooms, label, signedIn }: { rooms: CommunityRoom[]; label: string; signedIn: boolean }) {
  const t = useT();
  return (
    <ul className="m-0 grid list-none gap-[0.35rem] p-0 gap-[0.6rem]" aria-label={label}>
      {rooms.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center gap-2">
          <span>
            <strong>{r.name}</strong>{" "}
            <span className="text-sm text-muted">
              {t("cm.members", { count: r.memberCount })}
              {r.distanceKm !== null
                ? ` · ${r.distanceKm < 1 ? t("cm.yourArea") : t("cm.away", { distance: formatKm(r.distanceKm, t.tag) })}`
                : ""}
            </span>
          </span>
          {r.joined ? (
            <Link to={`/chat?room=${encodeURIComponent(r.id)}`} className="btn btn-ghost" aria-label={t("cm.openRoom", { name: r.name })}>
              {t("cm.open")}
            </Link>
          ) : signedIn ? (
            <Form method="post">
              <input type="hidden" name="roomId" value={r.id} />
              <button type="submit" className="btn btn-primary" aria-label={t("cm.joinRoom", { name: r.name })}>
                {t("cm.join")}
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export default function Community({ loaderData, actionData }: Route.ComponentProps) {
  const { community, sos } = loaderData;
  const error = (actionData as { error?: string } | undefined)?.error;
  const t = useT();
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("cm.title")}</h1>
        <p>{t("cm.intro")}</p>
      </section>
      {error ? (
        <p role="alert" className="text-danger">
          {t.error(error)}
        </p>
      ) : null}
      <section className="card" aria-labelledby="near-title">
        <h2 id="near-title">{t("cm.near")}</h2>
        {!community.signedIn ? (
          <p>
            <Link to="/signup">{t("cm.startChatting")}</Link> {t("cm.startToSee")}
          </p>
        ) : !community.area ? (
          <p>
            {t("cm.shareBefore")} <Link to="/settings">{t("cm.setTown")}</Link> {t("cm.shareAfter")}
          </p>
        ) : (
          <>
            <p className="text-sm text-muted">{t("cm.within", { km: formatKm(COMMUNITY_RADIUS_KM, t.tag), area: community.area.name })}</p>
            <RoomList rooms={community.near} label={t("cm.near")} signedIn />
          </>
        )}
      </section>
      <section className="card" aria-labelledby="largest-title">
        <h2 id="largest-title">{t("cm.largest")}</h2>
        {community.largest.length ? (
          <RoomList rooms={community.largest} label={t("cm.largest")} signedIn={community.signedIn} />
        ) : (
          <p className="text-muted">{t("cm.noRooms")}</p>
        )}
      </section>
      <section className="card" aria-labelledby="sos-title">
        <h2 id="sos-title">{t("cm.sosTitle")}</h2>
        {sos === null ? (
          <p className="text-muted">{t("cm.sosStart")}</p>
        ) : sos.length === 0 ? (
          <p>{t("cm.sosNone")}</p>
        ) : (
          <ul className="m-0 grid list-none gap-[0.35rem] p-0 gap-[0.6rem]" aria-label={t("cm.sosList")}>
            {sos.map((s) => (
              <li key={s.id} className="card">
                <strong>
                  {s.emergencyType}: {s.senderName}
                </strong>
                <p>{s.message}</p>
                <p className="text-sm text-muted">
                  {s.locationText ?? ""}
                  {s.distanceMetres !== null ? ` · ${t("cm.away", { distance: formatKm(s.distanceMetres / 1000, t.tag) })}` : ""}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Link to="/emergency">{t("cm.emergency")}</Link>
      </section>
      <section className="card" aria-labelledby="help-links">
        <h2 id="help-links">{t("cm.help")}</h2>
        <div className="flex flex-wrap items-center gap-2">
          <Link to="/support" className="btn btn-ghost">
            {t("cm.aiSupport")}
          </Link>
          <Link to="/customer-service" className="btn btn-ghost">
            {t("cm.customerService")}
          </Link>
          <Link to="/social-good" className="btn btn-ghost">
            {t("cm.socialGood")}
          </Link>
        </div>
      </section>
    </div>
  );
}
