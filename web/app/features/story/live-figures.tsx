import type { PublicStats } from "../../../../core/api-types";
import { useT } from "../../i18n";

/** Live counts from the database, never invented (docs/product/README.md): what LinkUp has done so far. */
export function LiveFigures({ stats, label }: { stats: PublicStats; label: string }) {
  const t = useT();
  const figures = [
    { id: "users", text: t("story.fig.users", { count: stats.users }) },
    { id: "rooms", text: t("story.fig.rooms", { count: stats.areaRooms }) },
    { id: "messages", text: t("story.fig.messages", { count: stats.messagesToday }) },
    { id: "sos", text: t("story.fig.sos", { count: stats.emergencyBroadcasts }) },
  ];
  return (
    <section className="card" aria-label={label}>
      <h2>{label}</h2>
      <ul className="m-0 grid list-none gap-[0.35rem] p-0 grid-cols-2 gap-3 phone:grid-cols-1">
        {figures.map((f) => (
          <li key={f.id} className="stat">
            {f.text}
          </li>
        ))}
      </ul>
      <p className="text-sm text-muted">{t("story.fig.note")}</p>
    </section>
  );
}
