import { describe, expect, it } from "vitest";
import { EmergencyBroadcastSchema, inQuietHours, PushSubscribeSchema } from "./sos-schemas";

// 23:30 WAT is 22:30 UTC.
const at = (utc: string) => new Date(`2026-11-23T${utc}:00Z`);

describe("quiet hours (WAT)", () => {
  const prefs = { quietHours: true, quietStart: "22:00", quietEnd: "07:00" };
  it("a window across midnight holds late evening and early morning, not the day", () => {
    expect(inQuietHours(prefs, at("22:30"))).toBe(true); // 23:30 WAT
    expect(inQuietHours(prefs, at("05:59"))).toBe(true); // 06:59 WAT
    expect(inQuietHours(prefs, at("06:00"))).toBe(false); // 07:00 WAT
    expect(inQuietHours(prefs, at("12:00"))).toBe(false);
    expect(inQuietHours(prefs, at("20:59"))).toBe(false); // 21:59 WAT
    expect(inQuietHours(prefs, at("21:00"))).toBe(true); // 22:00 WAT
  });
  it("a same-day window and the switch", () => {
    expect(inQuietHours({ quietHours: true, quietStart: "13:00", quietEnd: "15:00" }, at("13:30"))).toBe(true);
    expect(inQuietHours({ quietHours: true, quietStart: "13:00", quietEnd: "15:00" }, at("14:30"))).toBe(false);
    expect(inQuietHours({ ...prefs, quietHours: false }, at("22:30"))).toBe(false);
  });
});

describe("SOS input", () => {
  it("needs a message and a client request id; the type defaults to other", () => {
    expect(EmergencyBroadcastSchema.safeParse({ message: "  ", clientRequestId: "abcdefgh" }).success).toBe(false);
    expect(EmergencyBroadcastSchema.safeParse({ message: "help", clientRequestId: "x" }).success).toBe(false);
    expect(EmergencyBroadcastSchema.parse({ message: " help ", clientRequestId: "abcdefgh" })).toMatchObject({
      message: "help",
      emergencyType: "other",
    });
    expect(
      EmergencyBroadcastSchema.safeParse({ message: "help", clientRequestId: "abcdefgh", location: { latitude: 91, longitude: 0 } })
        .success,
    ).toBe(false);
  });
  it("push subscriptions need a P-256 key and a 16-byte secret", () => {
    const p256dh = `B${"A".repeat(86)}`;
    expect(PushSubscribeSchema.safeParse({ endpoint: "https://push.example/x", keys: { p256dh, auth: "A".repeat(22) } }).success).toBe(
      true,
    );
    expect(
      PushSubscribeSchema.safeParse({ endpoint: "https://push.example/x", keys: { p256dh: "short", auth: "A".repeat(22) } }).success,
    ).toBe(false);
    expect(PushSubscribeSchema.safeParse({ endpoint: "not a url", keys: { p256dh, auth: "A".repeat(22) } }).success).toBe(false);
  });
});
