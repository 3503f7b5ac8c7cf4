// The Double Ratchet (core/double-ratchet.ts): conversations both ways, every delivery order within MAX_SKIP
// (random permutations, a property test), refusals that leave the state unharmed, and keys that stop working.
import { describe, expect, it } from "vitest";
import {
  initReceiver,
  initSender,
  MAX_SKIP,
  MAX_SKIPPED_KEPT,
  type RatchetMessage,
  type RatchetState,
  ratchetDecrypt,
  ratchetEncrypt,
} from "./double-ratchet";

const AD = "dm:alice:bob|alice-device|bob-device";

async function pair(): Promise<{ alice: RatchetState; bob: RatchetState }> {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const bobRatchet = (await crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"])) as CryptoKeyPair;
  const bobPublic = Buffer.from(await crypto.subtle.exportKey("raw", bobRatchet.publicKey)).toString("base64url");
  return { alice: await initSender(secret, bobPublic), bob: await initReceiver(secret, bobRatchet) };
}

async function sendAll(state: RatchetState, texts: string[]) {
  const messages: RatchetMessage[] = [];
  for (const t of texts) {
    const out = await ratchetEncrypt(state, t, AD);
    state = out.state;
    messages.push(out.message);
  }
  return { state, messages };
}

/** A seeded shuffle, so a failing order can be replayed from its seed. */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("double ratchet", () => {
  it("carries a conversation both ways, with a new DH ratchet step at each turn", async () => {
    let { alice, bob } = await pair();
    for (let turn = 0; turn < 4; turn++) {
      const a = await ratchetEncrypt(alice, `alice ${turn}`, AD);
      alice = a.state;
      const b = await ratchetDecrypt(bob, a.message, AD);
      bob = b.state;
      expect(b.plaintext).toBe(`alice ${turn}`);
      const reply = await ratchetEncrypt(bob, `bob ${turn}`, AD);
      bob = reply.state;
      const opened = await ratchetDecrypt(alice, reply.message, AD);
      alice = opened.state;
      expect(opened.plaintext).toBe(`bob ${turn}`);
      expect(reply.message.header.dh).not.toBe(a.message.header.dh);
    }
  });

  it("opens every message in any order of arrival, across ratchet steps (property, 12 random orders)", async () => {
    for (let seed = 1; seed <= 12; seed++) {
      let { alice, bob } = await pair();
      // Two of Alice's sending chains: Bob answers in between, so the second batch is on a new DH key.
      const first = await sendAll(alice, ["a0", "a1", "a2", "a3"]);
      const opened0 = await ratchetDecrypt(bob, first.messages[0]!, AD);
      bob = opened0.state;
      const reply = await ratchetEncrypt(bob, "b0", AD);
      bob = reply.state;
      alice = (await ratchetDecrypt(first.state, reply.message, AD)).state;
      const second = await sendAll(alice, ["a4", "a5", "a6"]);
      const pending = [
        ...first.messages.slice(1).map((m, i) => ({ m, t: `a${i + 1}` })),
        ...second.messages.map((m, i) => ({ m, t: `a${i + 4}` })),
      ];
      for (const { m, t } of shuffle(pending, seed)) {
        const out = await ratchetDecrypt(bob, m, AD);
        bob = out.state;
        expect(out.plaintext).toBe(t);
      }
      expect(bob.skipped.size).toBe(0);
    }
  });

  it("refuses a replay, an altered header or ciphertext, or other associated data, and the state stays usable", async () => {
    let { alice, bob } = await pair();
    const { state, messages } = await sendAll(alice, ["one", "two"]);
    alice = state;
    bob = (await ratchetDecrypt(bob, messages[0]!, AD)).state;
    await expect(ratchetDecrypt(bob, messages[0]!, AD)).rejects.toThrow();
    await expect(ratchetDecrypt(bob, { ...messages[1]!, header: { ...messages[1]!.header, n: 5 } }, AD)).rejects.toThrow();
    const flipped = messages[1]!.ciphertext.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    await expect(ratchetDecrypt(bob, { ...messages[1]!, ciphertext: flipped }, AD)).rejects.toThrow();
    await expect(ratchetDecrypt(bob, messages[1]!, "dm:alice:mallory")).rejects.toThrow();
    expect((await ratchetDecrypt(bob, messages[1]!, AD)).plaintext).toBe("two");
  });

  it("a stolen state opens no message already read, and none after the next round trip", async () => {
    let { alice, bob } = await pair();
    const m1 = await ratchetEncrypt(alice, "before the theft", AD);
    alice = m1.state;
    bob = (await ratchetDecrypt(bob, m1.message, AD)).state;
    let thief = bob;
    await expect(ratchetDecrypt(thief, m1.message, AD)).rejects.toThrow();
    // Bob answers, Alice writes again: this chain still hangs on a key pair the thief copied.
    const r1 = await ratchetEncrypt(bob, "reply", AD);
    bob = r1.state;
    alice = (await ratchetDecrypt(alice, r1.message, AD)).state;
    const m2 = await ratchetEncrypt(alice, "still exposed", AD);
    alice = m2.state;
    bob = (await ratchetDecrypt(bob, m2.message, AD)).state;
    thief = (await ratchetDecrypt(thief, m2.message, AD)).state;
    // Bob's next answer comes from a key pair made after the theft; what Alice sends next is closed to the thief.
    const r2 = await ratchetEncrypt(bob, "reply 2", AD);
    bob = r2.state;
    alice = (await ratchetDecrypt(alice, r2.message, AD)).state;
    const m3 = await ratchetEncrypt(alice, "after healing", AD);
    expect((await ratchetDecrypt(bob, m3.message, AD)).plaintext).toBe("after healing");
    await expect(ratchetDecrypt(thief, m3.message, AD)).rejects.toThrow();
  });

  it("keeps at most MAX_SKIPPED_KEPT skipped keys in all, however many ratchet steps skip messages", async () => {
    let { alice, bob } = await pair();
    const firstSkipped: RatchetMessage[] = [];
    const lastSkipped: RatchetMessage[] = [];
    for (let round = 0; round < 3; round++) {
      // Alice sends 901 messages; Bob receives only the last (900 keys skipped), then answers (a new DH step).
      const sent = await sendAll(
        alice,
        Array.from({ length: 901 }, (_, i) => `r${round} m${i}`),
      );
      alice = sent.state;
      if (round === 0) firstSkipped.push(sent.messages[0]!);
      if (round === 2) lastSkipped.push(sent.messages[899]!);
      bob = (await ratchetDecrypt(bob, sent.messages[900]!, AD)).state;
      const reply = await ratchetEncrypt(bob, "ok", AD);
      bob = reply.state;
      alice = (await ratchetDecrypt(alice, reply.message, AD)).state;
    }
    expect(bob.skipped.size).toBe(MAX_SKIPPED_KEPT);
    // The oldest went first; the newest are still there for late messages.
    await expect(ratchetDecrypt(bob, firstSkipped[0]!, AD)).rejects.toThrow();
    expect((await ratchetDecrypt(bob, lastSkipped[0]!, AD)).plaintext).toBe("r2 m899");
  });

  it("refuses a message that would skip more than MAX_SKIP keys", async () => {
    const { alice, bob } = await pair();
    const out = await ratchetEncrypt(alice, "far", AD);
    await expect(ratchetDecrypt(bob, { ...out.message, header: { ...out.message.header, n: MAX_SKIP + 1 } }, AD)).rejects.toThrow(
      "Too many skipped messages",
    );
  });
});
