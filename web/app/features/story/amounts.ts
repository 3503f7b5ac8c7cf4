// Pledged and target amounts, spelled the way each language reads large numbers ("890 million", "Miliyan 890").
// A goal, never a result (docs/product/README.md): the pages say so next to it.
export const IMPACT_GOAL_NGN = 890_000_000;

export function bigAmount(amount: number, tag: string): string {
  return new Intl.NumberFormat([`${tag}-NG`, tag, "en-NG"], { notation: "compact", compactDisplay: "long" }).format(amount);
}
