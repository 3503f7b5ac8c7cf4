// Pairing two phones with no server (docs/decisions/066-phones-paired-by-code.md): the first shows an offer as a
// pairing code (QR or text), the second answers with its own code, and the first takes the answer. Only host
// candidates are gathered (no STUN or TURN server: there may be no internet), so it works between phones on one
// local network, such as one phone's hotspot. Each code is signed by its device's identity key; a code whose
// signature does not check, or whose device comes with another key than the one remembered, is refused.
import {
  decodePairing,
  encodePairing,
  factsToSdp,
  type PairingIdentity,
  PairingCodeError,
  type SdpFacts,
  sdpFacts,
  signPairing,
  verifyPairing,
} from "../../../core/pairing-code";
import type { MeshPerson } from "../../../core/peer-mesh";
import { kvGet, kvSet } from "./db";
import { deviceSecrets } from "./keys";
import { PEER_CHANNEL, type PeerMesh } from "./peer-transport";

/** Gathering host candidates takes milliseconds on a local network; a phone with none answers after this. */
const GATHER_MS = 5000;

function gathered(pc: RTCPeerConnection): Promise<void> {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => {
      if (pc.iceGatheringState !== "complete") return;
      pc.removeEventListener("icegatheringstatechange", done);
      resolve();
    };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, GATHER_MS);
  });
}

/** The identity this phone pairs as. */
export async function myMeshPerson(me: { id: string; nickname: string }): Promise<MeshPerson> {
  const { record } = await deviceSecrets(me.id);
  return {
    userId: me.id,
    nickname: me.nickname.slice(0, 40),
    deviceId: record.deviceId,
    publicKey: record.publicKey,
    signingKey: record.signingKey,
  };
}

/** Identity keys remembered per paired device: trusted on first pairing, and a change refused after. */
async function checkPin(p: PairingIdentity) {
  const pins = (await kvGet<Record<string, string>>("mesh-pins")) ?? {};
  const pinned = pins[`${p.userId}/${p.deviceId}`];
  if (pinned && pinned !== p.signingKey)
    throw new PairingCodeError("key-changed", "This phone's identity key is not the one it paired with before");
  if (!pinned) await kvSet("mesh-pins", { ...pins, [`${p.userId}/${p.deviceId}`]: p.signingKey });
}

export class Pairing {
  private pending: { pc: RTCPeerConnection; channel: RTCDataChannel; facts: SdpFacts } | null = null;

  constructor(
    private readonly me: { id: string; nickname: string },
    private readonly mesh: PeerMesh,
  ) {}

  private async sign(kind: "offer" | "answer", sdp: string, answering?: SdpFacts) {
    const secrets = await deviceSecrets(this.me.id);
    const identity = await myMeshPerson(this.me);
    const facts = sdpFacts(sdp);
    return { facts, code: encodePairing(await signPairing({ kind, ...facts, identity }, secrets.signing.privateKey, answering)) };
  }

  /** Starts a pairing: this phone's offer as a code for the other phone to scan or paste. */
  async offer(): Promise<string> {
    this.pending?.pc.close();
    const pc = new RTCPeerConnection({ iceServers: [] });
    const channel = pc.createDataChannel(PEER_CHANNEL);
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    const { facts, code } = await this.sign("offer", pc.localDescription?.sdp ?? "");
    this.pending = { pc, channel, facts };
    return code;
  }

  /**
   * Takes the other phone's code: an offer is answered (the answer code is returned, to show the first phone);
   * an answer completes this phone's offer. Throws PairingCodeError with a reason a person can act on.
   */
  async use(text: string): Promise<{ answer: string | null; person: MeshPerson }> {
    const code = decodePairing(text);
    if (code.identity.userId === this.me.id)
      throw new PairingCodeError("own-code", "This is this phone's own code: show it to the other phone");
    const person: MeshPerson = { ...code.identity };
    if (code.kind === "answer") {
      const pending = this.pending;
      if (!pending)
        throw new PairingCodeError("no-offer", "This answers a code this phone did not show: start again with Show my pairing code");
      if (!(await verifyPairing(code, pending.facts)))
        throw new PairingCodeError("signature", "This code's signature does not check: it was changed, or answers another code");
      await checkPin(code.identity);
      await pending.pc.setRemoteDescription({ type: "answer", sdp: factsToSdp(code) });
      this.pending = null;
      this.mesh.add(pending.pc, pending.channel, person);
      return { answer: null, person };
    }
    if (!(await verifyPairing(code)))
      throw new PairingCodeError("signature", "This code's signature does not check: it was changed on the way");
    await checkPin(code.identity);
    const pc = new RTCPeerConnection({ iceServers: [] });
    pc.ondatachannel = (e) => {
      if (e.channel.label === PEER_CHANNEL) this.mesh.add(pc, e.channel, person);
    };
    await pc.setRemoteDescription({ type: "offer", sdp: factsToSdp(code) });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    const { code: answer } = await this.sign("answer", pc.localDescription?.sdp ?? "", code);
    return { answer, person };
  }
}
