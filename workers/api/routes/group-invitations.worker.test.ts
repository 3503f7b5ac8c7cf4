// Signed invitations and the bounded statement log through the real Worker and D1 (docs/decisions/
// 081-no-silent-join.md, docs/protocol.md §6a): the server keeps the inviter's device's statement with the
// invitation, hands it with the member once accepted, drops it once a statement signs them in, and keeps only a
// group's newest EPOCHS_KEPT statements.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccountKey, nextDeviceList, signDeviceList } from "../../../core/device-list";
import { createDevice, type DeviceSecrets } from "../../../core/e2e";
import { EPOCHS_KEPT, type GroupEpoch, signChange, signGenesis } from "../../../core/group-epochs";
import { signInvitation } from "../../../core/group-invitations";
import { anonymousSession, call } from "../../../tests/workers/helpers";

async function listedDevice(cookie: string, userId: string): Promise<DeviceSecrets> {
  const device = await createDevice(userId, `phone-${userId.slice(0, 8)}`);
  const list = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: device.record }, userId));
  const { userId: _, ...body } = list;
  expect((await call("/api/keys/list", { method: "PUT", cookie, json: body })).status).toBe(200);
  return device;
}

const at = (roomId: string, path = "") => `/api/rooms/${encodeURIComponent(roomId)}${path}`;
const publish = async (cookie: string, roomId: string, statement: unknown) =>
  (await call(at(roomId, "/epochs"), { method: "PUT", cookie, json: statement })).status;
const membersOf = async (cookie: string, roomId: string) =>
  (await (await call(at(roomId, "/members"), { cookie })).json<{ members: { userId: string; invitation?: unknown }[] }>()).members;

async function group(owner: { cookie: string }, name: string) {
  const created = await call("/api/rooms/groups", { method: "POST", cookie: owner.cookie, json: { name } });
  return (await created.json<{ room: { id: string } }>()).room.id;
}

describe("signed invitations", () => {
  it("are kept with the invitation, served with the member once accepted, and dropped once signed in", async () => {
    const owner = await anonymousSession();
    const kemi = await anonymousSession();
    const ada = await anonymousSession();
    const roomId = await group(owner, "Fishermen");
    const phone = await listedDevice(owner.cookie, owner.user.id);
    const genesis = await signGenesis(phone, roomId);
    expect(await publish(owner.cookie, roomId, genesis)).toBe(201);

    const forKemi = await signInvitation(phone, roomId, kemi.user.id, 1);
    // Junk the server refuses to keep: a statement for someone not invited now, one signed by an unlisted device,
    // one with a broken signature. Ada is invited without one (a screen without JavaScript).
    const unlisted = await signInvitation(await createDevice(owner.user.id, "ghost"), roomId, ada.user.id, 1);
    const broken = { ...forKemi, invitee: ada.user.id };
    const invited = await call(at(roomId, "/invitations"), {
      method: "POST",
      cookie: owner.cookie,
      json: { userIds: [kemi.user.id, ada.user.id], signed: [forKemi, unlisted, broken] },
    });
    expect(invited.status).toBe(201);
    expect(await invited.json()).toEqual({ invited: 2, signed: 1 });
    // A statement that is not one is refused at the boundary.
    expect(
      (
        await call(at(roomId, "/invitations"), {
          method: "POST",
          cookie: owner.cookie,
          json: { userIds: [ada.user.id], signed: [{ room: roomId }] },
        })
      ).status,
    ).toBe(400);

    for (const p of [kemi, ada])
      expect((await call(`/api/rooms/invitations/${encodeURIComponent(roomId)}/accept`, { method: "POST", cookie: p.cookie })).status).toBe(
        200,
      );
    const listed = await membersOf(owner.cookie, roomId);
    expect(listed.find((m) => m.userId === kemi.user.id)?.invitation).toEqual(forKemi);
    expect(listed.find((m) => m.userId === ada.user.id)?.invitation).toBeUndefined();

    // The owner's device signs Kemi in: her invitation is spent and no longer served.
    const addKemi = (await signChange(phone, genesis, { kind: "add", userId: kemi.user.id })) as GroupEpoch;
    expect(await publish(owner.cookie, roomId, addKemi)).toBe(201);
    expect((await membersOf(owner.cookie, roomId)).find((m) => m.userId === kemi.user.id)?.invitation).toBeUndefined();
    const row = await env.DB.prepare("SELECT invitation FROM room_members WHERE room_id = ? AND user_id = ?")
      .bind(roomId, kemi.user.id)
      .first();
    expect(row).toEqual({ invitation: null });
  });
});

describe("the statement log", () => {
  it("keeps a group's newest statements only; a member still reads from the oldest kept", async () => {
    const owner = await anonymousSession();
    const roomId = await group(owner, "Busy");
    const phone = await listedDevice(owner.cookie, owner.user.id);
    let last = await signGenesis(phone, roomId);
    expect(await publish(owner.cookie, roomId, last)).toBe(201);
    // The owner's device adds and removes a guest, over and over: more statements than the server keeps.
    const total = EPOCHS_KEPT + 6;
    for (let n = 2; n <= total; n++) {
      const change = n % 2 === 0 ? { kind: "add" as const, userId: "u-guest" } : { kind: "remove" as const, userId: "u-guest" };
      last = (await signChange(phone, last, change)) as GroupEpoch;
      expect(await publish(owner.cookie, roomId, last)).toBe(201);
    }
    const rows = await env.DB.prepare(
      "SELECT min(epoch) AS oldest, max(epoch) AS newest, count(*) AS kept FROM group_epochs WHERE room_id = ?",
    )
      .bind(roomId)
      .first();
    expect(rows).toEqual({ oldest: total - EPOCHS_KEPT + 1, newest: total, kept: EPOCHS_KEPT });
    // A device whose kept epoch was pruned asks from it and gets the oldest kept first (it re-anchors there).
    const read = await (await call(at(roomId, "/epochs?since=2"), { cookie: owner.cookie })).json<{ epochs: GroupEpoch[] }>();
    expect(read.epochs[0]?.epoch).toBe(total - EPOCHS_KEPT + 1);
    // The next statement still chains to the newest kept.
    const next = (await signChange(phone, last, { kind: "add", userId: "u-guest2" })) as GroupEpoch;
    expect(await publish(owner.cookie, roomId, next)).toBe(201);
  });
});
