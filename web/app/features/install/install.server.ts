// Loader of /download and /qr-install: the install link, its QR (drawn by the Worker) and the phone channels.
import type { appContext, AppContext } from "../../context";
import { apiGet } from "../../lib/api.server";

type Ctx = { get: (key: typeof appContext) => AppContext };

export interface InstallData {
  installUrl: string;
  ussdCode: string | null;
  whatsappNumber: string | null;
  qrSvg: string;
}

export async function loadInstall(context: Ctx): Promise<InstallData> {
  return (await apiGet<InstallData>(context, "/api/install")) as InstallData;
}
