// Sealing and opening with a stand-in session: what leaves a private room, what is refused, and what the chat says.
import { describe, expect, it, vi } from "vitest";
import type { Envelope } from "../../../core/envelope";
import type { OutboxItem } from "./db";
import { History } from "./history";
import { memoryStore, message } from "./memory-store.test-support";
import { Sealing, type SealingSession } from "./sealing";

const me = { id: "u-me", nickname: "Me" };

function envelope(room: string, extra: Partial<Envelope> = {}): Envelope {
  return {
    id: "e1",
    room,
    senderId: "u-ada",
    senderName: "Ada",
    timestamp: 5_000,
    type: "text",
    ttl: 16,
    meshRoute: ["a"],
    isEncrypted: false,
    priority: "normal",
    content: { text: "hello" },
    ...extra,
  };
}

function setup(session: Partial<SealingSession>, members: { userId: string; nickname?: string }[] = [], verified: string[] = []) {
  const history = new History({ changed() {}, tell() {} }, memoryStore());
  const queued: OutboxItem[] = [];
  const sealing = new Sealing({
    me,
    hop: "Me · tab-1",
    history,
    enqueue: async (item) => void queued.push(item),
    session: async () => session as SealingSession,
    publishDeviceKey: async () => {},
    members: async () => members,
    verified: async (userId) => verified.includes(userId),
  });
  return { history, sealing, queued };
}

describe("sealing", () => {
  it("sends a public room's envelope as it is", async () => {
    const { sealing } = setup({});
    const e = envelope("nearby:s1v0g", { meta: { location: "x" } });
    expect(await sealing.seal(e)).toBe(e);
  });

  const newDevices = [
    { userId: "u-ada", deviceId: "d1", kind: "new-device" as const, key: "k1" },
    { userId: "u-ada", deviceId: "d2", kind: "new-device" as const, key: "k2" },
  ];

  it("seals a direct message's meta inside the ciphertext, and shows a contact's new device before sealing to it", async () => {
    const session: Partial<SealingSession> = {};
    const { sealing, history } = setup(session);
    const room = "dm:u-ada:u-me";
    const noticesWhenSealed: number[] = [];
    let accepted = false;
    const sealDirect = vi.fn(async (e: Envelope, text: string, _peer: string) => {
      noticesWhenSealed.push(history.list(room).filter((m) => m.senderId === "system").length);
      // The protocol seals nothing until the change was acknowledged.
      if (!accepted) return { changes: newDevices, problems: [] };
      return { envelope: { ...e, content: { ciphertext: text } } as unknown as Envelope, changes: [], problems: [] };
    });
    const acknowledge = vi.fn(async () => {
      accepted = true;
    });
    Object.assign(session, { sealDirect, acknowledge });
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    const sealed = await sealing.seal(envelope(room, { meta: { pin: 1 } }));
    expect(sealed.meta).toBeUndefined();
    expect(sealDirect.mock.calls[0]?.[1]).toContain('"meta":{"pin":1}');
    expect(sealDirect.mock.calls[0]?.[2]).toBe("u-ada");
    expect(acknowledge).toHaveBeenCalledWith(newDevices);
    // Shown first, sealed after: the second (sealing) call came once the notice was in the chat.
    expect(noticesWhenSealed).toEqual([0, 1]);
    const said = history.list(room).filter((m) => m.senderId === "system");
    expect(said.map((m) => m.text)).toEqual([
      "Ada has a new device that now receives this chat. If you did not expect it, compare safety numbers in the chat's info.",
    ]);
  });

  it("for a contact marked verified, the message waits in the outbox, saying why, until the person accepts", async () => {
    const room = "dm:u-ada:u-me";
    const sealDirect = vi.fn(async () => ({
      changes: [{ userId: "u-ada", deviceId: "", kind: "account-changed" as const, key: "a2" }],
      problems: [],
    }));
    const acknowledge = vi.fn(async () => {});
    const { sealing, history } = setup({ sealDirect, acknowledge }, [], ["u-ada"]);
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    await expect(sealing.seal(envelope(room))).rejects.toThrow("Ada's security key changed since you verified it, so this message waits");
    expect(acknowledge).not.toHaveBeenCalled();
    expect(sealDirect).toHaveBeenCalledOnce();
    // Said once in the chat, however often the outbox tries again.
    await expect(sealing.seal(envelope(room))).rejects.toThrow();
    expect(
      history
        .list(room)
        .filter((m) => m.senderId === "system")
        .map((m) => m.text),
    ).toEqual(["Ada's security key changed. If you did not expect it, compare safety numbers in the chat's info."]);
  });

  it("says what the server offered that was refused: an older device list", async () => {
    const room = "dm:u-ada:u-me";
    const sealDirect = vi.fn(async (e: Envelope) => ({
      envelope: e,
      changes: [],
      problems: [{ userId: "u-ada", kind: "rolled-back" as const }],
    }));
    const { sealing, history } = setup({ sealDirect });
    await history.add(message(room, "old", { senderId: "u-ada", senderName: "Ada" }));
    await sealing.seal(envelope(room));
    await sealing.seal(envelope(room));
    expect(
      history
        .list(room)
        .filter((m) => m.senderId === "system")
        .map((m) => m.text),
    ).toEqual(["The server offered an older list of Ada's devices; it was refused."]);
  });

  it("hands the group's sender key to the members before sealing, and names who joined since last time", async () => {
    const keyEnvelope = envelope("group:g1", { id: "k1", type: "key" });
    const prepareGroup = vi.fn(async () => ({ envelopes: [keyEnvelope], changes: [], problems: [], waiting: false }));
    const sealGroup = vi.fn(async (e: Envelope) => e);
    const { sealing, history, queued } = setup({ prepareGroup, sealGroup }, [{ userId: "u-me" }, { userId: "u-ada", nickname: "Ada" }]);
    await history.kvSet("members:group:g1", ["u-me"]);
    await sealing.seal(envelope("group:g1"));
    expect(queued.map((i) => i.id)).toEqual(["k1"]);
    expect(sealGroup).toHaveBeenCalledOnce();
    expect(history.list("group:g1").map((m) => m.text)).toEqual(["Ada now receives the messages of this group."]);
  });

  it("refuses what the protocol does not authenticate, and waits on what this device cannot open yet", async () => {
    const open = vi.fn();
    const { sealing } = setup({ open });
    open.mockResolvedValueOnce({ ok: false, reason: "bad-signature" });
    expect(await sealing.open(envelope("dm:u-ada:u-me"))).toEqual({ refused: "bad-signature" });
    open.mockResolvedValueOnce({ ok: false, reason: "no-key" });
    expect(await sealing.open(envelope("group:g1"))).toBeNull();
    open.mockResolvedValueOnce({ ok: true, text: "hi" });
    expect(await sealing.open(envelope("group:g1"))).toEqual({ text: "hi" });
  });

  it("opens group messages that waited once their sender key arrives", async () => {
    const pending = envelope("group:g1", { id: "p1" });
    const { sealing, history } = setup({
      acceptSenderKey: async () => ({ ok: true, changes: [], problems: [] }),
      open: async () => ({ ok: true, text: "now readable" }),
    });
    await history.add(message("group:g1", "p1", { text: null, pending }));
    await sealing.acceptSenderKey(envelope("group:g1", { id: "k1", type: "key" }));
    expect(history.get("group:g1", "p1")).toMatchObject({ text: "now readable", isEncrypted: true, pending: undefined });
  });
});
