import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./redirect";

describe("safeRedirectPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    for (const path of ["/", "/chat", "/emergency?tab=contacts#list", "/settings/?saved=1"]) expect(safeRedirectPath(path)).toBe(path);
  });

  it("refuses anything a browser could take to another site", () => {
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/\\/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      " /chat",
      "",
    ])
      expect(safeRedirectPath(bad), JSON.stringify(bad)).toBe("/");
    // Percent-encoded characters stay part of a path on this site.
    expect(safeRedirectPath("/search%0a//evil.example")).toBe("/search%0a//evil.example");
    expect(safeRedirectPath(null, "/chat")).toBe("/chat");
    expect(safeRedirectPath(42)).toBe("/");
  });
});
