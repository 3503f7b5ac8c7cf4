// Prints a new VAPID key pair for production Web Push (README, production checklist): put each value with
// `npx wrangler secret put VAPID_PUBLIC_KEY` and `npx wrangler secret put VAPID_PRIVATE_KEY`.
import { vapidKeys } from "./setup.mjs";

for (const [name, value] of Object.entries(await vapidKeys())) console.log(`${name}=${value}`);
