// The relay taking what phones carried for others on the phone mesh (docs/decisions/066-phones-paired-by-code.md):
// through the real Worker, D1 and the area room's Durable Object.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDevice, type DeviceSecrets } from "../../core/e2e";
import type { Envelope } from "../../core/envelope";
import { toBase64Url } from "../../core/ids";
import { meshSignedBytes } from "../../core/peer-mesh";
import { adminSession, anonymousSession, call, setBanned, shareAnAreaRoom } from "../../tests/workers/helpers";
import { mustOpen, textEnvelope } from "../../tests/workers/room-socket";

async function publishedDevice(cookie: string, userId: string): Promise<DeviceSecrets> {
  const device = await createDevice(userId, `phone-${userId.slice(0, 6)}`);
  const { userId: _, ...record } = device.record;
  expect((await call("/api/keys", { method: "PUT", cookie, json: record })).status).toBe(200);
  return device;
}

/** An envelope as the sending phone signs it before it goes on the mesh (web/app/mesh/phone-mesh.ts). */
async function signed(device: DeviceSecrets, envelope: Envelope): Promise<Envelope> {
  const sig = await crypto.subtle.sign({ name: "Ed25519" }, device.signing.privateKey, meshSignedBytes(envelope));
  return { ...envelope, meta: { ...envelope.meta, mesh: { device: device.record.deviceId, sig: toBase64Url(new Uint8Array(sig)) } } };
}

async function areaOf(cookie: string): Promise<string> {
  const rooms = await (await call("/api/rooms", { cookie })).json<{ nearby: { roomId: string } | null }>();
  return rooms.nearby?.roomId as string;
}

const relay = (cookie: string, envelopes: unknown[]) => call("/api/mesh/relay", { method: "POST", cookie, json: { envelopes } });

describe("the relay takes what phones carried for others", () => {
  it("stores a message handed in by another phone once, however many phones and the sender hand it in", async () => {
    const ada = await anonymousSession();
    const bayo = await anonymousSession();
    const chidi = await anonymousSession();
    await shareAnAreaRoom(ada, bayo, chidi);
    const room = await areaOf(ada.cookie);
    const device = await publishedDevice(ada.cookie, ada.user.id);
    const sent = await signed(
      device,
      textEnvelope(room, ada.user.id, "Water at the north gate", { meshRoute: ["Ada · tab-1", "Bayo · tab-2"] }),
    );
    const listener = await mustOpen(room, chidi.cookie);

    const first = await relay(bayo.cookie, [sent]);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ taken: [sent.id], refused: [] });
    // The same envelope again, from a second phone, and then from Ada's own outbox when she is back.
    expect(await (await relay(chidi.cookie, [sent])).json()).toEqual({ taken: [sent.id], refused: [] });
    const own = await mustOpen(room, ada.cookie);
    own.send({ type: "send", envelope: { ...sent, meta: undefined } });
    await own.waitFor((frames) => frames.some((f) => f.type === "ack" && f.id === sent.id));

    const copies = await listener.waitFor((frames) => {
      const found = frames.filter((f) => f.type === "envelope" && f.envelope.id === sent.id);
      return found.length ? found : undefined;
    });
    expect(copies).toHaveLength(1);
    const copy = copies[0] as Extract<(typeof copies)[number], { type: "envelope" }>;
    expect(copy.envelope.senderId).toBe(ada.user.id);
    expect(copy.envelope.content).toEqual({ text: "Water at the north gate" });
    const stored = await env.ROOMS.get(env.ROOMS.idFromName(room)).stats();
    expect(stored.stored).toBe(1);
  });

  it("refuses an envelope a relaying phone rewrote or signed for someone else", async () => {
    const ada = await anonymousSession();
    const bayo = await anonymousSession();
    await shareAnAreaRoom(ada, bayo);
    const room = await areaOf(ada.cookie);
    const adaDevice = await publishedDevice(ada.cookie, ada.user.id);
    const bayoDevice = await publishedDevice(bayo.cookie, bayo.user.id);
    const honest = await signed(adaDevice, textEnvelope(room, ada.user.id, "Meet at noon"));
    const rewritten = { ...honest, content: { text: "Meet at midnight" } };
    // Bayo's own key on a message that says it is Ada's.
    const posing = await signed(bayoDevice, textEnvelope(room, ada.user.id, "Send me money"));
    const unsigned = textEnvelope(room, ada.user.id, "No signature");
    const answer = await (await relay(bayo.cookie, [rewritten, posing, unsigned])).json();
    expect(answer).toEqual({
      taken: [],
      refused: [
        { id: rewritten.id, reason: "signature" },
        { id: posing.id, reason: "signature" },
        { id: unsigned.id, reason: "signature" },
      ],
    });
    expect((await env.ROOMS.get(env.ROOMS.idFromName(room)).stats()).stored).toBe(0);
  });

  it("takes only public area rooms, and nothing from a stranger without a session", async () => {
    const ada = await anonymousSession();
    const bayo = await anonymousSession();
    await shareAnAreaRoom(ada, bayo);
    const device = await publishedDevice(ada.cookie, ada.user.id);
    const dm = await signed(device, textEnvelope(`dm:${[ada.user.id, bayo.user.id].sort().join(":")}`, ada.user.id, "secret"));
    expect(await (await relay(bayo.cookie, [dm])).json()).toEqual({ taken: [], refused: [{ id: dm.id, reason: "not_relayable" }] });
    expect((await relay("", [dm])).status).toBe(401);
  });

  it("refuses the words of a person banned since they were carried", async () => {
    const ada = await anonymousSession();
    const bayo = await anonymousSession();
    await shareAnAreaRoom(ada, bayo);
    const room = await areaOf(ada.cookie);
    const device = await publishedDevice(ada.cookie, ada.user.id);
    const sent = await signed(device, textEnvelope(room, ada.user.id, "Buy my fake medicine"));
    await setBanned(await adminSession(), ada.user.id, true);
    expect(await (await relay(bayo.cookie, [sent])).json()).toEqual({ taken: [], refused: [{ id: sent.id, reason: "banned" }] });
    expect((await env.ROOMS.get(env.ROOMS.idFromName(room)).stats()).stored).toBe(0);
  });

  it("raises an SOS handed in by another phone once, as its sender's", async () => {
    const ada = await anonymousSession();
    const bayo = await anonymousSession();
    await shareAnAreaRoom(ada, bayo);
    const room = await areaOf(ada.cookie);
    const device = await publishedDevice(ada.cookie, ada.user.id);
    const sos = await signed(
      device,
      textEnvelope(room, ada.user.id, "🆘 SOS: I need help urgently.", { type: "emergency", priority: "high" }),
    );
    const listener = await mustOpen(room, bayo.cookie);
    expect(await (await relay(bayo.cookie, [sos])).json()).toEqual({ taken: [sos.id], refused: [] });
    // The room's alert names the mesh envelope it answers: a phone that showed that one shows one SOS.
    const alert = await listener.waitForType("envelope", (f) => f.envelope.type === "emergency");
    expect(alert.envelope).toMatchObject({ senderId: ada.user.id, meta: { clientRequestId: sos.id } });
    expect(alert.envelope.id).not.toBe(sos.id);
    expect(await (await relay(bayo.cookie, [sos])).json()).toEqual({ taken: [sos.id], refused: [] });
    const rows = await env.DB.prepare("SELECT user_id AS userId, message FROM emergency_broadcasts WHERE client_request_id = ?")
      .bind(sos.id)
      .all<{ userId: string; message: string }>();
    expect(rows.results).toEqual([{ userId: ada.user.id, message: "🆘 SOS: I need help urgently." }]);
  });
});
