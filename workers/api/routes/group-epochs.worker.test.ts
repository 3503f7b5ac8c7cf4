// A private group's signed membership through the real Worker and D1 (docs/protocol.md §6a): only members read
// and publish statements, each under their own name and signed by a device of their signed list; the server
// keeps one statement per epoch, refuses a change by someone without the right and one not chained to the
// stored epoch; the owner removes a member, who then reads nothing more.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAccountKey, nextDeviceList, signDeviceList } from "../../../core/device-list";
import { createDevice, type DeviceSecrets } from "../../../core/e2e";
import { epochHash, type GroupEpoch, signChange, signEpoch, signGenesis } from "../../../core/group-epochs";
import { anonymousSession, call } from "../../../tests/workers/helpers";

/** A person's device, published in their signed device list (what the server checks a statement's signer against). */
async function listedDevice(cookie: string, userId: string): Promise<DeviceSecrets> {
  const device = await createDevice(userId, `phone-${userId.slice(0, 8)}`);
  const list = await signDeviceList(await createAccountKey(), nextDeviceList(null, { add: device.record }, userId));
  const { userId: _, ...body } = list;
  expect((await call("/api/keys/list", { method: "PUT", cookie, json: body })).status).toBe(200);
  return device;
}

const epochs = async (cookie: string, roomId: string, since = 1) => {
  const res = await call(`/api/rooms/${encodeURIComponent(roomId)}/epochs?since=${since}`, { cookie });
  return { status: res.status, epochs: res.status === 200 ? (await res.json<{ epochs: GroupEpoch[] }>()).epochs : [] };
};
const publish = async (cookie: string, roomId: string, statement: unknown) =>
  (await call(`/api/rooms/${encodeURIComponent(roomId)}/epochs`, { method: "PUT", cookie, json: statement })).status;

describe("group membership epochs", () => {
  it("are read and published by members only, signed by their own listed device, one per epoch, by those with the right", async () => {
    const owner = await anonymousSession();
    const bob = await anonymousSession();
    const outsider = await anonymousSession();
    const created = await call("/api/rooms/groups", {
      method: "POST",
      cookie: owner.cookie,
      json: { name: "Market", memberIds: [bob.user.id] },
    });
    const roomId = (await created.json<{ room: { id: string } }>()).room.id;
    const ownerPhone = await listedDevice(owner.cookie, owner.user.id);
    const bobPhone = await listedDevice(bob.cookie, bob.user.id);
    const outsiderPhone = await listedDevice(outsider.cookie, outsider.user.id);

    const genesis = await signGenesis(ownerPhone, roomId);
    // An outsider (not a member in D1) neither reads nor writes the group's statements.
    expect(await publish(outsider.cookie, roomId, await signGenesis(outsiderPhone, roomId))).toBe(403);
    expect((await epochs(outsider.cookie, roomId)).status).toBe(403);
    // Junk is refused at the boundary; a statement under someone else's name, or signed by an unlisted device, too.
    expect(await publish(owner.cookie, roomId, { ...genesis, members: "everyone" })).toBe(400);
    expect(await publish(owner.cookie, roomId, { ...genesis, room: "group:other" })).toBe(400);
    const ghost = await createDevice(owner.user.id, "ghost");
    expect(await publish(owner.cookie, roomId, await signGenesis(ghost, roomId))).toBe(400);
    expect(await publish(owner.cookie, roomId, genesis)).toBe(201);
    // The same statement again (another tab of the same device) is a repeat; another epoch 1 is refused.
    expect(await publish(owner.cookie, roomId, genesis)).toBe(200);
    const otherGenesis = await signGenesis(ownerPhone, roomId, [{ userId: bob.user.id, role: "member" }]);
    expect(await publish(owner.cookie, roomId, otherGenesis)).toBe(409);

    // Bob accepts the invitation; the owner's device signs him in.
    expect((await call(`/api/rooms/invitations/${encodeURIComponent(roomId)}/accept`, { method: "POST", cookie: bob.cookie })).status).toBe(
      200,
    );
    const addBob = (await signChange(ownerPhone, genesis, { kind: "add", userId: bob.user.id })) as GroupEpoch;
    // Bob cannot publish the owner's statement under his session; then, a member but not an admin, he cannot
    // remove the owner; and a statement not chained to epoch 2 is refused.
    expect(await publish(bob.cookie, roomId, addBob)).toBe(403);
    expect(await publish(owner.cookie, roomId, addBob)).toBe(201);
    const bobRemovesOwner = await signEpoch(bobPhone, {
      room: roomId,
      epoch: 3,
      prev: await epochHash(addBob),
      members: [{ userId: bob.user.id, role: "owner" }],
      change: { kind: "remove", userId: owner.user.id },
    });
    expect(await publish(bob.cookie, roomId, bobRemovesOwner)).toBe(403);
    const unchained = (await signChange(ownerPhone, genesis, { kind: "add", userId: outsider.user.id })) as GroupEpoch;
    expect(await publish(owner.cookie, roomId, { ...unchained, epoch: 3 })).toBe(409);
    // Both racing for epoch 3: the first stored wins, the second gets 409 and must sign again.
    const ownerLeaves = (await signChange(ownerPhone, addBob, { kind: "remove", userId: owner.user.id })) as GroupEpoch;
    const bobLeaves = (await signChange(bobPhone, addBob, { kind: "remove", userId: bob.user.id })) as GroupEpoch;
    expect(await publish(bob.cookie, roomId, bobLeaves)).toBe(201);
    expect(await publish(owner.cookie, roomId, ownerLeaves)).toBe(409);

    const read = await epochs(bob.cookie, roomId);
    expect(read.epochs.map((e) => [e.epoch, e.change.kind])).toEqual([
      [1, "create"],
      [2, "add"],
      [3, "remove"],
    ]);
    expect(read.epochs[1]).toEqual(addBob);
    expect((await epochs(bob.cookie, roomId, 3)).epochs.map((e) => e.epoch)).toEqual([3]);
    // Stored as the device signed it, one row per epoch.
    const rows = await env.DB.prepare("SELECT epoch FROM group_epochs WHERE room_id = ? ORDER BY epoch").bind(roomId).all();
    expect(rows.results).toEqual([{ epoch: 1 }, { epoch: 2 }, { epoch: 3 }]);
  });

  it("the owner removes a member, who can no longer read the group's statements or enter it", async () => {
    const owner = await anonymousSession();
    const bob = await anonymousSession();
    const carol = await anonymousSession();
    const created = await call("/api/rooms/groups", {
      method: "POST",
      cookie: owner.cookie,
      json: { name: "Choir", memberIds: [bob.user.id, carol.user.id] },
    });
    const roomId = (await created.json<{ room: { id: string } }>()).room.id;
    for (const p of [bob, carol])
      await call(`/api/rooms/invitations/${encodeURIComponent(roomId)}/accept`, { method: "POST", cookie: p.cookie });
    const remove = (by: string, who: string) =>
      call(`/api/rooms/${encodeURIComponent(roomId)}/members/${who}/remove`, { method: "POST", cookie: by });
    // Only the owner removes someone.
    expect((await remove(bob.cookie, carol.user.id)).status).toBe(403);
    expect((await remove(owner.cookie, owner.user.id)).status).toBe(400);
    expect((await remove(owner.cookie, carol.user.id)).status).toBe(200);
    expect((await remove(owner.cookie, carol.user.id)).status).toBe(404);
    expect((await epochs(carol.cookie, roomId)).status).toBe(403);
    expect((await call(`/api/rooms/${encodeURIComponent(roomId)}/members`, { cookie: carol.cookie })).status).toBe(403);
    const members = await (await call(`/api/rooms/${encodeURIComponent(roomId)}/members`, { cookie: bob.cookie })).json<{
      members: { userId: string }[];
    }>();
    expect(members.members.map((m) => m.userId).sort()).toEqual([owner.user.id, bob.user.id].sort());
  });
});
