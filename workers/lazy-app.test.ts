import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { lazyApp } from "./lazy-app";

type Vars = { Variables: { user: string; seen: string } };

function parentWith(load: () => Promise<Hono<Vars>>) {
  const app = new Hono<Vars>();
  app.use(async (c, next) => {
    c.set("user", "ada");
    await next();
    // What the sub-app set comes back to the parent's middleware.
    if (c.var.seen) c.res.headers.set("x-seen", c.var.seen);
  });
  app.route("/area", lazyApp(load));
  app.get("/area/shared", (c) => c.text("parent's own route"));
  app.onError((err, c) => c.json({ error: err.message }, 418));
  app.notFound((c) => c.json({ error: "not_found" }, 404));
  return app;
}

const sub = () =>
  new Hono<Vars>()
    .get("/", (c) => c.text(`root of ${c.var.user}`))
    .get("/items/:id", (c) => {
      c.set("seen", c.req.param("id"));
      return c.text(`item ${c.req.param("id")} for ${c.var.user}`);
    })
    .get("/boom", () => {
      throw new Error("broken");
    });

describe("a sub-app loaded on its first request", () => {
  it("answers as if mounted directly: params, the parent's variables in and out, errors and unknown paths", async () => {
    let loads = 0;
    const app = parentWith(async () => {
      loads++;
      return sub();
    });
    expect(loads).toBe(0);
    expect(await (await app.request("/area")).text()).toBe("root of ada");
    const item = await app.request("/area/items/7");
    expect(await item.text()).toBe("item 7 for ada");
    expect(item.headers.get("x-seen")).toBe("7");
    const boom = await app.request("/area/boom");
    expect(boom.status).toBe(418);
    expect(await boom.json()).toEqual({ error: "broken" });
    expect(await (await app.request("/area/shared")).text()).toBe("parent's own route");
    const missing = await app.request("/area/nothing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "not_found" });
    expect(await (await app.request("/elsewhere")).json()).toEqual({ error: "not_found" });
    expect(loads).toBe(1);
  });

  it("tries the import again after a failed load", async () => {
    let attempts = 0;
    const app = parentWith(async () => {
      attempts++;
      if (attempts === 1) throw new Error("chunk unavailable");
      return sub();
    });
    expect((await app.request("/area")).status).toBe(418);
    expect(await (await app.request("/area")).text()).toBe("root of ada");
    expect(attempts).toBe(2);
  });
});
