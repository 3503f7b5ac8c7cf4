// The built Worker behind workerd's local proxy, as browsers and benchmarks meet it: refused requests leave
// the connection usable, and every answer carries the security headers.
import { acceptCookies, expect, test } from "./fixtures";

test("requests refused before their body is read leave the connection usable for the next one", async ({ baseURL }) => {
  const url = baseURL!;
  const json = { "content-type": "application/json" };
  // Refusals that answer before reading: a foreign Origin (403), no session (401), too large (413, declared
  // and streamed), an unsigned WhatsApp webhook (403).
  const refusals: [number, () => Promise<Response>][] = [
    [
      403,
      () =>
        fetch(`${url}/api/auth/anonymous`, {
          method: "POST",
          headers: { ...json, origin: "https://evil.example" },
          body: "x".repeat(20_000),
        }),
    ],
    [401, () => fetch(`${url}/api/ai/voice`, { method: "POST", headers: { "content-type": "audio/webm" }, body: new Uint8Array(100_000) })],
    [413, () => fetch(`${url}/api/me`, { method: "PATCH", headers: json, body: "x".repeat(3_000_000) })],
    [
      413,
      () =>
        fetch(`${url}/ussd`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new Blob([new Uint8Array(20_000)]).stream(),
          duplex: "half",
        } as RequestInit),
    ],
    [403, () => fetch(`${url}/webhooks/whatsapp`, { method: "POST", body: `Body=${"x".repeat(10_000)}` })],
  ];
  const failures: string[] = [];
  for (let i = 0; i < 40; i++) {
    const [status, refuse] = refusals[i % refusals.length];
    const refused = await refuse();
    expect(refused.status).toBe(status);
    await refused.text();
    // A POST is never retried by the proxy: a dropped connection shows here as an error or a 5xx.
    try {
      const next = await fetch(`${url}/api/auth/anonymous`, { method: "POST" });
      await next.text();
      if (next.status !== 201) failures.push(`after ${status}: ${next.status}`);
    } catch (e) {
      failures.push(`after ${status}: ${(e as Error).cause ?? e}`);
    }
  }
  expect(failures).toEqual([]);
});

test("pages carry the security headers, run their scripts under the nonce policy, and assets are immutable", async ({
  page,
  context,
  baseURL,
}) => {
  await acceptCookies(context, baseURL!);
  // The fixture fails the test on any console error, which is how Chromium reports a CSP violation.
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  for (const path of ["/", "/chat", "/settings", "/emergency", "/pricing", "/features", "/whatsapp-demo", "/signup-verification"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    const headers = res!.headers();
    expect(headers["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9_-]+'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("geolocation=(self)");
    // React Router's inline scripts carry this answer's nonce, so the page hydrates.
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"])![1];
    expect(await page.locator("script:not([src])").count()).toBeGreaterThan(0);
    const inlineNonces = await page.locator("script:not([src])").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
    expect(inlineNonces.every((n) => n === nonce)).toBe(true);
  }
  expect(violations).toEqual([]);

  const script = await page.locator("script[type=module][src], link[rel=modulepreload]").first();
  const src = (await script.getAttribute("src")) ?? (await script.getAttribute("href"));
  expect(src).toMatch(/^\/assets\//);
  const asset = await page.request.get(src!);
  expect(asset.status()).toBe(200);
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
});

test("a page paints with its HTML and stylesheet alone, then starts its scripts and hydrates", async ({ page }) => {
  for (const path of ["/", "/emergency"]) {
    const html = await (await page.request.get(path)).text();
    // Nothing in the page as served fetches a script: no module preload, no module script
    // (docs/decisions/042-paint-before-scripts.md).
    expect(html, path).not.toContain('rel="modulepreload"');
    expect(html, path).not.toMatch(/<script[^>]* type="module"/);

    await page.goto(path);
    // The held boot script ran: React has taken over the server's page.
    await expect
      .poll(() => page.evaluate(() => Object.keys(document.querySelector("main") ?? {}).some((k) => k.startsWith("__reactFiber"))))
      .toBe(true);
    const order = await page.evaluate(() => {
      const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const css = entries.filter((e) => e.name.endsWith(".css") || e.name.endsWith(".css#"));
      const scripts = entries.filter((e) => new URL(e.name).pathname.endsWith(".js") && e.initiatorType !== "fetch");
      return {
        cssArrived: Math.max(...css.map((e) => e.responseEnd)),
        scriptsAsked: Math.min(...scripts.map((e) => e.startTime)),
        scripts: scripts.length,
      };
    });
    // The page's modules were fetched, and the first of them only once the stylesheet (which the first paint
    // waits for) had arrived.
    expect(order.scripts, path).toBeGreaterThan(5);
    expect(order.scriptsAsked, path).toBeGreaterThanOrEqual(order.cssArrived);
  }
});

test("POST /consent from a cross-site form sends the browser back only to a path on this site", async ({ request }) => {
  for (const redirectTo of ["/\\evil.example", "//evil.example", "https://evil.example/", "/\t/evil.example"]) {
    const res = await request.post("/consent", {
      form: { redirectTo },
      headers: { origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(res.status(), redirectTo).toBe(302);
    expect(res.headers().location, redirectTo).toBe("/");
  }
  const home = await request.post("/consent", { form: { redirectTo: "/faq?q=mesh" }, maxRedirects: 0 });
  expect(home.headers().location).toBe("/faq?q=mesh");
});
