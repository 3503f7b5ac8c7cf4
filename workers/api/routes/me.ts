import { Hono } from "hono";
import { recordEvent } from "../../analytics";
import { fromAcceptLanguage } from "../../../core/i18n/languages";
import { LocationSchema, UpdateMeSchema } from "../../../core/schemas";
import { encodeGeohash } from "../../../core/geohash";
import { createUser, saveUserLocation, updateUser } from "../../../db/queries/users";
import { toMe } from "../../auth/me";
import { withTownArea } from "../../rooms/rooms";
import { endSession, requireUser, startSession, unreadNotifications } from "../../auth/session";
import type { AppBindings } from "../../env";
import { parseJson } from "../../errors";
import { DomainError } from "../../../core/domain-error";
import { requireAnonymousStartAllowed } from "../../limits";
import { requireDeviceNotBanned } from "../../auth/device";
import { DELETE_ACCOUNT_PHRASE, DELETE_ACCOUNT_WRONG, DeleteAccountSchema, isDeletePhrase } from "../../../core/identity-schemas";
import { deleteAccount, exportMyData } from "../../identity/my-data";
import { followWebLanguage } from "../../channels";
import { sosBannerForCell, sosBannerFrom } from "../../sos/banner";

export const me = new Hono<AppBindings>()
  // With the Alerts badge's count and the SOS banner, read in the session's own statement: a page's shell asks once
  // (docs/decisions/057).
  .get("/me", async (c) => {
    const user = requireUser(c);
    const read = c.var.sessionUnread;
    // The SOS banner every screen shows, found in the same statement (docs/decisions/062).
    // An API key reads no session statement (sessionUnread null): the cell's, through the edge cache.
    const sosNearby =
      read?.userId === user.id && read.sosNearby !== undefined ? sosBannerFrom(read.sosNearby) : await sosBannerForCell(c.var.db, user);
    return c.json({ user: toMe(user), notificationsUnread: await unreadNotifications(c, user), sosNearby });
  })
  .patch("/me", async (c) => {
    const user = requireUser(c);
    const patch = await parseJson(c, UpdateMeSchema);
    const updated = await updateUser(c.var.db, user.id, withTownArea(user, patch));
    await followWebLanguage(c.var.db, user.phone, patch.language);
    return c.json({ user: toMe(updated ?? user) });
  })
  // My data (docs/decisions/029-security-events-and-my-data.md): everything LinkUp holds about me, as a JSON download.
  .get("/me/export", async (c) => {
    const user = requireUser(c);
    c.header("Content-Disposition", 'attachment; filename="linkup-my-data.json"');
    return c.json(await exportMyData(c.env, c.var.db, user, c.var.sessionHash));
  })
  // Account deletion, confirmed by the typed phrase; every session ends with the account.
  .delete("/me", async (c) => {
    const user = requireUser(c);
    const { confirm } = await parseJson(c, DeleteAccountSchema);
    if (!isDeletePhrase(confirm))
      throw new DomainError("delete_phrase_wrong", DELETE_ACCOUNT_WRONG, { values: { phrase: DELETE_ACCOUNT_PHRASE } });
    const removed = await deleteAccount(c.env, c.var.db, user);
    await endSession(c);
    return c.json({ ok: true, ...removed });
  })
  .put("/me/location", async (c) => {
    const user = requireUser(c);
    const { latitude, longitude } = await parseJson(c, LocationSchema);
    const geohash = encodeGeohash(latitude, longitude);
    await saveUserLocation(c.var.db, user.id, { latitude, longitude, geohash });
    return c.json({ geohash, room: `nearby:${geohash}` });
  })
  .post("/auth/anonymous", async (c) => {
    // Already signed in: keep that identity rather than orphaning it.
    if (c.var.user) return c.json({ user: toMe(c.var.user) });
    await requireDeviceNotBanned(c);
    await requireAnonymousStartAllowed(c);
    const user = await createUser(c.var.db, { language: fromAcceptLanguage(c.req.header("accept-language")) ?? undefined });
    await recordEvent(c.var.db, "signup");
    await startSession(c, user.id);
    return c.json({ user: toMe(user) }, 201);
  })
  .post("/auth/logout", async (c) => {
    await endSession(c);
    return c.json({ ok: true });
  });
