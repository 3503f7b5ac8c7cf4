// An in-memory stand-in for the mesh node's IndexedDB (history.ts, outbox.ts), for unit tests in Node.
import type { OutboxItem, StoredMessage } from "./db";
import type { HistoryStore } from "./history";
import type { OutboxStore } from "./outbox";

export function memoryStore(): HistoryStore &
  OutboxStore & { messages: Map<string, StoredMessage>; outbox: Map<string, OutboxItem>; kv: Map<string, unknown> } {
  const messages = new Map<string, StoredMessage>();
  const outbox = new Map<string, OutboxItem>();
  const kv = new Map<string, unknown>();
  return {
    messages,
    outbox,
    kv,
    putMessage: async (m) => void messages.set(m.id, m),
    getMessage: async (id) => messages.get(id),
    deleteMessage: async (id) => void messages.delete(id),
    pruneRoom: async (room, keep) => {
      const all = [...messages.values()].filter((m) => m.room === room).sort((a, b) => a.timestamp - b.timestamp);
      for (const m of all.slice(0, Math.max(0, all.length - keep))) messages.delete(m.id);
      return all.slice(-keep);
    },
    kvGet: async <T>(key: string) => kv.get(key) as T | undefined,
    kvSet: async (key, value) => void kv.set(key, value),
    putOutbox: async (item) => void outbox.set(item.id, item),
    deleteOutbox: async (id) => void outbox.delete(id),
    outboxFor: async (room) => [...outbox.values()].filter((i) => !room || i.room === room),
  };
}

/** A stored message from someone else (or mine with `mine: true`). */
export function message(room: string, id: string, extra: Partial<StoredMessage> = {}): StoredMessage {
  return {
    id,
    room,
    senderId: "u-other",
    senderName: "Ada",
    timestamp: 1_000,
    type: "text",
    text: `text ${id}`,
    mine: false,
    meshRoute: [],
    isEncrypted: false,
    priority: "normal",
    ...extra,
  };
}
