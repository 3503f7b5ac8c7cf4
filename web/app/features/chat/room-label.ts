// A room's name in the screen's language. The server names area rooms in English ("Yaba area", core/places.ts)
// because the name is shared by everyone in it; each screen says it in its own words (issue 32).
import type { MessageKey } from "../../../../core/i18n/en";

const AREA = /^(.+) area$/;

export function roomLabel(name: string, kind: string | undefined, t: (key: MessageKey, vars?: Record<string, string>) => string): string {
  const area = kind === "nearby" || kind === undefined ? AREA.exec(name) : null;
  return area ? t("room.areaName", { place: area[1] }) : name;
}
