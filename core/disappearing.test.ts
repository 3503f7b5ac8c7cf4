import fc from "fast-check";
import { describe, it } from "vitest";
import { DisappearingMetaSchema, isDisappearingMeta } from "./disappearing";

describe("the announcement check without zod", () => {
  it("gives the schema's verdict on any meta", () => {
    const timer = fc.oneof(fc.constantFrom("never", "1hour", "1day", "1week", "1month"), fc.string());
    const meta = fc.oneof(
      fc.record({
        event: fc.oneof(fc.constant("disappearing"), fc.string()),
        by: fc.string({ maxLength: 70 }),
        byName: fc.string({ maxLength: 70 }),
        timer,
      }),
      fc.anything(),
    );
    fc.assert(fc.property(meta, (m) => isDisappearingMeta(m) === DisappearingMetaSchema.safeParse(m).success));
  });
});
