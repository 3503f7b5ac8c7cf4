// Active transfers with their progress (uploading, downloading, complete).
import { formatFileSize } from "../../../../core/files-client";
import { useTransfers } from "./transfers";

const LABEL = { uploading: "Uploading", downloading: "Downloading", complete: "Complete", failed: "Failed" } as const;

export function TransferList({ title }: { title?: string }) {
  const transfers = useTransfers();
  if (transfers.length === 0) return null;
  return (
    <section className="transfers" aria-label={title ?? "Active transfers"}>
      {title ? <h2>{title}</h2> : null}
      <ul>
        {transfers.map((t) => (
          <li key={t.id}>
            <span>
              {t.fileName} · {formatFileSize(t.size)} · {LABEL[t.status]} {t.progress}%
            </span>
            <progress max={100} value={t.progress} aria-label={`${LABEL[t.status]} ${t.fileName}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
