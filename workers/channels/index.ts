// What USSD and WhatsApp share about a phone (docs/architecture.md §7): who the caller is, whether they opted out,
// their language and the last place they shared, kept in phone_channels.
//
// The caller's phone is the identity. A phone nobody has used before gets a user carrying that phone (not yet
// verified for the web); when a web visitor later verifies the same phone, identity/verification merges the
// web visitor into this user, so USSD, WhatsApp and the web are one person with one history and one tier.
import { isBanned } from "../admin/bans";
import { recordEvent } from "../analytics";
import { normalizePhone } from "../../core/phone";
import { type ChannelLanguage, resolveChannelLanguage } from "../../core/channel-language";
import type { Db } from "../../db";
import { createUser, findUserByPhone } from "../../db/queries/users";
import type { User } from "../../db/schema";
import { findPhoneChannel, upsertPhoneChannel } from "../../db/queries/phone-channels";

export interface PhoneChannel {
  phone: string;
  optedOut: boolean;
  language: ChannelLanguage;
  latitude: number | null;
  longitude: number | null;
  locationText: string | null;
  /** A WhatsApp SOS waiting for a location, if any. */
  pendingSos: { message: string; requestId: string; at: number } | null;
}

/** The channel state of a phone; defaults (English, opted in, no place) when it has none yet. */
export async function getPhoneChannel(db: Db, phone: string): Promise<PhoneChannel> {
  const row = await findPhoneChannel(db, phone);
  return {
    phone,
    optedOut: row?.optedOut ?? false,
    language: resolveChannelLanguage(row?.language) ?? "english",
    latitude: row?.latitude ?? null,
    longitude: row?.longitude ?? null,
    locationText: row?.locationText ?? null,
    pendingSos: row?.pendingSos ?? null,
  };
}

/** STOP and START: an opted-out phone gets nothing from us until it says START. */
export function setOptedOut(db: Db, phone: string, optedOut: boolean): Promise<void> {
  return upsertPhoneChannel(db, phone, { optedOut });
}

export function setChannelLanguage(db: Db, phone: string, language: ChannelLanguage): Promise<void> {
  return upsertPhoneChannel(db, phone, { language });
}

/** Keeps (or with null, clears) an SOS that waits for the phone's location. */
export function setPendingSos(db: Db, phone: string, pending: PhoneChannel["pendingSos"]): Promise<void> {
  return upsertPhoneChannel(db, phone, { pendingSos: pending });
}

/** The last place a phone shared: coordinates (WhatsApp location) and/or words (USSD). Replaces the old one. */
export function setChannelLocation(
  db: Db,
  phone: string,
  place: { latitude: number | null; longitude: number | null; locationText: string | null },
): Promise<void> {
  const located = place.latitude != null && place.longitude != null;
  return upsertPhoneChannel(db, phone, {
    latitude: located ? place.latitude : null,
    longitude: located ? place.longitude : null,
    locationText: place.locationText,
  });
}

/** A short label of a phone's last place, for a menu line; null when none is known. */
export function lastPlaceLabel(pc: PhoneChannel): string | null {
  if (pc.locationText) return pc.locationText;
  if (pc.latitude != null && pc.longitude != null) return `${pc.latitude.toFixed(3)},${pc.longitude.toFixed(3)}`;
  return null;
}

/** Normalises a channel's phone ('whatsapp:+234…', '+234…', '0803…'): null when it has no digits. */
export function channelPhone(raw: string): Promise<string | null> {
  return normalizePhone(raw.replace(/^whatsapp:/i, ""));
}

/** The user a phone acts as: the one holding that phone, else a new user for it. */
export async function userForPhone(db: Db, phone: string): Promise<User> {
  const existing = await findUserByPhone(db, phone);
  if (existing) return existing;
  try {
    const user = await createUser(db, { phone, nickname: `User ${phone.slice(-4)}` });
    await recordEvent(db, "signup");
    return user;
  } catch (e) {
    // Two first requests from one phone at once: the other one created it.
    const raced = await findUserByPhone(db, phone);
    if (raced) return raced;
    throw e;
  }
}

/** Whether the person holding this phone is suspended: the phone channels then keep SOS only (docs/decisions/025-bans.md). */
export async function phoneSuspended(db: Db, phone: string): Promise<boolean> {
  const owner = await findUserByPhone(db, phone);
  return owner ? isBanned(owner) : false;
}

/**
 * The language to write to a phone in: what the phone chose on USSD or WhatsApp, else the setting of the LinkUp
 * user with that phone, else null (the caller picks, e.g. the sender's language for an emergency contact).
 */
export async function phoneLanguage(db: Db, phone: string): Promise<ChannelLanguage | null> {
  const row = await findPhoneChannel(db, phone);
  if (row) return resolveChannelLanguage(row.language);
  return resolveChannelLanguage((await findUserByPhone(db, phone))?.language);
}

/** A language saved on the web is the phone's too, so WhatsApp and USSD answer in it (docs/decisions/031-web-app-languages.md). */
export async function followWebLanguage(db: Db, phone: string | null, language: string | undefined): Promise<void> {
  const channel = resolveChannelLanguage(language);
  if (phone && channel) await setChannelLanguage(db, phone, channel);
}
