// The device cookie (docs/decisions/038-reports-and-device-bans.md): a random token a browser keeps for 400
// days, set at its first sign-in; the database holds only its HMAC, tied to every account signed in from it.
// A ban covers those browsers: a banned person cannot start a fresh anonymous identity from the same one.
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { BANNED_MESSAGE } from "../../core/admin-schemas";
import { newId } from "../../core/ids";
import { deviceHasBannedUser, linkUserDevice } from "../../db/queries/users";
import type { AppBindings } from "../env";
import { DomainError } from "../../core/domain-error";
import { mac } from "../mac";
import { isSecureRequest } from "./request";

export const DEVICE_COOKIE = "linkup_device";
// The longest a browser keeps a cookie (RFC 6265bis caps Max-Age at 400 days).
const DEVICE_TTL_SECONDS = 400 * 24 * 3600;

function deviceHash(c: Context<AppBindings>, token: string): Promise<string> {
  // Its own domain under the session secret, so a device token never hashes to a session id.
  return mac(c.env, `device:${token}`);
}

/** This browser's device id (the HMAC), or null when it has no device cookie yet. */
export async function currentDevice(c: Context<AppBindings>): Promise<string | null> {
  const token = getCookie(c, DEVICE_COOKIE);
  return token && token.length <= 64 ? deviceHash(c, token) : null;
}

/** Ties this browser to the person signing in, giving it a device cookie if it has none. */
export async function linkDevice(c: Context<AppBindings>, userId: string): Promise<void> {
  let device = await currentDevice(c);
  if (!device) {
    const token = newId(32);
    device = await deviceHash(c, token);
    setCookie(c, DEVICE_COOKIE, token, {
      httpOnly: true,
      sameSite: "Lax",
      secure: isSecureRequest(c),
      path: "/",
      maxAge: DEVICE_TTL_SECONDS,
    });
  }
  await linkUserDevice(c.var.db, device, userId);
}

/** Guard before a new anonymous identity: a banned person's browser gets the suspension (403 `banned`). */
export async function requireDeviceNotBanned(c: Context<AppBindings>): Promise<void> {
  const device = await currentDevice(c);
  if (device && (await deviceHasBannedUser(c.var.db, device))) throw new DomainError("banned", BANNED_MESSAGE);
}
