// The asker's own area, for commands that name no place ('@ai market rice', '@ai weather tomorrow'): the
// position or town the channel knows (a WhatsApp location, a town typed on USSD), else the profile's.
import type { User } from "../../db/schema";
import { nearestPlace, placeFromText } from "../../core/places";
import type { Area } from "./market";

/** What a channel knows of where the person is; any part may be missing. */
export interface AreaHint {
  latitude?: number | null;
  longitude?: number | null;
  text?: string | null;
}

function fromHint(hint: AreaHint): Area | null {
  if (hint.latitude != null && hint.longitude != null) {
    const town = nearestPlace(hint.latitude, hint.longitude);
    return { name: town?.name ?? "your area", latitude: hint.latitude, longitude: hint.longitude };
  }
  const town = placeFromText(hint.text);
  return town ? { name: town.name, latitude: town.lat, longitude: town.lon } : null;
}

/** The channel's hint first, then the profile's position, then the profile's town; null when none is known. */
export function askerArea(hint: AreaHint | undefined, user: Pick<User, "latitude" | "longitude" | "locationText">): Area | null {
  return (hint && fromHint(hint)) ?? fromHint({ latitude: user.latitude, longitude: user.longitude, text: user.locationText });
}
