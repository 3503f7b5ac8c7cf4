// Toasts per spec part 1 §9: one at a time, 5 s by default, swipe right 50 px to dismiss, F8 focuses them.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useLocation, useNavigationType } from "react-router";
import { TOAST } from "../../../core/constants";
import { useT } from "../i18n";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive" | "success";
  durationMs?: number;
}
interface ToastItem extends ToastInput {
  id: number;
  /** The location (history entry) the toast was raised on: it belongs to that moment only. */
  at: string;
}

const ToastContext = createContext<(t: ToastInput) => void>(() => {});
export const useToast = () => useContext(ToastContext);

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const viewport = useRef<HTMLOListElement>(null);
  // Read during render, so a toast raised by a screen's effect right after a navigation carries the new entry.
  const location = useLocation();
  const here = useRef(location.key);
  here.current = location.key;
  // One at a time: a new toast replaces the current one.
  const toast = useCallback(
    (t: ToastInput) => setToasts((list) => [{ ...t, id: nextId++, at: here.current }, ...list].slice(0, TOAST.limit)),
    [],
  );
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  // A new history entry (another page, the right code after a wrong one) ends the toasts of the moment before.
  // A replaced entry is the same moment (a consumed ?joined=1 flag, a form answered in place): they stay.
  const navigationType = useNavigationType();
  const t = useT();
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of entry decides, read with its type
  useEffect(() => {
    setToasts((list) =>
      navigationType === "REPLACE" ? list.map((t) => ({ ...t, at: location.key })) : list.filter((t) => t.at === location.key),
    );
  }, [location.key]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === TOAST.hotkey) viewport.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <ToastContext.Provider value={toast}>
      {children}
      {/* A labelled region, so toasts sit inside a landmark like the rest of the page (axe 'region'). */}
      <section aria-label={t("toast.region", { key: TOAST.hotkey })}>
        <ol ref={viewport} tabIndex={-1} className="toast-viewport" style={{ maxWidth: TOAST.viewportMaxWidthPx }}>
          {toasts.map((item) => (
            <Toast key={item.id} toast={item} onDismiss={() => dismiss(item.id)} />
          ))}
        </ol>
      </section>
    </ToastContext.Provider>
  );
}

function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: () => void }) {
  const startX = useRef<number | null>(null);
  const t = useT();
  useEffect(() => {
    const timer = setTimeout(onDismiss, toast.durationMs ?? TOAST.durationMs);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <li
      className={`toast toast-${toast.variant ?? "default"}`}
      role={toast.variant === "destructive" ? "alert" : "status"}
      onPointerDown={(e) => {
        startX.current = e.clientX;
      }}
      onPointerUp={(e) => {
        if (startX.current !== null && e.clientX - startX.current > TOAST.swipeThresholdPx) onDismiss();
        startX.current = null;
      }}
    >
      <div>
        <p className="toast-title">{toast.title}</p>
        {toast.description ? <p className="toast-description">{toast.description}</p> : null}
      </div>
      <button type="button" className="toast-close" aria-label={t("toast.close")} onClick={onDismiss}>
        ×
      </button>
    </li>
  );
}
