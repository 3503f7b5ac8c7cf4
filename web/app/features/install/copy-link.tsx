import { useEffect, useState } from "react";
import { useT } from "../../i18n";

/** Copies the install link; shown only once JavaScript runs (the link itself is on the page for everyone). */
export function CopyLinkButton({ url }: { url: string }) {
  const t = useT();
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  useEffect(() => setReady(Boolean(navigator.clipboard)), []);
  if (!ready) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() =>
          navigator.clipboard.writeText(url).then(
            () => setCopied("yes"),
            () => setCopied("no"),
          )
        }
      >
        {t("qr.copy")}
      </button>
      <span role="status" className="text-sm">
        {copied === "yes" ? t("qr.copied") : copied === "no" ? t("qr.copyFailed") : ""}
      </span>
    </>
  );
}
