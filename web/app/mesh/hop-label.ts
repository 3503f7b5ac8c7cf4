// A hop as a person reads it. Hops travel as "<nickname> · tab-XXXX" (web/app/mesh/node.ts): the tab id tells
// two tabs of one person apart for loop checks, and means nothing on screen (issue 32), so screens show the name.

const TAB_SUFFIX = /\s·\s*tab-[0-9A-Za-z_-]+$/;

export const hopName = (hop: string): string => hop.replace(TAB_SUFFIX, "").trim() || hop;

/** An edge "a→b" or a route as names only. */
export const edgeNames = (edge: string): string => edge.split("→").map(hopName).join(" → ");

export const routeNames = (route: string[]): string => route.map(hopName).join(" → ");
