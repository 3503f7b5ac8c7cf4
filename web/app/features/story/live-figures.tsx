import type { PublicStats } from "../../../../core/api-types";

const n = (v: number) => v.toLocaleString("en-NG");

/** Live counts from the database, never invented (spec README): what LinkUp has done so far. */
export function LiveFigures({ stats, label }: { stats: PublicStats; label: string }) {
  const figures = [
    { value: stats.users, text: stats.users === 1 ? "person on LinkUp" : "people on LinkUp" },
    { value: stats.areaRooms, text: stats.areaRooms === 1 ? "area room" : "area rooms" },
    { value: stats.messagesToday, text: "messages in the last 24 hours" },
    { value: stats.emergencyBroadcasts, text: stats.emergencyBroadcasts === 1 ? "SOS alert sent" : "SOS alerts sent" },
  ];
  return (
    <section className="card" aria-label={label}>
      <h2>{label}</h2>
      <ul className="list-plain grid2">
        {figures.map((f) => (
          <li key={f.text} className="stat">
            <strong>{n(f.value)}</strong> {f.text}
          </li>
        ))}
      </ul>
      <p className="small muted">Counted live from LinkUp's database.</p>
    </section>
  );
}
