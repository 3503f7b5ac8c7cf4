// The FAQ says what works with no internet now (docs/decisions/066-phones-paired-by-code.md): phones on one local
// network, paired by code; Bluetooth only scans. The seeded English words are replaced by a migration.
import { describe, expect, it } from "vitest";
import { call } from "../../tests/workers/helpers";

type Faq = { items: { id: string; answer: string }[] };

describe("the FAQ on chat without internet", () => {
  it("names phones paired by code on one Wi-Fi, in English and in the reader's language, and keeps Bluetooth to scanning", async () => {
    const english = await (await call("/api/content/faq")).json<Faq>();
    const first = english.items.find((f) => f.id === "faq-1")?.answer;
    const second = english.items.find((f) => f.id === "faq-2")?.answer;
    expect(first).toContain("a phone you paired by code on the same Wi-Fi or hotspot");
    expect(second).toContain("they cannot carry chat between phones over Bluetooth");
    expect(second).toContain("once paired by a code");
    const hausa = await (await call("/api/content/faq", { headers: { "accept-language": "ha" } })).json<Faq>();
    expect(hausa.items.find((f) => f.id === "faq-1")?.answer).toContain("wayar da ka haɗa da lamba");
  });
});
