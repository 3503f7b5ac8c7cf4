import { Hono } from "hono";
import type { AppBindings } from "../../env";
import { installInfo, qrSvg } from "../../install";

export const install = new Hono<AppBindings>()
  .get("/", async (c) => {
    const info = installInfo(c.env, c.req.url);
    return c.json({ ...info, qrSvg: await qrSvg(info.installUrl) });
  })
  // The same QR as a file, for the page's "Download QR" button.
  .get("/qr.svg", async (c) => {
    const { installUrl } = installInfo(c.env, c.req.url);
    return c.body(await qrSvg(installUrl), 200, {
      "content-type": "image/svg+xml; charset=utf-8",
      "content-disposition": 'attachment; filename="linkup-install-qr.svg"',
    });
  });
