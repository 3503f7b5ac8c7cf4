import { createContext } from "react-router";

/** Public configuration the Worker hands to screens (an allowlist: no secrets). */
export interface PublicEnv {
  SUPPORT_PHONE: string;
  STRIPE_PUBLISHABLE_KEY: string;
  VAPID_PUBLIC_KEY: string;
  DEV_OUTBOX: boolean;
}

/** What the Worker puts in every loader's and action's context. */
export interface AppContext {
  env: PublicEnv;
  /** Calls LinkUp's own API in-process, with the visitor's cookies. */
  api: (path: string, init?: RequestInit) => Promise<Response>;
  waitUntil: (promise: Promise<unknown>) => void;
  /** The Content-Security-Policy nonce of this answer: React Router's inline scripts carry it. */
  nonce: string;
  /** The request's id in the logs and its `x-request-id` header: the error screen shows it to quote to support. */
  requestId: string;
}

export const appContext = createContext<AppContext>();
