// The server as an attacker runs it, for tests of the private-room protocol against it (docs/protocol.md): it
// holds the keys directory (signed device lists, prekey bundles), the groups' membership statements and every
// envelope on the way, and may hand out, withhold, roll back, rewrite or replay any of it. Honest people's
// account keys sign their device lists here only because their own devices would; the attacker never uses them
// in a test except to play that honest part. Shared by core/e2e.test.ts and core/group-epochs.test.ts.
import { vi } from "vitest";
import { createAccountKey, type DeviceList, nextDeviceList, signDeviceList } from "../device-list";
import { createDevice, type DeviceRecord, type DeviceSecrets, E2eSession, type KeyValueStore, type PrekeyUpload } from "../e2e";
import type { Envelope } from "../envelope";
import type { GroupEpoch, GroupServer } from "../group-epochs";
import type { Prekey } from "../x3dh";

/** A device's key store in memory; values are copied in and out, as IndexedDB does. */
export class MemoryStore implements KeyValueStore {
  readonly map = new Map<string, unknown>();
  async get<T>(key: string) {
    return structuredClone(this.map.get(key)) as T | undefined;
  }
  async set(key: string, value: unknown) {
    this.map.set(key, structuredClone(value));
  }
}

export class MaliciousServer {
  /** The device list the directory hands out per person (whatever the server likes). */
  readonly lists = new Map<string, unknown>();
  /** Every list a person published (an attacker keeps them, to serve an old one later). */
  readonly history = new Map<string, DeviceList[]>();
  /** The account keys of honest people: only their own devices use them. */
  readonly accounts = new Map<string, CryptoKeyPair>();
  /** Prekeys by `userId|deviceId`: the signed one and the one-time ones still to hand out. */
  readonly prekeys = new Map<string, { signed?: Prekey; oneTime: Prekey[] }>();
  /** Every bundle handed out (an attacker keeps them). */
  readonly handedOut: unknown[] = [];
  /** Each group's statements as the server hands them out (it may edit this at will). */
  readonly epochs = new Map<string, unknown[]>();
  /**
   * Per device (by its identity key), the newest epoch of each room the server lets it see: statements after it
   * are withheld from that device only (a server partitioning one member off).
   */
  readonly withheld = new Map<string, Map<string, number>>();

  /** An honest device joins its person's list, signed by the person's account key (linked from a device). */
  async publish(record: DeviceRecord, change: { withdraw?: string } = {}): Promise<DeviceList> {
    const account = this.accounts.get(record.userId) ?? (await createAccountKey());
    this.accounts.set(record.userId, account);
    const current = this.history.get(record.userId)?.at(-1) ?? null;
    const list = await signDeviceList(account, nextDeviceList(current, { add: record, ...change }, record.userId));
    this.history.set(record.userId, [...(this.history.get(record.userId) ?? []), list]);
    this.lists.set(record.userId, structuredClone(list));
    return list;
  }

  /** A person withdraws a device (signing out): a new list version with it under `revoked`. */
  async withdraw(userId: string, deviceId: string): Promise<DeviceList> {
    const account = this.accounts.get(userId);
    if (!account) throw new Error(`${userId} has no account key here`);
    const current = this.history.get(userId)?.at(-1) ?? null;
    const list = await signDeviceList(account, nextDeviceList(current, { withdraw: deviceId }, userId));
    this.history.set(userId, [...(this.history.get(userId) ?? []), list]);
    this.lists.set(userId, structuredClone(list));
    return list;
  }

  publishPrekeys(record: DeviceRecord, upload: PrekeyUpload) {
    const id = `${record.userId}|${record.deviceId}`;
    const held = this.prekeys.get(id) ?? { oneTime: [] };
    this.prekeys.set(id, { signed: upload.signedPrekey ?? held.signed, oneTime: [...held.oneTime, ...upload.oneTimePrekeys] });
  }

  directory = {
    deviceList: async (userId: string) => structuredClone(this.lists.get(userId) ?? null),
    bundle: async (userId: string, deviceId: string) => {
      const held = this.prekeys.get(`${userId}|${deviceId}`);
      if (!held?.signed) return undefined;
      const oneTimePrekey = held.oneTime.shift();
      const bundle = { deviceId, signedPrekey: held.signed, ...(oneTimePrekey ? { oneTimePrekey } : {}) };
      this.handedOut.push(bundle);
      return structuredClone(bundle);
    },
  };

  /** What one device asks of `/api/rooms/:id/epochs`: the statements, less what is withheld from it. */
  groupsFor(device: DeviceRecord): GroupServer {
    return {
      epochs: async (room, since) => {
        const upTo = this.withheld.get(device.signingKey)?.get(room) ?? Number.MAX_SAFE_INTEGER;
        return structuredClone(
          (this.epochs.get(room) ?? []).filter((e) => (e as GroupEpoch).epoch >= since && (e as GroupEpoch).epoch <= upTo).slice(0, 20),
        );
      },
      publish: async (room, epoch) => {
        const list = this.epochs.get(room) ?? [];
        if (list.some((e) => (e as GroupEpoch).epoch === epoch.epoch)) return false;
        this.epochs.set(room, [...list, structuredClone(epoch)]);
        return true;
      },
    };
  }

  /** Hands `device` no statement of `room` after `epoch` from now on. */
  withhold(device: DeviceRecord, room: string, epoch: number) {
    const rooms = this.withheld.get(device.signingKey) ?? new Map<string, number>();
    rooms.set(room, epoch);
    this.withheld.set(device.signingKey, rooms);
  }

  /** A copy of an envelope with some fields changed on the way. */
  rewrite(envelope: Envelope, change: (e: Envelope) => void): Envelope {
    const copy = structuredClone(envelope);
    change(copy);
    return copy;
  }

  /** A new honest device of `userId`: listed by its person's account key, its prekeys published. */
  async device(userId: string): Promise<{ secrets: DeviceSecrets; session: E2eSession; store: MemoryStore }> {
    const secrets = await createDevice(userId);
    await this.publish(secrets.record);
    const store = new MemoryStore();
    const session = new E2eSession(secrets, store, this.directory);
    const upload = await session.prekeysToPublish({ signedPrekeyId: null, oneTimePrekeys: 0 });
    if (upload) this.publishPrekeys(secrets.record, upload);
    return { secrets, session, store };
  }
}

/**
 * How many HMACs the device computes while `task` runs: two per ratchet or sender-key chain step, so a test can
 * tell a forgery refused before any chain step (0) from one the receiver worked on first.
 */
export async function hmacsDuring(task: () => Promise<unknown>): Promise<number> {
  const sign = vi.spyOn(crypto.subtle, "sign");
  try {
    await task();
    return sign.mock.calls.filter(([algorithm]) => (typeof algorithm === "string" ? algorithm : algorithm.name) === "HMAC").length;
  } finally {
    sign.mockRestore();
  }
}
