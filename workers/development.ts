/**
 * Local stand-ins (dev outbox, the interactive WhatsApp demo, loopback push endpoints) exist only here
 * (docs/decisions/010-production-is-not-development.md). Anything but exactly "development" is production.
 */
export function isDevelopment(env: { ENVIRONMENT?: string }): boolean {
  return env.ENVIRONMENT === "development";
}
