// Prepares a fresh clone for local use: .dev.vars with generated local secrets, then local D1 migrations.
// Runs before `npm run dev`; safe to run again (keeps existing values, fills only the empty ones).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { webcrypto as crypto } from "node:crypto";
import { d1Bindings } from "./d1-bindings.mjs";

const b64url = (bytes) => Buffer.from(bytes).toString("base64url");
const random = (n) => b64url(crypto.getRandomValues(new Uint8Array(n)));

export async function vapidKeys() {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const { d } = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { VAPID_PUBLIC_KEY: b64url(publicKey), VAPID_PRIVATE_KEY: d };
}

export async function ensureDevVars(file = ".dev.vars") {
  const source = existsSync(file) ? readFileSync(file, "utf8") : readFileSync(".dev.vars.example", "utf8");
  const vapid = await vapidKeys();
  const generated = {
    SESSION_SECRET: random(32),
    TWILIO_AUTH_TOKEN: Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex"),
    ...vapid,
  };
  const lines = source.split("\n").map((line) => {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m?.[2] !== "" || !(m[1] in generated)) return line;
    // VAPID keys only make sense as a pair: fill both or neither.
    return `${m[1]}=${generated[m[1]]}`;
  });
  writeFileSync(file, lines.join("\n"));
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await ensureDevVars();
  console.log("✓ .dev.vars ready (local secrets generated where empty)");
  if (!process.argv.includes("--no-migrate")) {
    for (const binding of d1Bindings())
      execFileSync("npx", ["wrangler", "d1", "migrations", "apply", binding, "--local", "-c", "wrangler.toml"], {
        stdio: "inherit",
        env: { ...process.env, CI: "true" },
      });
  }
}
