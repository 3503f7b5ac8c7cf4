// The notification centre and emergency contacts through the real API (workerd, D1).
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db";
import { anonymousSession, call } from "../../tests/workers/helpers";
import type { AppEnv } from "../env";
import { roomPresence } from "../../db/schema";
import { notify, notifyDirectMessage, notifyDirectMessageIfOffline } from "./index";

const db = createDb(env);

type List = {
  notifications: { id: string; title: string; isRead: boolean; type: string; url: string | null }[];
  stats: { total: number; unread: number; emergency: number; today: number };
};
const list = async (cookie: string) => (await (await call("/api/notifications", { cookie })).json()) as List;

describe("notification centre", () => {
  it("lists newest first, marks read, marks all read and deletes, only for the owner", async () => {
    const me = await anonymousSession();
    const other = await anonymousSession();
    await notify(env as AppEnv, db, me.user.id, { type: "system", title: "First", content: "one", priority: "low" });
    await new Promise((r) => setTimeout(r, 5));
    await notify(env as AppEnv, db, me.user.id, { type: "security", title: "Second", content: "two", priority: "high" });
    await new Promise((r) => setTimeout(r, 5));
    await notify(env as AppEnv, db, me.user.id, { type: "emergency", title: "Third", content: "three", priority: "critical" });

    let l = await list(me.cookie);
    expect(l.notifications.map((n) => n.title)).toEqual(["Third", "Second", "First"]);
    expect(l.stats).toMatchObject({ total: 3, unread: 3, emergency: 1, today: 3 });

    const [third, second, first] = l.notifications;
    expect((await call(`/api/notifications/${first.id}/read`, { method: "POST", cookie: other.cookie })).status).toBe(404);
    expect((await call(`/api/notifications/${first.id}/read`, { method: "POST", cookie: me.cookie })).status).toBe(200);
    l = await list(me.cookie);
    expect(l.notifications.find((n) => n.id === first.id)?.isRead).toBe(true);
    expect(l.stats.unread).toBe(2);

    expect((await call(`/api/notifications/${second.id}`, { method: "DELETE", cookie: other.cookie })).status).toBe(404);
    expect((await call(`/api/notifications/${second.id}`, { method: "DELETE", cookie: me.cookie })).status).toBe(200);
    const all = await call("/api/notifications/read-all", { method: "POST", cookie: me.cookie });
    expect(await all.json()).toEqual({ updated: 1 });
    l = await list(me.cookie);
    expect(l.notifications.map((n) => n.id)).toEqual([third.id, first.id]);
    expect(l.stats.unread).toBe(0);
    expect((await list(other.cookie)).notifications).toHaveLength(0);
    expect((await call("/api/notifications")).status).toBe(401);
  });

  it("preferences start at the product's defaults and are saved on the server", async () => {
    const me = await anonymousSession();
    const res = await call("/api/notifications/prefs", { cookie: me.cookie });
    expect(await res.json()).toEqual({
      prefs: {
        messages: true,
        emergencyAlerts: true,
        systemUpdates: true,
        aiInsights: true,
        securityAlerts: true,
        marketUpdates: false,
        quietHours: false,
        quietStart: "22:00",
        quietEnd: "07:00",
      },
    });
    const put = await call("/api/notifications/prefs", {
      method: "PUT",
      cookie: me.cookie,
      json: { marketUpdates: true, quietStart: "23:30" },
    });
    expect(put.status).toBe(200);
    const again = (await (await call("/api/notifications/prefs", { cookie: me.cookie })).json()) as { prefs: Record<string, unknown> };
    expect(again.prefs).toMatchObject({ marketUpdates: true, quietStart: "23:30", messages: true });
    // One quiet-hours window: the settings screen (users) and the notification centre agree.
    const meNow = (await (await call("/api/me", { cookie: me.cookie })).json()) as { user: { settings: { quietStart: string } } };
    expect(meNow.user.settings.quietStart).toBe("23:30");
    await call("/api/me", { method: "PATCH", cookie: me.cookie, json: { quietEnd: "06:15" } });
    const fromSettings = (await (await call("/api/notifications/prefs", { cookie: me.cookie })).json()) as {
      prefs: Record<string, unknown>;
    };
    expect(fromSettings.prefs.quietEnd).toBe("06:15");
    const bad = await call("/api/notifications/prefs", { method: "PUT", cookie: me.cookie, json: { quietStart: "25:00" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain("Use HH:MM");
  });

  it("a direct message notification names the sender but never carries the text", async () => {
    const me = await anonymousSession();
    await notifyDirectMessage(env as AppEnv, db, { recipientId: me.user.id, senderName: "Calm Baobab", roomId: "dm:a:b" });
    const [n] = (await list(me.cookie)).notifications;
    expect(n).toMatchObject({ type: "message", title: "New message from Calm Baobab", url: "/chat?room=dm%3Aa%3Ab" });
  });
});

describe("direct messages", () => {
  it("notify only a recipient with no open connection", async () => {
    const me = await anonymousSession();
    // Present in an area room as of its last batch (docs/decisions/056-the-room-is-the-record-of-its-messages.md).
    await db.insert(roomPresence).values({ userId: me.user.id, roomId: "nearby:s14mh", sockets: 1 });
    const input = { recipientId: me.user.id, senderName: "Kind Falcon", roomId: "dm:x:y" };
    expect(await notifyDirectMessageIfOffline(env as AppEnv, db, input)).toBe(false);
    expect((await list(me.cookie)).notifications).toHaveLength(0);
    await db.delete(roomPresence).where(eq(roomPresence.userId, me.user.id));
    expect(await notifyDirectMessageIfOffline(env as AppEnv, db, input)).toBe(true);
    expect((await list(me.cookie)).notifications.map((n) => n.title)).toEqual(["New message from Kind Falcon"]);
  });
});

describe("emergency contacts", () => {
  it("adds (normalising the phone), edits, lists and deletes the user's own contacts", async () => {
    const me = await anonymousSession();
    const other = await anonymousSession();
    const add = await call("/api/contacts", { method: "POST", cookie: me.cookie, json: { name: "Mum", phone: "0803 123 4567" } });
    expect(add.status).toBe(201);
    const { contact } = (await add.json()) as { contact: { id: string; phone: string } };
    expect(contact.phone).toBe("+2348031234567");
    const bad = await call("/api/contacts", { method: "POST", cookie: me.cookie, json: { name: "", phone: "abc" } });
    expect(bad.status).toBe(400);
    expect(
      (await call(`/api/contacts/${contact.id}`, { method: "PUT", cookie: other.cookie, json: { name: "X", phone: "08030000000" } }))
        .status,
    ).toBe(404);
    const edit = await call(`/api/contacts/${contact.id}`, {
      method: "PUT",
      cookie: me.cookie,
      json: { name: "Mother", phone: "08031234567" },
    });
    expect(edit.status).toBe(200);
    const listed = (await (await call("/api/contacts", { cookie: me.cookie })).json()) as { contacts: { name: string }[] };
    expect(listed.contacts.map((c) => c.name)).toEqual(["Mother"]);
    expect((await call(`/api/contacts/${contact.id}`, { method: "DELETE", cookie: other.cookie })).status).toBe(404);
    expect((await call(`/api/contacts/${contact.id}`, { method: "DELETE", cookie: me.cookie })).status).toBe(200);
    expect(((await (await call("/api/contacts", { cookie: me.cookie })).json()) as { contacts: unknown[] }).contacts).toHaveLength(0);
  });
});
