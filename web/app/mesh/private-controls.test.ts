// A direct chat's receipts, typing and timer changes against a server that forges them (docs/protocol.md §7b):
// the real protocol session (core/e2e.ts), the real sealing layer and the controls module, with a relay that
// publishes honest signed device lists and prekeys but writes, rewrites and replays frames as it likes.
import { beforeEach, describe, expect, it } from "vitest";
import { createAccountKey, nextDeviceList, signDeviceList } from "../../../core/device-list";
import { createDevice, E2eSession } from "../../../core/e2e";
import type { Envelope } from "../../../core/envelope";
import { TYPING_PROOF_MS } from "../../../core/e2e-controls";
import type { Prekey } from "../../../core/x3dh";
import { History } from "./history";
import { memoryStore } from "./memory-store.test-support";
import { PrivateControls } from "./private-controls";
import { Sealing } from "./sealing";

const room = "dm:u-ada:u-ben";
let lists: Map<string, unknown>;
let prekeys: Map<string, { signed?: Prekey; oneTime: Prekey[] }>;
const directory = {
  deviceList: async (userId: string) => structuredClone(lists.get(userId) ?? null),
  bundle: async (userId: string, deviceId: string) => {
    const held = prekeys.get(`${userId}|${deviceId}`);
    const oneTimePrekey = held?.oneTime.shift();
    return held?.signed && { deviceId, signedPrekey: held.signed, ...(oneTimePrekey ? { oneTimePrekey } : {}) };
  },
};

/** One person's phone: keys listed under their account key, prekeys published, its sealing layer and controls. */
async function phone(id: string, nickname: string) {
  const secrets = await createDevice(id);
  lists.set(id, await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: secrets.record }, id)));
  const kv = new Map<string, unknown>();
  const session = new E2eSession(
    secrets,
    { get: async (k) => structuredClone(kv.get(k)) as never, set: async (k, v) => void kv.set(k, v) },
    directory,
  );
  const upload = await session.prekeysToPublish({ signedPrekeyId: null, oneTimePrekeys: 0 });
  prekeys.set(`${id}|${secrets.record.deviceId}`, { signed: upload?.signedPrekey, oneTime: upload?.oneTimePrekeys ?? [] });
  const history = new History({ changed() {}, tell() {} }, memoryStore());
  const me = { id, nickname };
  const sealing = new Sealing({
    me,
    hop: `${nickname} · tab`,
    history,
    enqueue: async () => {},
    session: async () => session,
    publishDeviceKey: async () => {},
    verified: async () => false,
  });
  const controls = new PrivateControls({ me, hop: `${nickname} · tab`, kv: history, session: async () => session });
  return { id, session, sealing, controls, history };
}

function message(senderId: string, meta?: Record<string, unknown>): Envelope {
  return {
    id: `m-${Math.random().toString(36).slice(2, 12)}`,
    room,
    senderId,
    timestamp: Date.now(),
    type: "text",
    ttl: 8,
    meshRoute: [],
    isEncrypted: true,
    priority: "normal",
    content: { text: "" },
    meta,
  };
}

beforeEach(() => {
  lists = new Map();
  prekeys = new Map();
});

describe("a direct chat's receipts", () => {
  it("are believed only sealed by the other person's device: a plain or rewritten one is refused", async () => {
    const ada = await phone("u-ada", "Ada");
    const ben = await phone("u-ben", "Ben");
    // Ada's message reaches Ben; Ben's device sends its "read" receipt sealed, like a message.
    const sent = await ada.sealing.seal({ ...message("u-ada"), content: { text: "are you coming?" } });
    expect(await ben.sealing.open(sent)).toMatchObject({ text: "are you coming?" });
    const receipt = await ben.sealing.seal(ben.controls.receiptEnvelope(room, "read", [sent.id]));
    expect(JSON.stringify(receipt)).not.toContain(sent.id);
    expect(ada.controls.receiptOf(receipt, await ada.sealing.open(receipt))).toEqual({ status: "read", ids: [sent.id] });

    // The server writes a receipt of its own: plain, or Ben's sealed one with other bytes, or the same one again.
    const plain = ben.controls.receiptEnvelope(room, "read", [sent.id]);
    expect(ada.controls.receiptOf(plain, await ada.sealing.open(plain))).toBeNull();
    const again = await ben.sealing.seal(ben.controls.receiptEnvelope(room, "read", [sent.id]));
    const rewritten = structuredClone(again);
    (rewritten.content as { ciphertext: string }).ciphertext = (receipt.content as { ciphertext: string }).ciphertext;
    expect(ada.controls.receiptOf(rewritten, await ada.sealing.open(rewritten))).toBeNull();
    expect(ada.controls.receiptOf(receipt, await ada.sealing.open(structuredClone(receipt)))).toBeNull();
    expect(ada.controls.receiptOf(again, await ada.sealing.open(again))).toEqual({ status: "read", ids: [sent.id] });
  });
});

describe("a direct chat's typing frames", () => {
  it("are believed only signed by a listed device of the person, for this chat, and not replayed", async () => {
    const ada = await phone("u-ada", "Ada");
    const ben = await phone("u-ben", "Ben");
    const proof = await ben.controls.typingProof(room, true);
    // The server's own frame (no signature), another person's name, another chat, another state: ignored.
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: true })).toBe(false);
    expect(await ada.controls.typingBelieved(room, { userId: "u-ada", active: true, proof })).toBe(false);
    expect(await ada.controls.typingBelieved("dm:u-ada:u-cat", { userId: "u-ben", active: true, proof })).toBe(false);
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: false, proof })).toBe(false);
    // A key the server made for Ben is not in Ben's signed list.
    const server = await createDevice("u-ben");
    const forged = await new PrivateControls({
      me: { id: "u-ben", nickname: "Ben" },
      hop: "x",
      kv: ben.history,
      session: async () => new E2eSession(server, { get: async () => undefined, set: async () => {} }, directory),
    }).typingProof(room, true);
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: true, proof: forged })).toBe(false);
    // Ben's real frame is believed once; the same frame replayed, or one signed long ago, is not.
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: true, proof })).toBe(true);
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: true, proof })).toBe(false);
    const later = await ben.controls.typingProof(room, false);
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: false, proof: later }, later.at + TYPING_PROOF_MS + 1)).toBe(
      false,
    );
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: false, proof: later })).toBe(true);
  });
});

describe("a direct chat's timer changes", () => {
  it("are believed only sealed by the member they name; a chat whose sealed timer is off keeps the server's expiries away", async () => {
    const ada = await phone("u-ada", "Ada");
    const ben = await phone("u-ben", "Ben");
    const change = (by: string, timer: string) => message("u-ada", { event: "disappearing", by, byName: "Ada", timer });
    // Ada turns the timer off; her device seals the change. Ben believes it and keeps it.
    const off = await ada.sealing.seal(change("u-ada", "never"));
    const opened = await ben.sealing.open(off);
    expect(opened).toMatchObject({ meta: { event: "disappearing", timer: "never" } });
    expect(await ben.controls.timerOpened(room, off, (opened as { meta?: unknown }).meta)).toBe(true);
    // The server stamps an expiry on a later message anyway: Ben's device does not delete it.
    const later = Date.now() + 1;
    expect(await ben.controls.expiryOf(room, later, later + 60_000)).toBeUndefined();
    // Ada cannot announce a change in Ben's name (nor can the server: it cannot seal at all).
    const inBensName = await ada.sealing.seal(change("u-ben", "1hour"));
    const named = await ben.sealing.open(inBensName);
    expect(await ben.controls.timerOpened(room, inBensName, (named as { meta?: unknown }).meta)).toBe(false);
    expect(await ben.sealing.open({ ...change("u-ada", "1hour"), isEncrypted: false, content: { text: "" } })).toEqual({
      refused: "plaintext",
    });
    // Once Ada turns it on (sealed), the room's expiries hold again, and the change itself stays.
    const on = await ada.sealing.seal(change("u-ada", "1hour"));
    const onMeta = ((await ben.sealing.open(on)) as { meta?: unknown }).meta;
    expect(await ben.controls.timerOpened(room, on, onMeta)).toBe(true);
    const after = on.timestamp + 5;
    expect(await ben.controls.expiryOf(room, after, after + 3_600_000)).toBe(after + 3_600_000);
    expect(await ben.controls.expiryOf(room, on.timestamp, on.timestamp + 3_600_000, onMeta)).toBeUndefined();
    // An area room is the room's to time.
    expect(await ben.controls.expiryOf("nearby:s14uc", after, after + 10)).toBe(after + 10);
  });
});

describe("a group's receipts and typing", () => {
  const group = "group:market-women";

  it("count a receipt only for the envelope and status the reader's listed device signed", async () => {
    const ada = await phone("u-ada", "Ada");
    const ben = await phone("u-ben", "Ben");
    const proof = await ben.controls.receiptProof(group, "read", ["m-one-000001", "m-two-000002"]);
    const each = (ids: string[], status: "read" | "delivered", p = proof) =>
      ids.map((id, i) => ({ id, by: "u-ben", status, proof: { device: p.device, at: p.at, sig: p.sigs[i] as string } }));
    expect(await ada.controls.receiptsBelieved(group, each(["m-one-000001", "m-two-000002"], "read"))).toEqual([
      { id: "m-one-000001", status: "read" },
      { id: "m-two-000002", status: "read" },
    ]);
    // What the server might write: no signature, a signature moved to another message, another status, another
    // room, another person, or a device it made for Ben that is not in his signed list.
    expect(await ada.controls.receiptsBelieved(group, [{ id: "m-one-000001", by: "u-ben", status: "read" }])).toEqual([]);
    expect(await ada.controls.receiptsBelieved(group, each(["m-two-000002", "m-one-000001"], "read"))).toEqual([]);
    expect(await ada.controls.receiptsBelieved(group, each(["m-one-000001"], "delivered"))).toEqual([]);
    expect(await ada.controls.receiptsBelieved("group:other-group", each(["m-one-000001"], "read"))).toEqual([]);
    await phone("u-cat", "Cat");
    expect(
      await ada.controls.receiptsBelieved(
        group,
        each(["m-one-000001"], "read").map((r) => ({ ...r, by: "u-cat" })),
      ),
    ).toEqual([]);
    const server = await createDevice("u-ben");
    const forged = await new PrivateControls({
      me: { id: "u-ben", nickname: "Ben" },
      hop: "x",
      kv: ben.history,
      session: async () => new E2eSession(server, { get: async () => undefined, set: async () => {} }, directory),
    }).receiptProof(group, "read", ["m-one-000001"]);
    expect(await ada.controls.receiptsBelieved(group, each(["m-one-000001"], "read", forged))).toEqual([]);
  });

  it("believe typing only signed by a listed device of the person, and hold the room's timer line to sealed changes", async () => {
    const ada = await phone("u-ada", "Ada");
    const ben = await phone("u-ben", "Ben");
    expect(await ada.controls.typingBelieved(group, { userId: "u-ben", active: true })).toBe(false);
    const proof = await ben.controls.typingProof(group, true);
    expect(await ada.controls.typingBelieved(room, { userId: "u-ben", active: true, proof })).toBe(false);
    expect(await ada.controls.typingBelieved(group, { userId: "u-ben", active: true, proof })).toBe(true);
    // A group's sealed timer change "off": the server's later expiry stamp is not obeyed on this device.
    await ada.controls.recordTimer(group, Date.now() - 10, "never");
    const later = Date.now() + 1;
    expect(await ada.controls.expiryOf(group, later, later + 60_000)).toBeUndefined();
  });
});
