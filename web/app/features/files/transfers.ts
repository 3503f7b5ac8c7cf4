// Active transfers of this tab, shown with their progress in the chat and on /file-sharing. A finished one stays
// for 2 seconds (the spec's removal delay) so its 100% can be seen.
import { useSyncExternalStore } from "react";

export interface Transfer {
  id: number;
  fileId: string;
  fileName: string;
  direction: "upload" | "download";
  size: number;
  done: number;
  /** 0–100. */
  progress: number;
  status: "uploading" | "downloading" | "complete" | "failed";
}

const REMOVE_AFTER_MS = 2000;
let seq = 0;
let transfers: Transfer[] = [];
const listeners = new Set<() => void>();

function emit(next: Transfer[]) {
  transfers = next;
  for (const l of listeners) l();
}

export function startTransfer(t: { fileId: string; name: string; size: number; direction: "upload" | "download" }): number {
  const id = ++seq;
  emit([
    ...transfers,
    {
      id,
      fileId: t.fileId,
      fileName: t.name,
      direction: t.direction,
      size: t.size,
      done: 0,
      progress: 0,
      status: t.direction === "upload" ? "uploading" : "downloading",
    },
  ]);
  return id;
}

export function updateTransfer(id: number, done: number): void {
  emit(transfers.map((t) => (t.id === id ? { ...t, done, progress: t.size ? Math.min(100, Math.floor((done / t.size) * 100)) : 100 } : t)));
}

export function finishTransfer(id: number, status: "complete" | "failed"): void {
  emit(transfers.map((t) => (t.id === id ? { ...t, status, progress: status === "complete" ? 100 : t.progress } : t)));
  setTimeout(() => emit(transfers.filter((t) => t.id !== id)), REMOVE_AFTER_MS);
}

const empty: Transfer[] = [];

export function useTransfers(): Transfer[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => transfers,
    () => empty,
  );
}
