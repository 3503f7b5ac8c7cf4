// QR codes drawn as SVG on the server (the install link, an authenticator's enrolment). Only the `qrcode` package's
// encoder and SVG renderer, loaded on first use: the package's Node renderers (PNG, terminal) never enter the
// Worker, and an isolate that draws no QR code never evaluates it (docs/decisions/070-light-enough-for-2g.md).
let pieces: Promise<[typeof import("qrcode/lib/core/qrcode"), typeof import("qrcode/lib/renderer/svg-tag")]> | undefined;

/** An SVG QR code of `text`, medium error correction (readable from a cracked or dim screen), black on white. */
export async function qrSvg(text: string, margin: number): Promise<string> {
  pieces ??= Promise.all([import("qrcode/lib/core/qrcode"), import("qrcode/lib/renderer/svg-tag")]);
  const [{ create }, { render }] = await pieces;
  return render(create(text, { errorCorrectionLevel: "M" }), { margin, color: { dark: "#000000ff", light: "#ffffffff" } });
}
