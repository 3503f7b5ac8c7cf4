import { useEffect, useState } from "react";

/** Copies the install link; shown only once JavaScript runs (the link itself is on the page for everyone). */
export function CopyLinkButton({ url }: { url: string }) {
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
        Copy URL
      </button>
      <span role="status" className="small">
        {copied === "yes" ? "Link copied" : copied === "no" ? "Could not copy: select the link above instead" : ""}
      </span>
    </>
  );
}
