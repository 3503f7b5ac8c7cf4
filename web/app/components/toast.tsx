// Toasts (docs/product/client-conventions.md): one at a time, 5 s by default, swipe right 50 px to dismiss, F8 focuses them.
import { type ReactNode, useCallback, useEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
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

let nextId = 1;

/**
 * The tab's toasts, a zustand store (docs/decisions/071-client-state-in-zustand.md): any screen, hook or module
 * raises one without a React context, and the one viewport below shows them.
 */
const toastStore = createStore<{ toasts: ToastItem[] }>(() => ({ toasts: [] }));
/** The history entry the page is on, kept by the viewport as it renders (not state: nothing re-renders on it). */
let here = "";

/** Raises a toast. One at a time: a new toast replaces the current one. */
export function showToast(t: ToastInput): void {
  toastStore.setState((s) => ({ toasts: [{ ...t, id: nextId++, at: here }, ...s.toasts].slice(0, TOAST.limit) }));
}
export const useToast = () => showToast;

/** A toast for the page a form is moving to: raised when the tab reaches `pathname`, dropped if it lands elsewhere. */
let onArrival: { pathname: string; toast: ToastInput } | null = null;
export function showToastOnArrival(pathname: string, t: ToastInput): void {
  onArrival = { pathname, toast: t };
}

function setToasts(change: (list: ToastItem[]) => ToastItem[]) {
  toastStore.setState((s) => ({ toasts: change(s.toasts) }));
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const toasts = useStore(toastStore, (s) => s.toasts);
  const viewport = useRef<HTMLOListElement>(null);
  // Kept during render, so a toast raised by a screen's effect right after a navigation carries the new entry.
  const location = useLocation();
  here = location.key;
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
    // However long the move took (a 2G network), the toast waiting for this page shows once it is here.
    if (onArrival && navigationType !== "REPLACE") {
      if (onArrival.pathname === location.pathname) showToast(onArrival.toast);
      onArrival = null;
    }
  }, [location.key]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === TOAST.hotkey) viewport.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      {children}
      {/* A labelled region, so toasts sit inside a landmark like the rest of the page (axe 'region'). */}
      <section aria-label={t("toast.region", { key: TOAST.hotkey })}>
        {/* At the top: at the bottom, toasts covered the chat's message box and the navigation. `toast-viewport` is a
            hook for browser tests (tests/e2e/raw-keys.spec.ts), with no CSS of its own (docs/decisions/076-tailwind-v4.md). */}
        <ol
          ref={viewport}
          tabIndex={-1}
          className="toast-viewport fixed start-auto end-4 top-2 z-50 m-0 grid w-[calc(100%-2rem)] list-none gap-2 p-0"
          style={{ maxWidth: TOAST.viewportMaxWidthPx }}
        >
          {toasts.map((item) => (
            <Toast key={item.id} toast={item} onDismiss={() => dismiss(item.id)} />
          ))}
        </ol>
      </section>
    </>
  );
}

/** Each variant's colours, written out whole so Tailwind finds them (docs/decisions/076-tailwind-v4.md). */
const VARIANT_CLASS: Record<NonNullable<ToastItem["variant"]>, string> = {
  default: "border-line bg-card",
  destructive: "border-line bg-danger text-white",
  success: "border-ok bg-card",
};

function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: () => void }) {
  const startX = useRef<number | null>(null);
  const t = useT();
  useEffect(() => {
    const timer = setTimeout(onDismiss, toast.durationMs ?? TOAST.durationMs);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <li
      className={`flex [touch-action:pan-y] justify-between gap-2 rounded-lg border px-4 py-3 [box-shadow:var(--shadow-menu)] ${VARIANT_CLASS[toast.variant ?? "default"]}`}
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
        <p className="m-0 font-semibold">{toast.title}</p>
        {toast.description ? <p className="mt-[0.2rem] mb-0">{toast.description}</p> : null}
      </div>
      <button
        type="button"
        className="cursor-pointer border-0 bg-transparent text-lg text-inherit"
        aria-label={t("toast.close")}
        onClick={onDismiss}
      >
        ×
      </button>
    </li>
  );
}
