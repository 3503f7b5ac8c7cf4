// A loader's failed API call carries the call's request id to the error screen (docs/decisions/053-nothing-lost.md).
import { describe, expect, it } from "vitest";
import { type AppContext, appContext } from "../context";
import { apiGet } from "./api.server";

const contextAnswering = (res: Response) => ({
  get: (key: typeof appContext) => {
    expect(key).toBe(appContext);
    return { api: async () => res } as unknown as AppContext;
  },
});

describe("apiGet", () => {
  it("throws the API's failure with the request id the answer named, never its stack", async () => {
    const res = Response.json(
      { error: "Internal server error", requestId: "8f00aa11bb22cc33-LOS" },
      { status: 500, headers: { "x-request-id": "8f00aa11bb22cc33-LOS" } },
    );
    const thrown = await apiGet(contextAnswering(res), "/api/anything").catch((e: unknown) => e);
    // React Router's data(): the error boundary receives it as a route error response with this data and status.
    expect(thrown).toMatchObject({ data: { requestId: "8f00aa11bb22cc33-LOS" }, init: { status: 500 } });
  });

  it("answers null for a 401 (not signed in)", async () => {
    expect(await apiGet(contextAnswering(new Response(null, { status: 401 })), "/api/me")).toBeNull();
  });
});
