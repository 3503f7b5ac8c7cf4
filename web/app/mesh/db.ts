// IndexedDB for the mesh node: chat history, the outbox of unsent envelopes, and small key-value records
// (resume cursors, device keys, the room list). Shared by every tab of the browser; a tiny promise wrapper,
// no library.
import type { Envelope } from "../../../core/envelope";
import type { ReceiptStatus } from "../../../core/frames";

export type MessageStatus = "sending" | "sent" | "delivered" | "read";

/** One message as the screen shows it, kept across reloads. */
/** A refusal kept with a message (web/app/i18n/refusal.ts says it in the page's language). */
export type MessageError = string | { key: string } | { error: string; code?: string; values?: Record<string, string | number> };

export interface StoredMessage {
  id: string;
  room: string;
  senderId: string;
  senderName?: string;
  timestamp: number;
  type: Envelope["type"];
  /** Plain text (decrypted for private rooms); null while it cannot be decrypted. */
  text: string | null;
  mine: boolean;
  /** Only for messages this user sent. */
  status?: MessageStatus;
  /** Why a message could not be sent: the API's refusal (by code), the web's own (by catalog key), or the room's words. */
  error?: MessageError;
  seq?: number;
  meshRoute: string[];
  isEncrypted: boolean;
  priority: "normal" | "high";
  isAI?: boolean;
  /** Never sent to a room (assistant questions and answers). */
  local?: boolean;
  /** The receipt this device has sent for someone else's message. */
  receipt?: ReceiptStatus;
  meta?: Record<string, unknown>;
  /** When the room says this message disappears (web/app/mesh/expiry.ts deletes it then). */
  expiresAt?: number;
  /** The envelope as received, kept while it cannot be decrypted yet (a group sender key still on its way). */
  pending?: Envelope;
}

/** An envelope waiting for a transport. Content is plain text; private rooms are encrypted when it leaves. */
export interface OutboxItem {
  id: string;
  room: string;
  envelope: Envelope;
  createdAt: number;
}

const VERSION = 1;
const databases = new Map<string, Promise<IDBDatabase>>();
let currentUser: string | null = null;

/**
 * Whose storage to use: each user of a shared browser has a database of their own, so a second person
 * signing in on the same phone never sees the first one's chats (or their decrypted private messages).
 */
export function selectDbUser(userId: string) {
  currentUser = userId;
}

export function currentDbUser(): string | null {
  return currentUser;
}

export function openDb(): Promise<IDBDatabase> {
  const user = currentUser;
  if (!user) return Promise.reject(new Error("No signed-in user for the chat storage"));
  let opening = databases.get(user);
  if (opening) return opening;
  opening = new Promise((resolve, reject) => {
    const req = indexedDB.open(`linkup-mesh-${user}`, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      const messages = db.createObjectStore("messages", { keyPath: "id" });
      messages.createIndex("room", "room");
      const outbox = db.createObjectStore("outbox", { keyPath: "id" });
      outbox.createIndex("room", "room");
      db.createObjectStore("kv");
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  databases.set(user, opening);
  return opening;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function store(name: "messages" | "outbox" | "kv", mode: IDBTransactionMode) {
  return (await openDb()).transaction(name, mode).objectStore(name);
}

export async function putMessage(m: StoredMessage): Promise<void> {
  await done((await store("messages", "readwrite")).put(m));
}
/** Keeps the newest `keep` messages of a room on this device (phones have little storage). */
export async function pruneRoom(room: string, keep: number): Promise<StoredMessage[]> {
  const all = await roomMessages(room);
  if (all.length <= keep) return all;
  const s = await store("messages", "readwrite");
  for (const m of all.slice(0, all.length - keep)) s.delete(m.id);
  return all.slice(-keep);
}
export async function deleteMessage(id: string): Promise<void> {
  await done((await store("messages", "readwrite")).delete(id));
}
export async function getMessage(id: string): Promise<StoredMessage | undefined> {
  return done((await store("messages", "readonly")).get(id));
}
export async function roomMessages(room: string): Promise<StoredMessage[]> {
  const all = await done((await store("messages", "readonly")).index("room").getAll(room));
  return all.sort(byTime);
}
/** Someone else's message this device has not yet marked read. */
export const isUnread = (m: StoredMessage) => !m.mine && !m.local && m.receipt !== "read" && m.senderId !== "system";
/** Unread messages kept on this device in every room (the Chat tab's badge before the chat has opened). */
export async function storedUnread(): Promise<number> {
  const all = await done((await store("messages", "readonly")).getAll());
  return all.filter(isUnread).length;
}
export const byTime = (a: StoredMessage, b: StoredMessage) => a.timestamp - b.timestamp || (a.seq ?? 0) - (b.seq ?? 0);

/** Resolves once the write is committed, not merely requested: a tab closed right after keeps it. */
export async function putOutbox(item: OutboxItem): Promise<void> {
  const s = await store("outbox", "readwrite");
  s.put(item);
  await new Promise<void>((resolve, reject) => {
    s.transaction.oncomplete = () => resolve();
    s.transaction.onerror = () => reject(s.transaction.error);
    s.transaction.onabort = () => reject(s.transaction.error);
  });
}
export async function deleteOutbox(id: string): Promise<void> {
  await done((await store("outbox", "readwrite")).delete(id));
}
export async function outboxFor(room?: string): Promise<OutboxItem[]> {
  const s = await store("outbox", "readonly");
  const items = await done(room ? s.index("room").getAll(room) : s.getAll());
  // Emergency envelopes (priority high) leave first, then everything in the order it was written.
  const rank = (i: OutboxItem) => (i.envelope.priority === "high" ? 0 : 1);
  return items.sort((a, b) => rank(a) - rank(b) || a.createdAt - b.createdAt);
}

/** What this device keeps for the signed-in person: messages, the chats they belong to, and the outbox. */
export async function storedCounts(): Promise<{ messages: number; chats: number; outbox: number }> {
  const db = await openDb();
  const tx = db.transaction(["messages", "outbox"], "readonly");
  const rooms = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    const req = tx.objectStore("messages").index("room").openKeyCursor(null, "nextunique");
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return resolve();
      rooms.add(String(cursor.key));
      cursor.continue();
    };
    req.onerror = () => reject(req.error);
  });
  const [messages, outbox] = await Promise.all([done(tx.objectStore("messages").count()), done(tx.objectStore("outbox").count())]);
  return { messages, chats: rooms.size, outbox };
}

export async function kvGet<T>(key: string): Promise<T | undefined> {
  return done((await store("kv", "readonly")).get(key));
}
export async function kvSet(key: string, value: unknown): Promise<void> {
  await done((await store("kv", "readwrite")).put(value, key));
}
