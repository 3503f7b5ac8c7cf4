// The two pieces of the `qrcode` package we use: its encoder and its SVG renderer. Importing them directly keeps
// the Node-only renderers (PNG, terminal) out of the Worker bundle.
declare module "qrcode/lib/core/qrcode" {
  import type { QRCode, QRCodeOptions } from "qrcode";
  export function create(text: string, options?: QRCodeOptions): QRCode;
}
declare module "qrcode/lib/renderer/svg-tag" {
  import type { QRCode, QRCodeToStringOptions } from "qrcode";
  export function render(qr: QRCode, options?: QRCodeToStringOptions): string;
}
