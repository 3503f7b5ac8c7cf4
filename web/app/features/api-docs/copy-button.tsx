import { useEffect, useState } from "react";
import { useT } from "../../i18n";

/** Copies a text to the clipboard; shown only once JavaScript runs and the browser has a clipboard. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const t = useT();
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => setReady(Boolean(navigator.clipboard)), []);
  if (!ready) return null;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setCopied("yes"),
            () => setCopied("no"),
          )
        }
      >
        {label}
      </button>
      <span role="status" className="text-sm">
        {copied === "yes" ? t("ad.copied") : copied === "no" ? t("ad.copyFailed") : ""}
      </span>
    </span>
  );
}
