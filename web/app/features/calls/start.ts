// The small part of calls that the chat bundle carries: asking the lazily loaded call dock to start a call.
// The dock (call-dock.tsx) listens for this event; the room decides whether the call may happen.

export const CALL_EVENT = "linkup:call";

export interface CallRequest {
  room: string;
  peerName: string;
}

export function requestCall(request: CallRequest): void {
  window.dispatchEvent(new CustomEvent<CallRequest>(CALL_EVENT, { detail: request }));
}
