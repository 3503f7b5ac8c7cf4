import { describe, expect, it } from "vitest";
import { edgeNames, hopName, routeNames } from "./hop-label";

describe("hop labels show names, never tab ids", () => {
  it.each([
    ["Ngozi · tab-7ZH83A", "Ngozi"],
    ["Ade Ola · tab-mdBmgg", "Ade Ola"],
    ["server", "server"],
  ])("%j -> %j", (hop, name) => expect(hopName(hop)).toBe(name));
  it("joins edges and routes", () => {
    expect(edgeNames("Ngozi · tab-AB12→Musa · tab-CD34")).toBe("Ngozi → Musa");
    expect(routeNames(["Ngozi · tab-AB12", "Musa · tab-CD34"])).toBe("Ngozi → Musa");
  });
});
