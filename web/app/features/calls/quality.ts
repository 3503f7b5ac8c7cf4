// Call quality from RTCPeerConnection.getStats() (docs/product/client-conventions.md), measured, never made up:
// round-trip time from the selected candidate pair, loss and jitter from the inbound audio stream, bitrate from
// the bytes received between two readings, and the path the audio takes from the local candidate's type.

export interface CallQuality {
  /** Round-trip time in ms (the call quality's latency), null until the pair has measured one. */
  rttMs: number | null;
  /** Packets lost of those expected, in percent. */
  lossPercent: number | null;
  jitterMs: number | null;
  /** Audio received per second, in kbit/s, between the last two readings. */
  bitrateKbps: number | null;
  bytesReceived: number;
  bytesSent: number;
  /** The call quality's audioQuality, judged from loss, RTT and jitter. */
  audioQuality: "excellent" | "good" | "fair" | "poor" | null;
  path: "direct-local" | "direct-internet" | "relayed" | null;
}

export interface StatsSample {
  at: number;
  bytesReceived: number;
}

type Stat = Record<string, unknown> & { type: string; id: string };

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export function qualityFrom(report: { forEach(cb: (s: Stat) => void): void }, last: StatsSample | null, now: number) {
  const byId = new Map<string, Stat>();
  report.forEach((s) => {
    byId.set(s.id, s);
  });
  let pair: Stat | undefined;
  let inbound: Stat | undefined;
  let bytesSent = 0;
  for (const s of byId.values()) {
    if (s.type === "transport" && typeof s.selectedCandidatePairId === "string") pair = byId.get(s.selectedCandidatePairId) ?? pair;
    if (s.type === "candidate-pair" && !pair && s.state === "succeeded" && s.nominated) pair = s;
    if (s.type === "inbound-rtp" && s.kind === "audio") inbound = s;
    if (s.type === "outbound-rtp" && s.kind === "audio") bytesSent += num(s.bytesSent) ?? 0;
  }
  const rtt = num(pair?.currentRoundTripTime);
  const received = num(inbound?.packetsReceived) ?? 0;
  const lost = Math.max(0, num(inbound?.packetsLost) ?? 0);
  const lossPercent = inbound && received + lost > 0 ? (lost / (received + lost)) * 100 : null;
  const jitter = num(inbound?.jitter);
  const bytesReceived = num(inbound?.bytesReceived) ?? 0;
  const bitrateKbps =
    last && now > last.at && bytesReceived >= last.bytesReceived ? ((bytesReceived - last.bytesReceived) * 8) / (now - last.at) : null;
  const local = pair && typeof pair.localCandidateId === "string" ? byId.get(pair.localCandidateId) : undefined;
  const kind = local?.candidateType;
  const quality: CallQuality = {
    rttMs: rtt === null ? null : Math.round(rtt * 1000),
    lossPercent: lossPercent === null ? null : Math.round(lossPercent * 10) / 10,
    jitterMs: jitter === null ? null : Math.round(jitter * 1000),
    bitrateKbps: bitrateKbps === null ? null : Math.round(bitrateKbps),
    bytesReceived,
    bytesSent,
    audioQuality: judge(rtt === null ? null : rtt * 1000, lossPercent, jitter === null ? null : jitter * 1000),
    path: kind === "relay" ? "relayed" : kind === "host" ? "direct-local" : kind ? "direct-internet" : null,
  };
  return { quality, sample: { at: now, bytesReceived } };
}

/** Thresholds in the spirit of ITU-T G.114 (delay) and common VoIP loss/jitter budgets. */
export function judge(rttMs: number | null, lossPercent: number | null, jitterMs: number | null): CallQuality["audioQuality"] {
  if (rttMs === null && lossPercent === null) return null;
  const rtt = rttMs ?? 0;
  const loss = lossPercent ?? 0;
  const jitter = jitterMs ?? 0;
  if (rtt < 150 && loss < 1 && jitter < 20) return "excellent";
  if (rtt < 300 && loss < 3 && jitter < 40) return "good";
  if (rtt < 500 && loss < 8 && jitter < 80) return "fair";
  return "poor";
}
