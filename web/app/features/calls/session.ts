// One voice call on this device (docs/decisions/024-calls-through-the-room.md): WebRTC audio between two browsers,
// signalled through the direct chat's room socket. The room decides who may call and stamps who is speaking;
// this side only drives the RTCPeerConnection and reads its real statistics. The offer and answer travel sealed
// to the other person's listed devices (core/call-binding.ts): a remote description is set only from an SDP
// their device sealed for this call, so its DTLS fingerprint is theirs before any media flows.
import { CALL_TEXTS } from "../../../../core/calls";
import { apiRequest } from "../../../../core/http";
import type { IceServersAnswer } from "../../../../core/ice";
import { newId } from "../../../../core/ids";
import { dmPeer } from "../../../../core/room-ids";
import type { CallServerFrame, MeshNode } from "../../mesh/node";
import { type CallQuality, qualityFrom, type StatsSample } from "./quality";
import type { MessageKey } from "../../../../core/i18n/en";
import type { Refusal } from "../../i18n/refusal";

export type CallPhase = "incoming" | "calling" | "ringing" | "connecting" | "connected" | "ended";

export interface CallView {
  callId: string;
  room: string;
  peerName: string;
  role: "caller" | "callee";
  phase: CallPhase;
  /** How many of the other person's devices ring (caller side, once the room says). */
  devices: number | null;
  muted: boolean;
  startedAt: number | null;
  quality: CallQuality | null;
  /** Why the call ended, for the screen to say in its language (web/app/i18n/refusal.ts). */
  ended: Refusal | null;
  /** A refusal to show as a toast: title and message. */
  problem: { title: Refusal; description: Refusal } | null;
}

/** How often call quality is read (every 3 s, docs/product/client-conventions.md). */
export const QUALITY_EVERY_MS = 3000;

const said = (key: MessageKey): Refusal => ({ key });
const ENDED_TEXT: Record<string, { caller: Refusal; callee: Refusal }> = {
  hangup: { caller: said("calls.ended"), callee: said("calls.ended") },
  declined: { caller: said("calls.declined"), callee: said("calls.declined") },
  missed: { caller: said("calls.noAnswer"), callee: said("calls.missed") },
  unavailable: { caller: said("calls.couldNotConnect"), callee: said("calls.couldNotConnect") },
};

export class CallSession {
  view: CallView;
  private pc: RTCPeerConnection | null = null;
  private stream: MediaStream | null = null;
  private readonly pendingIce: RTCIceCandidateInit[] = [];
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private lastSample: StatsSample | null = null;
  private unsubscribe: () => void;
  /** The element the other person's voice plays from (kept out of React, so re-renders never restart it). */
  readonly audio: HTMLAudioElement;

  constructor(
    private readonly node: MeshNode,
    init: { room: string; peerName: string; role: "caller" | "callee"; callId?: string },
    private readonly onChange: () => void,
  ) {
    this.view = {
      callId: init.callId ?? newId(),
      room: init.room,
      peerName: init.peerName,
      role: init.role,
      phase: init.role === "caller" ? "calling" : "incoming",
      devices: null,
      muted: false,
      startedAt: null,
      quality: null,
      ended: null,
      problem: null,
    };
    this.audio = new Audio();
    this.audio.autoplay = true;
    this.unsubscribe = node.onCall((room, frame) => {
      if (room === this.view.room) void this.onFrame(frame).catch((e) => this.fail(e));
    });
  }

  get live(): boolean {
    return this.view.phase !== "ended";
  }

  /** Caller: microphone first (so a refusal costs nothing), then ring. */
  async start(): Promise<void> {
    try {
      await this.prepare();
    } catch (e) {
      return this.fail(e);
    }
    if (!this.live) return;
    if (!this.node.sendCall(this.view.room, { type: "ring", callId: this.view.callId })) return this.finish(said("calls.needsConnection"));
  }

  /** Callee: take the call on this device. */
  async accept(): Promise<void> {
    if (this.view.phase !== "incoming") return;
    this.set({ phase: "connecting" });
    try {
      await this.prepare();
    } catch (e) {
      this.node.sendCall(this.view.room, { type: "decline", callId: this.view.callId });
      return this.fail(e);
    }
    if (!this.node.sendCall(this.view.room, { type: "accept", callId: this.view.callId })) return this.finish(said("calls.notConnected"));
  }

  decline(): void {
    if (this.view.phase !== "incoming") return;
    this.node.sendCall(this.view.room, { type: "decline", callId: this.view.callId });
    this.finish(ENDED_TEXT.declined.callee);
  }

  hangUp(): void {
    if (!this.live) return;
    this.node.sendCall(this.view.room, { type: "hangup", callId: this.view.callId });
    this.finish(ENDED_TEXT.hangup.caller);
  }

  /** Mute stops sending the microphone (the track stays, so unmuting is instant). */
  toggleMute(): void {
    const muted = !this.view.muted;
    for (const track of this.stream?.getAudioTracks() ?? []) track.enabled = !muted;
    this.set({ muted });
  }

  dispose(): void {
    if (this.live) this.hangUp();
    this.unsubscribe();
  }

  // ---------------------------------------------------------------- signalling

  private async onFrame(frame: CallServerFrame): Promise<void> {
    if (!("callId" in frame) && frame.type !== "error") return;
    if (frame.type === "error") {
      if (frame.id !== this.view.callId) return;
      const title = said(frame.code === "verification_required" ? "files.premiumTitle" : "calls.failed");
      // The room names its refusal (`reason`, a code of core/api-errors.ts); its English words are the fallback.
      const description: Refusal = frame.reason ? { error: frame.message, code: frame.reason } : frame.message;
      this.set({ problem: { title, description } });
      return this.finish(description);
    }
    if (frame.callId !== this.view.callId || !this.live) return;
    const mine = "from" in frame && frame.from === this.node.me.id;
    switch (frame.type) {
      case "ringing":
        return this.set({ phase: "ringing", devices: frame.devices });
      case "accept":
        // My other device took it: this one stops ringing.
        if (mine) return this.finish(said("calls.answeredElsewhere"));
        if (this.view.role !== "caller") return;
        this.set({ phase: "connecting" });
        return this.offer();
      case "call-offer": {
        const offer = await this.openRemote("offer", frame.sdp);
        if (offer === null) return;
        const pc = this.connection();
        await pc.setRemoteDescription({ type: "offer", sdp: offer });
        await this.flushIce();
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        const sealed = await this.sealLocal("answer", answer.sdp ?? "");
        this.node.sendCall(this.view.room, { type: "call-answer", callId: this.view.callId, sdp: sealed });
        return;
      }
      case "call-answer": {
        const answer = await this.openRemote("answer", frame.sdp);
        if (answer === null) return;
        await this.connection().setRemoteDescription({ type: "answer", sdp: answer });
        return this.flushIce();
      }
      case "ice": {
        const candidate = frame.candidate as RTCIceCandidateInit;
        if (this.pc?.remoteDescription) await this.pc.addIceCandidate(candidate);
        else this.pendingIce.push(candidate);
        return;
      }
      case "call-ended": {
        if (mine && frame.reason === "hangup") return this.finish(ENDED_TEXT.hangup.caller);
        const text = ENDED_TEXT[frame.reason] ?? ENDED_TEXT.hangup;
        return this.finish(this.view.role === "caller" ? text.caller : text.callee);
      }
    }
  }

  private async prepare(): Promise<void> {
    const [ice, stream] = await Promise.all([
      apiRequest<IceServersAnswer>("GET", "/api/calls/ice-servers").catch(() => null),
      navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true }, video: false }),
    ]);
    this.stream = stream;
    this.iceServers = ice?.iceServers ?? [];
    if (!this.live) this.release();
  }
  private iceServers: RTCIceServer[] = [];

  private connection(): RTCPeerConnection {
    if (this.pc) return this.pc;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    for (const track of this.stream?.getAudioTracks() ?? []) pc.addTrack(track, this.stream as MediaStream);
    pc.onicecandidate = (e) => {
      if (e.candidate)
        this.node.sendCall(this.view.room, { type: "ice", callId: this.view.callId, candidate: e.candidate.toJSON() as never });
    };
    pc.ontrack = (e) => {
      this.audio.srcObject = e.streams[0] ?? new MediaStream([e.track]);
      this.audio.play().catch(() => {});
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "connected" && this.view.phase !== "connected") {
        this.set({ phase: "connected", startedAt: Date.now() });
        this.statsTimer = setInterval(() => void this.readStats(), QUALITY_EVERY_MS);
        void this.readStats();
      } else if (pc.connectionState === "failed") {
        this.node.sendCall(this.view.room, { type: "hangup", callId: this.view.callId });
        this.finish(ENDED_TEXT.unavailable.caller);
      }
    };
    this.pc = pc;
    return pc;
  }

  private async offer(): Promise<void> {
    const pc = this.connection();
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    const sealed = await this.sealLocal("offer", offer.sdp ?? "");
    this.node.sendCall(this.view.room, { type: "call-offer", callId: this.view.callId, sdp: sealed });
  }

  private get peerId(): string {
    const peer = dmPeer(this.view.room, this.node.me.id);
    if (!peer) throw new Error(CALL_TEXTS.directOnly); // not reached: a call is only ever in a direct chat
    return peer;
  }

  /** This side's SDP, sealed to the other person's devices as a message of this chat and call. */
  private async sealLocal(kind: "offer" | "answer", sdp: string): Promise<string> {
    const [{ sealSdp }, keys] = await Promise.all([import("../../../../core/call-binding"), import("../../mesh/keys")]);
    await keys.publishDeviceKey(this.node.me.id).catch(() => {});
    const me = { id: this.node.me.id, nickname: this.node.me.nickname };
    return sealSdp(await keys.session(), { room: this.view.room, me, peerId: this.peerId, callId: this.view.callId, kind, sdp });
  }

  /** The other side's SDP when their device sealed it for this call; otherwise the call is refused (null). */
  private async openRemote(kind: "offer" | "answer", wire: string): Promise<string | null> {
    const [{ openSdp, CALL_NOT_BOUND }, keys] = await Promise.all([import("../../../../core/call-binding"), import("../../mesh/keys")]);
    const opened = await openSdp(await keys.session(), { room: this.view.room, peerId: this.peerId, callId: this.view.callId, kind, wire });
    if (opened.ok) return opened.sdp;
    console.warn("calls: refused an SDP", opened.reason);
    this.node.sendCall(this.view.room, { type: "hangup", callId: this.view.callId });
    this.set({ problem: { title: "Call refused", description: CALL_NOT_BOUND } });
    this.finish(CALL_NOT_BOUND);
    return null;
  }

  private async flushIce(): Promise<void> {
    for (const c of this.pendingIce.splice(0)) await this.pc?.addIceCandidate(c);
  }

  private async readStats(): Promise<void> {
    if (!this.pc) return;
    const report = await this.pc.getStats();
    const { quality, sample } = qualityFrom(report, this.lastSample, Date.now());
    this.lastSample = sample;
    this.set({ quality });
  }

  // ---------------------------------------------------------------- ending

  private fail(e: unknown): void {
    const denied = e instanceof DOMException && (e.name === "NotAllowedError" || e.name === "SecurityError");
    // No microphone, or one another app holds: our words, not the browser's "Requested device not found".
    const noMic = e instanceof DOMException && ["NotFoundError", "NotReadableError", "OverconstrainedError", "AbortError"].includes(e.name);
    const description: Refusal = denied
      ? said("calls.micNeeded")
      : noMic
        ? said("calls.noMicrophone")
        : e instanceof Error
          ? e.message
          : String(e);
    this.set({ problem: { title: said("calls.failed"), description } });
    this.finish(description);
  }

  private finish(text: Refusal): void {
    if (!this.live) return;
    this.release();
    this.set({ phase: "ended", ended: text });
  }

  private release(): void {
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.statsTimer = null;
    this.pc?.close();
    this.pc = null;
    for (const t of this.stream?.getTracks() ?? []) t.stop();
    this.stream = null;
    this.audio.srcObject = null;
  }

  private set(patch: Partial<CallView>): void {
    this.view = { ...this.view, ...patch };
    this.onChange();
  }
}
