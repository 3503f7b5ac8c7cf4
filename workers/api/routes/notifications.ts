import { Hono } from "hono";
import { NotificationPrefsSchema, NotificationsQuerySchema, type NotificationView } from "../../../core/sos-schemas";
import {
  deleteNotification,
  getPrefs,
  listNotifications,
  markAllRead,
  markRead,
  type NotificationRow,
  notificationStats,
  savePrefs,
} from "../../../db/queries/notifications";
import { requireUser, unreadNotifications } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson, parseWith } from "../../errors";
import { DomainError } from "../../../core/domain-error";

const view = (n: NotificationRow): NotificationView => ({
  id: n.id,
  type: n.type,
  title: n.title,
  content: n.content,
  priority: n.priority,
  isRead: n.isRead,
  actionRequired: n.actionRequired,
  source: n.source,
  url: n.url,
  timestamp: n.createdAt.toISOString(),
});

export const notificationsApi = new Hono<AppBindings>()
  .get("/notifications", async (c) => {
    const user = requireUser(c);
    const q = parseWith(NotificationsQuerySchema, c.req.query());
    const [rows, stats] = await Promise.all([listNotifications(c.var.db, user.id, q), notificationStats(c.var.db, user.id)]);
    return c.json({ notifications: rows.map(view), stats });
  })
  .get("/notifications/unread-count", async (c) => {
    const user = requireUser(c);
    return c.json({ unread: await unreadNotifications(c, user) });
  })
  .get("/notifications/prefs", async (c) => {
    const user = requireUser(c);
    return c.json({ prefs: await getPrefs(c.var.db, user.id) });
  })
  .put("/notifications/prefs", async (c) => {
    const user = requireUser(c);
    const patch = await parseJson(c, NotificationPrefsSchema);
    return c.json({ prefs: await savePrefs(c.var.db, user.id, patch) });
  })
  .post("/notifications/read-all", async (c) => {
    const user = requireUser(c);
    return c.json({ updated: await markAllRead(c.var.db, user.id) });
  })
  .post("/notifications/:id/read", async (c) => {
    const user = requireUser(c);
    if (!(await markRead(c.var.db, user.id, c.req.param("id")))) throw new DomainError("notification_not_found", "Notification not found");
    return c.json({ ok: true });
  })
  .delete("/notifications/:id", async (c) => {
    const user = requireUser(c);
    if (!(await deleteNotification(c.var.db, user.id, c.req.param("id"))))
      throw new DomainError("notification_not_found", "Notification not found");
    return c.json({ ok: true });
  });
