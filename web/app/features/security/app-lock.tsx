// The app lock on this device (core/app-lock.ts): settings on /security-settings, and the gate that hides the app
// behind a PIN or passkey prompt once the chosen idle time has passed. Device-only, so it needs JavaScript.
// Every page loads the gate; the locked screen's form (lock-screen.tsx) and the panic code's checks (panic.ts) are
// apart, so a page's first load carries only the watch (docs/decisions/070-light-enough-for-2g.md).
import { type ComponentType, useCallback, useEffect, useState } from "react";
import { type AppLockConfig, lockDue, parseAppLock } from "../../../../core/app-lock";
import { useT } from "../../i18n";

/** What the locked screen (lock-screen.tsx, loaded when a lock is set) is given. */
export interface LockScreenProps {
  userId: string;
  config: AppLockConfig | null;
  onUnlock: () => void;
}

export const configKey = (userId: string) => `linkup-app-lock-${userId}`;
const ACTIVE_KEY = "linkup-last-active";
// Activity is written at most this often, so typing does not hammer storage.
const ACTIVITY_WRITE_MS = 15_000;
// How often an open screen checks whether the idle time has passed: a screen left open locks within this of the
// moment (a localStorage read each time), not only at the next navigation.
const LOCK_CHECK_MS = 5_000;

export function readConfig(userId: string): AppLockConfig | null {
  return parseAppLock(localStorage.getItem(configKey(userId)));
}

function lastActive(): number | null {
  const v = Number(localStorage.getItem(ACTIVE_KEY));
  return Number.isFinite(v) && v > 0 ? v : null;
}

export const markActive = () => localStorage.setItem(ACTIVE_KEY, String(Date.now()));

let loadedScreen: ComponentType<LockScreenProps> | null = null;
let loadingScreen: Promise<ComponentType<LockScreenProps>> | null = null;
function loadScreen(): Promise<ComponentType<LockScreenProps>> {
  loadingScreen ??= import("./lock-screen").then(
    (m) => (loadedScreen = m.LockScreen),
    (e) => {
      loadingScreen = null;
      throw e;
    },
  );
  return loadingScreen;
}

export function AppLockGate({ userId, children }: { userId: string | null; children: React.ReactNode }) {
  const [locked, setLocked] = useState(false);
  const [Screen, setScreen] = useState<ComponentType<LockScreenProps> | null>(() => loadedScreen);
  const t = useT();
  const check = useCallback(() => {
    if (!userId) return;
    const config = readConfig(userId);
    // A device with a lock set fetches the locked screen at once, long before the shortest idle time (a minute)
    // can pass, so it is there when the lock falls due, offline too; a failed fetch is tried at the next check.
    if (config && !loadedScreen)
      loadScreen()
        .then((c) => setScreen(() => c))
        .catch(() => {});
    if (lockDue(config, lastActive(), Date.now())) setLocked(true);
  }, [userId]);

  // Watches even when no lock is set yet: the lock turned on from /security-settings (this same page, no
  // navigation) must cover that screen too once the idle time passes.
  useEffect(() => {
    if (!userId) return;
    check();
    let written = 0;
    const onActivity = () => {
      if (Date.now() - written < ACTIVITY_WRITE_MS) return;
      written = Date.now();
      if (!readConfig(userId)) return;
      if (!lockDue(readConfig(userId), lastActive(), Date.now())) markActive();
    };
    const onVisible = () => document.visibilityState === "visible" && check();
    const events = ["pointerdown", "keydown", "scroll"] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true });
    document.addEventListener("visibilitychange", onVisible);
    const timer = setInterval(check, LOCK_CHECK_MS);
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity);
      document.removeEventListener("visibilitychange", onVisible);
      clearInterval(timer);
    };
  }, [userId, check]);

  if (!locked || !userId) return <>{children}</>;
  const unlock = () => {
    markActive();
    setLocked(false);
  };
  // The app stays hidden from the moment the lock falls due, even while the form is still on its way.
  return (
    <section className="card mx-auto max-w-[640px]" role="dialog" aria-modal="true" aria-labelledby="app-lock-title">
      <h1 id="app-lock-title">{t("sec.lockedTitle")}</h1>
      {Screen ? <Screen userId={userId} config={readConfig(userId)} onUnlock={unlock} /> : null}
    </section>
  );
}
