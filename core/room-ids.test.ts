import { describe, expect, it } from "vitest";
import { dmMembers, dmPeer, dmRoomId, isPrivateRoomId, nearbyRoomId, roomKind, shardObjectName } from "./room-ids";

describe("room ids", () => {
  it("name a direct chat the same way from either side, and find the other person", () => {
    const room = dmRoomId("bob", "alice");
    expect(room).toBe(dmRoomId("alice", "bob"));
    expect(dmMembers(room)).toEqual(["alice", "bob"]);
    expect(dmPeer(room, "bob")).toBe("alice");
    expect(dmPeer(room, "alice")).toBe("bob");
    expect(dmPeer(room, "carol")).toBeNull();
  });
  it("refuse what is not a direct chat as one", () => {
    expect(dmPeer("nearby:s1v0g", "bob")).toBeNull();
    expect(dmMembers("dm:alice")).toBeNull();
    expect(dmMembers("dm:alice:bob:carol")).toBeNull();
    expect(dmMembers("group:dm:alice")).toBeNull();
  });
  it("tell area rooms from private ones", () => {
    expect(roomKind(nearbyRoomId("s1v0gxyz"))).toBe("nearby");
    expect(nearbyRoomId("s1v0gxyz")).toBe("nearby:s1v0g");
    expect(isPrivateRoomId("group:abcdefgh")).toBe(true);
    expect(isPrivateRoomId("dm:a:b")).toBe(true);
    expect(isPrivateRoomId("nearby:s1v0g")).toBe(false);
    expect(roomKind("lobby:x")).toBeNull();
  });
});

describe("shard object names", () => {
  it("keeps the room's own object as shard 0 and numbers the others after it", () => {
    expect(shardObjectName("nearby:s0abc", 0)).toBe("nearby:s0abc");
    expect(shardObjectName("nearby:s0abc", 2)).toBe("nearby:s0abc#2");
  });
});
