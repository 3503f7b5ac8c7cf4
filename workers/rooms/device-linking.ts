// Linking a new device (core/device-link.ts, docs/protocol.md §2a, docs/decisions/063-one-identity-per-person.md).
// The server only relays: it makes the link id, keeps the new device's MACed record and the old device's sealed
// account key until the other side fetches them, and spends the code once. It cannot check the MAC or open the
// grant (it never sees the code's secret), so everything it could change is checked again by the two devices.
import {
  LINK_ID_LENGTH,
  LINK_TTL_MS,
  LINKS_PER_HOUR,
  type LinkGrant,
  type LinkRequest,
  type LinkView,
  randomCodeChars,
} from "../../core/device-link";
import { DomainError } from "../../core/domain-error";
import type { Db } from "../../db";
import { closeLink, insertLinkWithinLimit, linkRow, setLinkGrant, setLinkRequest } from "../../db/queries/device-links";

const HOUR_MS = 3600_000;

/** Starts a link for the signed-in person (a delete, the counted insert, an update); 429 past LINKS_PER_HOUR. */
export async function startLink(db: Db, userId: string, now = new Date()): Promise<{ id: string; expiresAt: string }> {
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  // 32^6 ids: a draw already in use is drawn again (rows live an hour, so a clash is very rare).
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = randomCodeChars(LINK_ID_LENGTH);
    const started = await insertLinkWithinLimit(db, { id, userId, expiresAt }, LINKS_PER_HOUR, new Date(now.getTime() - HOUR_MS), now);
    if (started === "started") return { id, expiresAt: expiresAt.toISOString() };
    if (started === "limited")
      throw new DomainError("link_limit", `At most ${LINKS_PER_HOUR} device links an hour: try again later`, {
        values: { limit: LINKS_PER_HOUR },
      });
  }
  throw new DomainError("link_not_started", "Could not start a link: try again");
}

/** The link as either device sees it (1 read); 404 when it is not the person's, expired or spent. */
export async function linkOf(db: Db, userId: string, id: string, now = new Date()): Promise<LinkView> {
  const row = await linkRow(db, userId, id);
  if (!row || row.closed || row.expiresAt <= now)
    throw new DomainError("link_code_expired", "This code has expired or was used: start again");
  return {
    id: row.id,
    expiresAt: row.expiresAt.toISOString(),
    request: row.request ? (JSON.parse(row.request) as LinkRequest) : null,
    grant: row.grant ? (JSON.parse(row.grant) as LinkGrant) : null,
  };
}

/** The new device's record (1 conditional write); 404 when the code is unknown, expired or already used. */
export async function requestLink(db: Db, userId: string, id: string, request: LinkRequest): Promise<void> {
  if (!(await setLinkRequest(db, userId, id, JSON.stringify(request))))
    throw new DomainError("link_code_expired_other", "This code has expired or was used: start again on the other device");
}

/** The old device's sealed account key (1 conditional write), after the person confirmed there. */
export async function grantLink(db: Db, userId: string, id: string, grant: LinkGrant): Promise<void> {
  if (!(await setLinkGrant(db, userId, id, JSON.stringify(grant))))
    throw new DomainError("link_code_expired", "This code has expired or was used: start again");
}

/** Spends the link (the new device took its grant, or either side gave up). */
export async function endLink(db: Db, userId: string, id: string): Promise<void> {
  if (!(await closeLink(db, userId, id))) throw new DomainError("link_not_found", "Link not found");
}
