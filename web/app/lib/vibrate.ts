// Vibration for an SOS. Before the person has touched the page the browser blocks it (and says so in the
// console as an intervention), so it is skipped then; the beep and the banner still say it.
export function vibrate(pattern: number[]): void {
  try {
    const touched = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ?? true;
    if (touched) navigator.vibrate?.(pattern);
  } catch {}
}
