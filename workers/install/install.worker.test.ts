// The install link and its QR code as /download and /qr-install get them from the API.
import { describe, expect, it } from "vitest";
import { call, ORIGIN } from "../../tests/workers/helpers";

describe("install API", () => {
  it("gives the install link on this host, its QR as SVG and the USSD code from configuration", async () => {
    const res = await call("/api/install");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { installUrl: string; ussdCode: string | null; whatsappNumber: string | null; qrSvg: string };
    expect(body.installUrl).toBe(`${ORIGIN}/download`);
    expect(body.ussdCode).toBe("*384*1234#");
    expect(body.qrSvg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    expect(body.qrSvg).toContain("<path");
  });

  it("serves the same QR as a downloadable SVG file", async () => {
    const [json, file] = await Promise.all([call("/api/install"), call("/api/install/qr.svg")]);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("image/svg+xml");
    expect(file.headers.get("content-disposition")).toContain('attachment; filename="linkup-install-qr.svg"');
    expect(await file.text()).toBe(((await json.json()) as { qrSvg: string }).qrSvg);
  });
});
