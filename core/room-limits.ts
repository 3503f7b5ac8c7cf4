// Room numbers and words shared by the Worker and the screens, kept apart from core/rooms.ts (zod schemas) so a
// screen that shows them loads no zod (docs/decisions/070-light-enough-for-2g.md, "The browser's first load").

/**
 * Message requests (docs/decisions/050-consent-before-a-stranger-reaches-you.md): how many messages a request may
 * carry before it is accepted, how long a declined sender waits before asking again, how many requests a person may
 * open a day.
 */
export const DIRECT_REQUEST_LIMITS = { firstMessages: 3, declineWaitDays: 30, perDay: 20 } as const;

/** The server's words about message requests (the API's and the room's refusals). */
export const REQUEST_TEXTS = {
  waitForAccept: `Wait until they accept your message request. Until then you can send ${DIRECT_REQUEST_LIMITS.firstMessages} messages.`,
  acceptToReply: "Accept the message request to reply.",
  declined: (until: string) => `They declined your message request. You can ask again after ${until}.`,
  tooMany: `You can send ${DIRECT_REQUEST_LIMITS.perDay} message requests a day. Try again tomorrow.`,
  notFound: "Message request not found",
} as const;

/** How far from a person's area the community page lists area rooms. */
export const COMMUNITY_RADIUS_KM = 50;
