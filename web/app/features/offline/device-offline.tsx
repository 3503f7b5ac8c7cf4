// The device part of /cache-status (docs/decisions/028-cache-status.md): what this browser keeps for use without a
// network, read from the browser itself, with Refresh, Clear cache and Sync now doing what they say.
import { useCallback, useEffect, useState } from "react";
import type { MessageKey } from "../../../../core/i18n/en";
import { useT } from "../../i18n";
import type { Me } from "../../mesh/node";
import { clearCaches, type DeviceState, formatBytes, type HealthLabel, healthScore, readDevice, syncNow } from "./device-state";

const HEALTH: Record<HealthLabel, MessageKey> = {
  excellent: "cache.health.excellent",
  good: "cache.health.good",
  fair: "cache.health.fair",
  poor: "cache.health.poor",
};

const WORKER_STATES: Record<string, MessageKey> = {
  installing: "cache.sw.installing",
  installed: "cache.sw.installed",
  activating: "cache.sw.activating",
  activated: "cache.sw.activated",
  redundant: "cache.sw.redundant",
};

export function DeviceOffline({ me }: { me: Me | null }) {
  const t = useT();
  const [state, setState] = useState<DeviceState | null>(null);
  const [note, setNote] = useState("");
  const [syncing, setSyncing] = useState(false);
  const userId = me?.id ?? null;
  const refresh = useCallback(
    () =>
      readDevice(userId)
        .then(setState)
        .catch((e: unknown) => setNote(t("cache.readFailed", { error: String(e) }))),
    [userId, t],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const clear = async () => {
    const count = await clearCaches();
    setNote(t("cache.cleared", { count }));
    await refresh();
  };

  const sync = async () => {
    if (!me) return;
    if (!navigator.onLine) {
      setNote(t("cache.syncOffline"));
      return;
    }
    setSyncing(true);
    setNote(t("cache.syncing"));
    try {
      const left = await syncNow(me);
      setNote(left === 0 ? t("cache.synced") : t("cache.syncLeft", { count: left }));
    } catch (e) {
      setNote(t("cache.readFailed", { error: String(e) }));
    } finally {
      setSyncing(false);
      await refresh();
    }
  };

  if (!state) return <p role="status">{note || t("cache.reading")}</p>;
  const health = healthScore(state);
  const size = (n: number) => formatBytes(n, t.tag);
  return (
    <div>
      <p>
        {t("cache.health", { score: health.score })} <strong>{t(HEALTH[health.label])}</strong>
      </p>
      <ul aria-label={t("cache.deviceState")}>
        <li>
          {t("cache.worker", {
            state: state.worker ? t(WORKER_STATES[state.worker] ?? "cache.sw.redundant") : t("cache.sw.none"),
          })}
          {state.version ? ` · ${t("cache.version", { version: state.version })}` : ""}
        </li>
        <li>{t("cache.connection", { state: state.online ? t("cache.online") : t("cache.offline") })}</li>
        <li>
          {state.usage === null
            ? t("cache.storage", { used: t("cache.unknown") })
            : state.quota === null
              ? t("cache.storage", { used: size(state.usage) })
              : t("cache.storageOf", { used: size(state.usage), quota: size(state.quota) })}
        </li>
        {state.chat ? (
          <>
            <li>{t("cache.history", { count: state.chat.messages, chats: t("cache.chats", { count: state.chat.chats }) })}</li>
            <li>{t("cache.outbox", { count: state.chat.outbox })}</li>
          </>
        ) : (
          <li>{t("cache.noChat")}</li>
        )}
      </ul>
      {state.caches.length === 0 ? (
        <p>{t("cache.none")}</p>
      ) : (
        <ul aria-label={t("cache.list")}>
          {state.caches.map((c) => (
            <li key={c.name}>
              {t("cache.entry", { name: c.name, entries: t("cache.entries", { count: c.entries }), size: size(c.bytes) })}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="btn" onClick={() => void refresh()}>
          {t("cache.refresh")}
        </button>
        {me ? (
          <button type="button" className="btn btn-primary" disabled={syncing} onClick={() => void sync()}>
            {t("cache.sync")}
          </button>
        ) : null}
        <button type="button" className="btn btn-danger" onClick={() => void clear()}>
          {t("cache.clear")}
        </button>
      </div>
      {note ? <p role="status">{note}</p> : null}
    </div>
  );
}
