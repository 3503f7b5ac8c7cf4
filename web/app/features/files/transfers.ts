// Active transfers of this tab, shown with their progress in the chat and on /file-sharing. A finished one stays
// for 2 seconds (the removal delay, docs/product/client-conventions.md) so its 100% can be seen.
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

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
// A zustand store (docs/decisions/071-client-state-in-zustand.md): the chat and /file-sharing read the same list.
const transfersStore = createStore<{ transfers: Transfer[] }>(() => ({ transfers: [] }));

function emit(change: (list: Transfer[]) => Transfer[]) {
  transfersStore.setState((s) => ({ transfers: change(s.transfers) }));
}

export function startTransfer(t: { fileId: string; name: string; size: number; direction: "upload" | "download" }): number {
  const id = ++seq;
  emit((list) => [
    ...list,
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
  emit((list) =>
    list.map((t) => (t.id === id ? { ...t, done, progress: t.size ? Math.min(100, Math.floor((done / t.size) * 100)) : 100 } : t)),
  );
}

export function finishTransfer(id: number, status: "complete" | "failed"): void {
  emit((list) => list.map((t) => (t.id === id ? { ...t, status, progress: status === "complete" ? 100 : t.progress } : t)));
  setTimeout(() => emit((list) => list.filter((t) => t.id !== id)), REMOVE_AFTER_MS);
}

export function useTransfers(): Transfer[] {
  return useStore(transfersStore, (s) => s.transfers);
}
