import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { toBase64Url } from "./ids";
import {
  decodePairing,
  encodePairing,
  factsToSdp,
  MAX_CANDIDATES,
  type PairingPayload,
  PairingCodeError,
  sdpFacts,
  signPairing,
  verifyPairing,
} from "./pairing-code";

// An offer as Chromium writes it for one data channel (mDNS names hide the addresses).
const CHROMIUM_OFFER = [
  "v=0",
  "o=- 5756713603515382882 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "a=group:BUNDLE 0",
  "a=extmap-allow-mixed",
  "a=msid-semantic: WMS",
  "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 0.0.0.0",
  "a=candidate:283993835 1 udp 2113937151 177a8023-1c25-4fc2-a87e-c6076532f9bc.local 42499 typ host generation 0 network-cost 999",
  "a=candidate:396298843 1 udp 2113942271 1393c9a3-b995-4c5d-b81a-769d121fe319.local 53846 typ host generation 0 network-cost 999",
  "a=candidate:3023771060 1 udp 2113937151 192.0.2.2 60464 typ host generation 0 network-cost 999",
  "a=candidate:3007936772 1 udp 2113942271 fd00::2 48182 typ host generation 0 network-cost 999",
  "a=candidate:842163049 1 udp 1677729535 41.58.1.9 61000 typ srflx raddr 0.0.0.0 rport 0 generation 0",
  "a=candidate:1 1 tcp 1518280447 192.0.2.2 9 typ host tcptype active generation 0",
  "a=ice-ufrag:EADr",
  "a=ice-pwd:xphduZREAAYz1FPuEwOb6Mpz",
  "a=ice-options:trickle",
  "a=fingerprint:sha-256 51:54:47:47:FC:1A:52:2B:B3:23:42:FC:F9:BD:27:08:2D:4C:A4:1B:5E:D7:23:74:E0:78:4A:4B:96:B0:7E:E2",
  "a=setup:actpass",
  "a=mid:0",
  "a=sctp-port:5000",
  "a=max-message-size:262144",
  "",
].join("\r\n");

async function device() {
  const signing = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const dh = (await crypto.subtle.generateKey({ name: "X25519" }, true, ["deriveBits"])) as CryptoKeyPair;
  const raw = async (k: CryptoKey) => toBase64Url(new Uint8Array(await crypto.subtle.exportKey("raw", k)));
  return { signing, publicKey: await raw(dh.publicKey), signingKey: await raw(signing.publicKey) };
}

async function offerFrom(sdp: string, nickname = "Ngozi", userId = "u_8f3k2m9q1x") {
  const d = await device();
  const payload: PairingPayload = {
    kind: "offer",
    ...sdpFacts(sdp),
    identity: { userId, nickname, deviceId: "dev_4k9x2m1q8z7w", publicKey: d.publicKey, signingKey: d.signingKey },
  };
  return { d, signed: await signPairing(payload, d.signing.privateKey) };
}

describe("pairing codes", () => {
  it("keep only host candidates over UDP, and the facts a data channel needs", () => {
    const facts = sdpFacts(CHROMIUM_OFFER);
    expect(facts.ufrag).toBe("EADr");
    expect(facts.pwd).toBe("xphduZREAAYz1FPuEwOb6Mpz");
    expect(facts.setup).toBe("actpass");
    expect(facts.candidates.map((c) => c.address)).toEqual([
      "177a8023-1c25-4fc2-a87e-c6076532f9bc.local",
      "1393c9a3-b995-4c5d-b81a-769d121fe319.local",
      "192.0.2.2",
      "fd00::2",
    ]);
  });

  it("carry an offer through text and back, and the SDP written from it has the same facts", async () => {
    const { signed } = await offerFrom(CHROMIUM_OFFER);
    const code = encodePairing(signed);
    const back = decodePairing(`  ${code.slice(0, 40)}\n${code.slice(40)}  `);
    expect(back.identity).toEqual(signed.identity);
    expect(back.kind).toBe("offer");
    const again = sdpFacts(factsToSdp(back));
    expect(again.ufrag).toBe("EADr");
    expect([...again.fingerprint]).toEqual([...sdpFacts(CHROMIUM_OFFER).fingerprint]);
    expect(again.candidates.map((c) => `${c.address}:${c.port}`)).toEqual([
      "177a8023-1c25-4fc2-a87e-c6076532f9bc.local:42499",
      "1393c9a3-b995-4c5d-b81a-769d121fe319.local:53846",
      "192.0.2.2:60464",
      "fd00:0:0:0:0:0:0:2:48182",
    ]);
    expect(await verifyPairing(back)).toBe(true);
  });

  it("fit a QR code of version 25 or less at error correction M, even with every candidate and a long name", async () => {
    const many = CHROMIUM_OFFER.replace(
      "a=ice-ufrag",
      `${Array.from(
        { length: MAX_CANDIDATES },
        (_, i) => `a=candidate:${i} 1 udp 2113942271 2001:db8:85a3:${i}:8a2e:370:7334:ffff ${50000 + i} typ host generation 0\r\n`,
      ).join("")}a=ice-ufrag`,
    );
    const { signed } = await offerFrom(many, "Ọlọ́runfẹ́mi Adébáyọ̀ Ògúnlèyè-Ọláwálé", "u".repeat(64));
    const code = encodePairing(signed);
    expect(QRCode.create(code, { errorCorrectionLevel: "M" }).version).toBeLessThanOrEqual(25);
    // The browser's own SDP, uncompressed, would not (it is why the facts are packed).
    expect(QRCode.create(CHROMIUM_OFFER, { errorCorrectionLevel: "M" }).version).toBeGreaterThan(
      QRCode.create(encodePairing((await offerFrom(CHROMIUM_OFFER)).signed), { errorCorrectionLevel: "M" }).version,
    );
  });

  it("refuse a code whose fingerprint was swapped by someone in the middle", async () => {
    const { signed } = await offerFrom(CHROMIUM_OFFER);
    const swapped = { ...signed, fingerprint: signed.fingerprint.map((b) => b ^ 1) };
    expect(await verifyPairing(decodePairing(encodePairing(swapped)))).toBe(false);
    const otherName = { ...signed, identity: { ...signed.identity, userId: "u_someoneelse" } };
    expect(await verifyPairing(otherName)).toBe(false);
  });

  it("bind an answer to the offer it answers", async () => {
    const offer = (await offerFrom(CHROMIUM_OFFER)).signed;
    const b = await device();
    const answer: PairingPayload = {
      ...sdpFacts(CHROMIUM_OFFER.replace("actpass", "active").replace("EADr", "iJKF")),
      kind: "answer",
      identity: { userId: "u_b", nickname: "Bayo", deviceId: "dev_b", publicKey: b.publicKey, signingKey: b.signingKey },
    };
    const signed = decodePairing(encodePairing(await signPairing(answer, b.signing.privateKey, offer)));
    expect(signed.setup).toBe("active");
    expect(await verifyPairing(signed, offer)).toBe(true);
    const otherOffer = (await offerFrom(CHROMIUM_OFFER.replace("EADr", "zzzz"))).signed;
    expect(await verifyPairing(signed, otherOffer)).toBe(false);
  });

  it("say plainly what is wrong with text that is not a code", () => {
    expect(() => decodePairing("hello")).toThrow(PairingCodeError);
    expect(() => decodePairing("LU1.AQAA")).toThrow("cut short");
    expect(() => decodePairing("LU1.!!!")).toThrow(PairingCodeError);
  });
});
