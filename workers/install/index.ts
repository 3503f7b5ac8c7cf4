// Installing LinkUp (/download, /qr-install): the install link, its QR code drawn on the server, and the ways in
// for phones that cannot install a web app (the USSD code and the WhatsApp number from configuration).
import { ussdCode } from "../contact-config";
import type { AppEnv } from "../env";
import { qrSvg as drawQrSvg } from "../services/qr-svg";

export const INSTALL_PATH = "/download";

export interface InstallInfo {
  installUrl: string;
  ussdCode: string | null;
  whatsappNumber: string | null;
}

/** The install link is on the host the visitor reached, so a QR shown by any deployment opens that deployment. */
export function installInfo(env: AppEnv, requestUrl: string): InstallInfo {
  const whatsapp = env.TWILIO_WHATSAPP_FROM?.replace(/^whatsapp:/, "").trim();
  return {
    installUrl: new URL(INSTALL_PATH, requestUrl).toString(),
    ussdCode: ussdCode(env),
    whatsappNumber: whatsapp || null,
  };
}

/** An SVG QR code of `text` (medium error correction: readable from a cracked or dim screen). */
export function qrSvg(text: string): Promise<string> {
  return drawQrSvg(text, 2);
}
