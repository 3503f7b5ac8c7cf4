// The tab's icons travel in the document as data: addresses (about 0.3 KiB each): Chromium asks for a linked icon as
// the document finishes loading, often before the first paint, and on 2G a request then costs the paint a round
// trip in Lighthouse's estimate (docs/decisions/083-the-first-paint-on-2g.md). The files stay in web/public for the
// offline worker and anyone who links them.
import icon from "../../public/icon.svg?raw";
import stealthIcon from "../../public/stealth-icon.svg?raw";

/** An SVG as a data: address, escaping only what a URL or the attribute needs (React would write `'` as 6 bytes). */
export const svgDataUrl = (svg: string) =>
  `data:image/svg+xml,${svg
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(/["#%<>]/g, (c) => encodeURIComponent(c))}`;

export const ICON_HREF = svgDataUrl(icon);
/** Stealth mode's neutral icon (a person's setting). */
export const STEALTH_ICON_HREF = svgDataUrl(stealthIcon);
