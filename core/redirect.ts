// Where a form may send the browser back to: only a path on this site. Browsers read `//host`, `/\host` and
// `\\host` as other hosts, and ignore tabs and newlines inside URLs, so all of those fall back.

/** `value` when it is a same-site relative path (`/chat?x=1#y`), else `fallback`. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//")) return fallback;
  // Backslashes count as slashes in browsers; control characters (tab, newline, NUL…) are stripped by them.
  if (value.includes("\\") || [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return fallback;
  // Whatever parses to another origin (a scheme smuggled in by encoding tricks) falls back too.
  const base = "https://linkup.invalid";
  try {
    if (new URL(value, base).origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return value;
}
