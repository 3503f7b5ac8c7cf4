// The small part of calls that the chat bundle carries: asking the lazily loaded call dock to start a call.
// A request made before the dock has loaded waits for it; the room decides whether the call may happen.

export interface CallRequest {
  room: string;
  peerName: string;
}

let handler: ((request: CallRequest) => void) | null = null;
let pending: CallRequest | null = null;

export function requestCall(request: CallRequest): void {
  if (handler) handler(request);
  else pending = request;
}

/** The call dock takes requests (and the one made while it was loading); answers the release. */
export function onCallRequest(take: (request: CallRequest) => void): () => void {
  handler = take;
  const waiting = pending;
  pending = null;
  if (waiting) take(waiting);
  return () => {
    if (handler === take) handler = null;
  };
}
