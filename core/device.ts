/** Mobile devices by user agent (docs/product/screens.md); screens also switch at 768 px wide with CSS. */
export function isMobileUserAgent(ua: string | null | undefined): boolean {
  return /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(ua ?? "");
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

/** A short, human name for a browser and system from its user agent ("Chrome on Android"), for the sessions list. */
export function describeDevice(ua: string | null | undefined): string {
  const s = ua ?? "";
  if (!s) return "Unknown device";
  const browser =
    [
      [/Edg\//, "Edge"],
      [/OPR\/|Opera/, "Opera"],
      [/SamsungBrowser/, "Samsung Internet"],
      [/Firefox\//, "Firefox"],
      [/Chrome\/|CriOS\//, "Chrome"],
      [/Safari\//, "Safari"],
    ].find(([re]) => (re as RegExp).test(s))?.[1] ?? "A browser";
  const system =
    [
      [/Android/, "Android"],
      [/iPhone|iPad|iPod/, "iOS"],
      [/Windows/, "Windows"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/CrOS/, "ChromeOS"],
      [/Linux/, "Linux"],
    ].find(([re]) => (re as RegExp).test(s))?.[1] ?? null;
  return system ? `${browser} on ${system}` : (browser as string);
}
