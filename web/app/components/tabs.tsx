// Tabs kept in the URL (?tab=…): links that work before JavaScript loads, switched in place once it has.
import { Link, useSearchParams } from "react-router";

export interface Tab<T extends string> {
  id: T;
  label: string;
}

/** The tab the URL names, or the first; and a setter that replaces the history entry. */
export function useQueryTab<T extends string>(tabs: readonly Tab<T>[]): [T, (id: T) => void] {
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => t.id === params.get("tab"))?.id ?? tabs[0].id;
  return [tab, (id) => setParams({ tab: id }, { replace: true })];
}

export function TabLinks<T extends string>({
  tabs,
  current,
  label,
  onSelect,
}: {
  tabs: readonly Tab<T>[];
  current: T;
  label: string;
  onSelect: (id: T) => void;
}) {
  return (
    <div role="tablist" aria-label={label} className="flex flex-wrap items-center gap-2">
      {tabs.map((t) => (
        <Link
          key={t.id}
          role="tab"
          aria-selected={current === t.id}
          to={`?tab=${t.id}`}
          className={`btn ${current === t.id ? "btn-primary" : "btn-ghost"}`}
          onClick={(e) => {
            e.preventDefault();
            onSelect(t.id);
          }}
        >
          {t.label}
        </Link>
      ))}
    </div>
  );
}
