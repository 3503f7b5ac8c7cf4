// On a 2G link every request before the first paint costs a round trip of 800 ms or more: the page paints from its
// document alone, its stylesheet inline under the page's nonce (docs/decisions/070-light-enough-for-2g.md).
import { expect, test } from "./fixtures";

test("a page's styles come with its document: no stylesheet is fetched, the styles apply under the nonce policy", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "stylesheet") asked.push(r.url());
  });
  for (const path of ["/", "/emergency"]) {
    const html = await (await page.request.get(path)).text();
    expect(html, path).toMatch(/<style nonce="[^"]+">[\s\S]+?<\/style>/);
    // React Router's link stays for React to hydrate, disabled: the browser neither fetches nor applies it.
    expect(html, path).toMatch(/<link[^>]* rel="stylesheet" href="[^"]+" disabled=""\/>/);

    await page.goto(path);
    // The inline stylesheet applied (the policy would have refused it without the nonce): the page's colours.
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), path).toBe("rgb(246, 247, 245)");
    expect(await page.evaluate(() => getComputedStyle(document.body).marginTop), path).toBe("0px");
    // React took over the server's page with the inline stylesheet in its head.
    await expect
      .poll(() => page.evaluate(() => Object.keys(document.querySelector("main") ?? {}).some((k) => k.startsWith("__reactFiber"))))
      .toBe(true);
  }
  expect(asked).toEqual([]);
});
