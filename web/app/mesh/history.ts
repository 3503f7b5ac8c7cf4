// The mesh node's history: the messages of each open room, kept in memory for the screen and in IndexedDB
// across reloads and tabs. Ids already handled are remembered (each envelope is shown and stored once), and
// so are the ids this device forgot, so the room's resume does not bring them back.
import { newId } from "../../../core/ids";
import * as db from "./db";
import type { MessageStatus, StoredMessage } from "./db";
import { ExpiryWatch, purgeExpired } from "./expiry";
import { SeenIds } from "./logic";
import type { MessageError } from "./db";

/** Messages kept per room on this device (the room itself keeps at least 1,000 or 7 days). */
export const HISTORY_KEPT = 2000;
/** Forgotten ids remembered per room. */
const FORGOTTEN_KEPT = 2000;

/** The storage the history needs (IndexedDB in the browser, a map in unit tests). */
export interface HistoryStore {
  putMessage(m: StoredMessage): Promise<void>;
  getMessage(id: string): Promise<StoredMessage | undefined>;
  deleteMessage(id: string): Promise<void>;
  pruneRoom(room: string, keep: number): Promise<StoredMessage[]>;
  kvGet<T>(key: string): Promise<T | undefined>;
  kvSet(key: string, value: unknown): Promise<void>;
}

export const indexedDbStore: HistoryStore = db;

export interface HistoryEvents {
  /** Something the screen shows changed. */
  changed(): void;
  /** Stored messages changed: the other tabs re-read them (the local mesh's `changed`). */
  tell(room: string, ids: string[]): void;
}

export class History {
  private readonly messages = new Map<string, Map<string, StoredMessage>>();
  readonly seen = new SeenIds();
  private readonly forgotten = new Set<string>();
  /** Disappearing messages leave this device when due, as if forgotten (docs/decisions/040-disappearing-messages.md). */
  private readonly expiry = new ExpiryWatch((room, ids) => void this.forget(room, ids));
  private purged: Promise<unknown> | null = null;

  constructor(
    private readonly events: HistoryEvents,
    private readonly store: HistoryStore = indexedDbStore,
  ) {}

  /** Reads a room's kept history (pruned to HISTORY_KEPT) and its forgotten ids into memory. */
  async load(room: string): Promise<void> {
    // Once per page: what expired in any chat while LinkUp was closed goes first.
    this.purged ??= this.store === indexedDbStore ? purgeExpired().catch(() => 0) : Promise.resolve();
    await this.purged;
    const [history, forgotten] = await Promise.all([
      this.store.pruneRoom(room, HISTORY_KEPT),
      this.store.kvGet<string[]>(`forgotten:${room}`),
    ]);
    for (const id of forgotten ?? []) this.forgotten.add(id);
    const map = this.messages.get(room) ?? new Map<string, StoredMessage>();
    for (const m of history) {
      map.set(m.id, m);
      this.seen.add(m.id);
    }
    this.messages.set(room, map);
    this.expiry.watch(history);
  }

  rooms(): IterableIterator<string> {
    return this.messages.keys();
  }
  has(room: string): boolean {
    return this.messages.has(room);
  }
  isForgotten(id: string): boolean {
    return this.forgotten.has(id);
  }

  /** Messages of a room, oldest first. */
  list(room: string): StoredMessage[] {
    return [...this.of(room)].sort(db.byTime);
  }
  /** Messages of a room in no particular order. */
  of(room: string): Iterable<StoredMessage> {
    return this.messages.get(room)?.values() ?? [];
  }
  get(room: string, id: string): StoredMessage | undefined {
    return this.messages.get(room)?.get(id);
  }
  /** A message held in memory, or else as stored (another tab may have written it). */
  async find(room: string, id: string): Promise<StoredMessage | undefined> {
    return this.get(room, id) ?? (await this.store.getMessage(id));
  }
  stored(id: string): Promise<StoredMessage | undefined> {
    return this.store.getMessage(id);
  }
  /** Small records kept beside the messages (resume cursors, known group members). */
  kvGet<T>(key: string): Promise<T | undefined> {
    return this.store.kvGet<T>(key);
  }
  kvSet(key: string, value: unknown): Promise<void> {
    return this.store.kvSet(key, value);
  }

  /** Messages from others in a room not yet read on this device. */
  unread(room: string): number {
    let n = 0;
    for (const m of this.of(room)) if (db.isUnread(m)) n++;
    return n;
  }
  unreadTotal(): number {
    let n = 0;
    for (const room of this.messages.keys()) n += this.unread(room);
    return n;
  }
  /** My messages still waiting to reach the room, in every room. */
  pending(): number {
    let n = 0;
    for (const map of this.messages.values()) for (const m of map.values()) if (m.mine && m.status === "sending" && !m.local) n++;
    return n;
  }
  /** Status of my message as the outbox sees it. */
  status(room: string, id: string): MessageStatus | undefined {
    return this.get(room, id)?.status;
  }

  /** Holds a message in memory (already stored). */
  remember(m: StoredMessage) {
    let map = this.messages.get(m.room);
    if (!map) {
      map = new Map();
      this.messages.set(m.room, map);
    }
    map.set(m.id, m);
    this.events.changed();
    this.expiry.watch([m]);
  }

  /** Stores a message and holds it; `tell` lets the other tabs know. */
  async update(m: StoredMessage, tell = true) {
    await this.store.putMessage(m);
    this.remember(m);
    if (tell) this.events.tell(m.room, [m.id]);
  }

  /** Stores a new message without telling other tabs (they see it when it reaches the room, or never). */
  async add(m: StoredMessage) {
    await this.store.putMessage(m);
    this.remember(m);
  }

  /** Shows why a message could not be sent. */
  async setError(room: string, id: string, error: MessageError) {
    const m = await this.find(room, id);
    if (m && JSON.stringify(m.error) !== JSON.stringify(error)) await this.update({ ...m, error });
  }

  /** A message only this device sees (the assistant's questions and answers). */
  async addLocal(
    room: string,
    me: { id: string; nickname: string },
    text: string,
    opts: { isAI?: boolean; mine?: boolean; meta?: Record<string, unknown> } = {},
  ): Promise<StoredMessage> {
    const message: StoredMessage = {
      id: newId(),
      room,
      senderId: opts.isAI ? "ai" : me.id,
      senderName: opts.isAI ? "LIA Assistant" : me.nickname,
      timestamp: Date.now(),
      type: opts.isAI ? "ai" : "text",
      text,
      mine: opts.mine ?? !opts.isAI,
      meshRoute: [],
      isEncrypted: false,
      priority: "normal",
      isAI: opts.isAI,
      local: true,
      meta: opts.meta,
    };
    await this.add(message);
    return message;
  }

  /** A security notice in a chat, on this device only. */
  /** A line from this device itself; `meta` lets each screen word it in the person's language. */
  async notice(room: string, text: string, at: number, meta?: Record<string, unknown>) {
    await this.add({
      id: newId(),
      room,
      senderId: "system",
      senderName: "Security",
      timestamp: at,
      type: "system",
      text,
      mine: false,
      meshRoute: [],
      isEncrypted: false,
      priority: "normal",
      local: true,
      meta,
    });
  }

  /** Deletes messages from this device only (the room and other people keep theirs). */
  async forget(room: string, ids: string[]) {
    // Remembered, so the room's resume does not bring them back.
    const gone = [...((await this.store.kvGet<string[]>(`forgotten:${room}`)) ?? []), ...ids].slice(-FORGOTTEN_KEPT);
    await this.store.kvSet(`forgotten:${room}`, gone);
    for (const id of ids) {
      this.forgotten.add(id);
      await this.store.deleteMessage(id);
      this.messages.get(room)?.delete(id);
    }
    this.events.tell(room, ids);
    this.events.changed();
  }

  /** Another tab changed stored messages: read them again (gone ones were deleted there). */
  async reload(room: string, ids: string[]) {
    if (!this.messages.has(room)) return;
    for (const id of ids) {
      const m = await this.store.getMessage(id);
      if (m) {
        this.seen.add(id);
        this.remember(m);
      } else if (this.messages.get(room)?.delete(id)) this.events.changed();
    }
  }
}
