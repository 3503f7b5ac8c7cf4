// The session pass's times (docs/decisions/079-a-pass-that-lasts-the-day.md), apart from core/session-pass.ts so
// that the capacity benchmark (bench/capacity/journey.mjs, plain Node) plays its journeys against the same figures.

/**
 * How long a pass stands in for the session: half a day, so the reconnects of a day find it fresh (a socket's 101
 * cannot renew it; bench/capacity/journey.mjs measures the share). It is not the bound on revocation: a page's
 * read checks the session in its one statement, a socket upgrade checks the revocation feed
 * (docs/decisions/079-a-pass-that-lasts-the-day.md).
 */
export const PASS_TTL_MS = 12 * 3600 * 1000;
/** A page load renews a pass older than this (no query: its one statement has just checked the session). */
export const PASS_RENEW_AFTER_MS = 15 * 60 * 1000;
/** "Last used" in the sessions list is this precise where the session is read from D1 (one write per interval). */
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60 * 1000;
/**
 * And an hour where a pass served the page: with the pass lasting the day that is most visits, and a write per page
 * would put ten writes a person a day on the primary (docs/decisions/079-a-pass-that-lasts-the-day.md).
 */
export const PASS_TOUCH_INTERVAL_MS = 60 * 60 * 1000;
