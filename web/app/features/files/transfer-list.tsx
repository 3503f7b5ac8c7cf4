// Active transfers with their progress (uploading, downloading, complete).
import { formatFileSize } from "../../../../core/files-client";
import { useT } from "../../i18n";
import { useTransfers } from "./transfers";

const LABEL = {
  uploading: "files.uploading",
  downloading: "files.downloading",
  complete: "files.complete",
  failed: "files.failed",
} as const;

export function TransferList({ title }: { title?: string }) {
  const transfers = useTransfers();
  const t = useT();
  if (transfers.length === 0) return null;
  return (
    <section
      className="[&_li]:grid [&_li]:gap-[0.15rem] [&_li]:text-sm [&_li]:wrap-anywhere [&_progress]:w-full [&_ul]:m-0 [&_ul]:list-none [&_ul]:px-2 [&_ul]:py-0"
      aria-label={title ?? t("files.activeTransfers")}
    >
      {title ? <h2>{title}</h2> : null}
      <ul>
        {transfers.map((x) => (
          <li key={x.id}>
            <span>
              {x.fileName} · {formatFileSize(x.size)} · {t(LABEL[x.status])} {x.progress}%
            </span>
            <progress max={100} value={x.progress} aria-label={`${t(LABEL[x.status])} ${x.fileName}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
