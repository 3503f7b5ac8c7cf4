import { describe, expect, it } from "vitest";
import { judge, qualityFrom } from "./quality";

const report = (stats: Record<string, unknown>[]) => ({
  forEach: (cb: (s: Record<string, unknown> & { type: string; id: string }) => void) =>
    stats.forEach((s) => {
      cb(s as Record<string, unknown> & { type: string; id: string });
    }),
});

describe("call quality from getStats", () => {
  it("reads RTT, loss, jitter, bitrate and the path from the selected pair and the inbound audio", () => {
    const stats = (bytesReceived: number) =>
      report([
        { id: "T1", type: "transport", selectedCandidatePairId: "CP1" },
        { id: "CP1", type: "candidate-pair", currentRoundTripTime: 0.042, localCandidateId: "L1", state: "succeeded", nominated: true },
        { id: "L1", type: "local-candidate", candidateType: "relay" },
        { id: "IN", type: "inbound-rtp", kind: "audio", packetsReceived: 990, packetsLost: 10, jitter: 0.012, bytesReceived },
        { id: "OUT", type: "outbound-rtp", kind: "audio", bytesSent: 5000 },
      ]);
    const first = qualityFrom(stats(10_000), null, 1000);
    expect(first.quality).toMatchObject({ rttMs: 42, lossPercent: 1, jitterMs: 12, bitrateKbps: null, bytesSent: 5000, path: "relayed" });
    const second = qualityFrom(stats(22_000), first.sample, 4000);
    // 12,000 bytes in 3 s = 32 kbit/s.
    expect(second.quality.bitrateKbps).toBe(32);
    expect(second.quality.audioQuality).toBe("good");
  });

  it("says nothing it has not measured", () => {
    expect(qualityFrom(report([]), null, 0).quality).toEqual({
      rttMs: null,
      lossPercent: null,
      jitterMs: null,
      bitrateKbps: null,
      bytesReceived: 0,
      bytesSent: 0,
      audioQuality: null,
      path: null,
    });
    expect(judge(40, 0, 5)).toBe("excellent");
    expect(judge(700, 0, 5)).toBe("poor");
  });
});
