// What /api/health checks beyond the database and the rooms (docs/decisions/053-nothing-lost.md): the SOS queue
// binding, R2, that the newest migration bundled with this Worker is applied, and that a production Worker does not
// run on wrangler.toml's development placeholders. Each check is named in the answer; any failure makes it a 503.
import { dbDriver, type Db } from "../db";
import { migrationApplied } from "../db/queries/health";
import journal from "../db/migrations/meta/_journal.json";
import { EXAMPLE_SUPPORT_PHONE, EXAMPLE_USSD_CODE } from "./contact-config";
import { type AppEnv, isDevelopment } from "./env";

/**
 * The values local runs use: wrangler.toml's APP_URL, and the example support line and USSD code development shows
 * when none is set (workers/contact-config.ts). A deployed Worker must not run on any of them (README, production
 * checklist).
 */
export const DEVELOPMENT_PLACEHOLDERS = {
  APP_URL: "http://localhost:5173",
  SUPPORT_PHONE: EXAMPLE_SUPPORT_PHONE,
  USSD_CODE: EXAMPLE_USSD_CODE,
} as const;

export interface Check {
  status: "ok" | "failed";
  /** What failed, by name (never a secret's value). */
  detail?: string;
}

const ok: Check = { status: "ok" };
const failed = (detail: string): Check => ({ status: "failed", detail });

/** The newest migration in db/migrations, bundled with the Worker: the database must have it. */
export const NEWEST_MIGRATION = journal.entries.reduce((a, b) => (b.idx > a.idx ? b : a));

// A key nobody writes: HEAD of a missing object answers null, which proves R2 answered (one class B operation).
const R2_PROBE_KEY = "linkup-health-probe";

async function probe(name: string, run: () => Promise<Check>): Promise<Check> {
  try {
    return await run();
  } catch (e) {
    console.error(`health: ${name}`, e);
    return failed(`${name} did not answer`);
  }
}

type SettingsEnv = Pick<AppEnv, "ENVIRONMENT" | "APP_URL" | "SUPPORT_PHONE" | "USSD_CODE">;

/**
 * Settings still holding the development values, by name (an unset APP_URL too: links in messages need it); none
 * counts in development.
 */
export function placeholderSettings(env: SettingsEnv): string[] {
  if (isDevelopment(env)) return [];
  return (Object.keys(DEVELOPMENT_PLACEHOLDERS) as (keyof typeof DEVELOPMENT_PLACEHOLDERS)[]).filter(
    (name) => (name === "APP_URL" && !env[name]) || env[name] === DEVELOPMENT_PLACEHOLDERS[name],
  );
}

/**
 * The support line and USSD code may be left unset: the screens then leave them out (workers/contact-config.ts,
 * docs/decisions/060-every-claim-true.md). Health says so without failing.
 */
export function unsetContactSettings(env: SettingsEnv): string[] {
  if (isDevelopment(env)) return [];
  return (["SUPPORT_PHONE", "USSD_CODE"] as const).filter((name) => !env[name]?.trim());
}

export async function operatorChecks(env: AppEnv, db: Db): Promise<Record<"sosQueue" | "files" | "migrations" | "settings", Check>> {
  const [files, migrations] = await Promise.all([
    env.FILES
      ? probe("R2", async () => {
          await env.FILES.head(R2_PROBE_KEY);
          return ok;
        })
      : Promise.resolve(failed("FILES binding missing")),
    probe("migrations", async () =>
      (await migrationApplied(db, dbDriver(env), NEWEST_MIGRATION))
        ? ok
        : failed(`newest migration ${NEWEST_MIGRATION.tag} is not applied (npm run deploy applies them)`),
    ),
  ]);
  const placeholders = placeholderSettings(env);
  const unset = unsetContactSettings(env);
  return {
    sosQueue: typeof env.SOS_FANOUT?.send === "function" ? ok : failed("SOS_FANOUT binding missing"),
    files,
    migrations,
    settings: placeholders.length
      ? failed(`still the development placeholder: ${placeholders.join(", ")}`)
      : unset.length
        ? { status: "ok", detail: `not set, so the screens leave them out: ${unset.join(", ")}` }
        : ok,
  };
}
