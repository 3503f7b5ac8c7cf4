// Sending and fetching files on this device (docs/decisions/023-encrypted-files-in-rooms.md): encrypt chunk by
// chunk, upload part by part and continue after a dropped connection; fetch, decrypt chunk by chunk, check the hash.
// A file is read one part (5 MiB) at a time and never sits whole in memory.
import { sha256 } from "@noble/hashes/sha2.js";
import { decryptChunk, encryptChunk, importFileKey, newFileKey, sealedChunkBytes, toHex } from "../../../../core/file-crypto";
import {
  type CreateUploadAnswer,
  chunkCountFor,
  FILE_CHUNK_BYTES,
  FILE_CHUNKS_PER_PART,
  type FileMessage,
  type UploadedPart,
} from "../../../../core/files";
import { apiRequest, HttpError } from "../../../../core/http";
import { isPrivateRoomId } from "../../../../core/room-ids";
import { finishTransfer, startTransfer, updateTransfer } from "./transfers";

/** How long a sender keeps trying one part over a bad connection before the file fails. */
const PART_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits for the browser to say it is online again (or a short while, since `online` is not always fired). */
function backOnline(attempt: number): Promise<void> {
  const wait = Math.min(500 * 2 ** attempt, 8000);
  if (navigator.onLine) return sleep(wait);
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener("online", done);
      resolve();
    };
    window.addEventListener("online", done);
    setTimeout(done, wait * 4);
  });
}

async function putPart(fileId: string, n: number, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const res = await fetch(`/api/files/${fileId}/parts/${n}`, {
    method: "PUT",
    credentials: "include",
    headers: { "content-type": "application/octet-stream" },
    body: bytes,
  });
  if (!res.ok) throw new HttpError(res.status, await res.text(), res.statusText);
}

/** Uploads one part; after a network failure asks the server which parts it has and sends it again if needed. */
async function sendPart(fileId: string, n: number, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await putPart(fileId, n, bytes);
      return;
    } catch (e) {
      // The server refused this part for a reason a retry cannot fix.
      if (e instanceof HttpError && e.status < 500) throw e;
      if (attempt + 1 >= PART_ATTEMPTS) throw e;
      await backOnline(attempt);
      try {
        const { parts } = await apiRequest<{ parts: UploadedPart[] }>("GET", `/api/files/${fileId}/parts`);
        if (parts.some((p) => p.partNumber === n)) return;
      } catch {
        // Still offline: the next attempt waits again.
      }
    }
  }
}

/** A small JPEG made on this device for images; nothing for other files or when the browser cannot draw it. */
async function thumbnailOf(file: Blob): Promise<string | undefined> {
  if (!file.type.startsWith("image/") || typeof createImageBitmap !== "function") return undefined;
  try {
    const bitmap = await createImageBitmap(file);
    for (const side of [96, 64, 40]) {
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const url = canvas.toDataURL("image/jpeg", 0.6);
      if (url.length <= 6000) return url;
    }
  } catch {
    // An image this browser cannot decode goes without a thumbnail.
  }
  return undefined;
}

/**
 * Encrypts and uploads a file to a room and returns what the chat message carries. Throws HttpError with the
 * server's refusal (verification, tier limits, membership).
 */
export async function uploadFile(
  file: File,
  roomId: string,
  opts: { kind?: "file" | "voice"; transcript?: string; voiceId?: string } = {},
): Promise<FileMessage> {
  const chunkCount = chunkCountFor(file.size);
  const mime = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i.test(file.type) ? file.type : "application/octet-stream";
  const { file: info } = await apiRequest<CreateUploadAnswer>("POST", "/api/files", {
    roomId,
    size: file.size,
    chunkCount,
    // A private room's server never learns the type: it travels in the sealed message (decision 074).
    mime: isPrivateRoomId(roomId) ? "application/octet-stream" : mime,
    kind: opts.kind ?? "file",
    voiceId: opts.voiceId,
  });
  const transfer = startTransfer({ fileId: info.id, name: file.name, size: file.size, direction: "upload" });
  try {
    const { key, raw } = await newFileKey();
    const hash = sha256.create();
    let sent = 0;
    for (let n = 1; n <= info.partCount; n++) {
      const first = (n - 1) * FILE_CHUNKS_PER_PART;
      const last = Math.min(chunkCount, first + FILE_CHUNKS_PER_PART);
      const sealed: Uint8Array<ArrayBuffer>[] = [];
      for (let i = first; i < last; i++) {
        const plain = new Uint8Array(await file.slice(i * FILE_CHUNK_BYTES, (i + 1) * FILE_CHUNK_BYTES).arrayBuffer());
        hash.update(plain);
        sealed.push(await encryptChunk(key, i, chunkCount, plain));
      }
      const part = new Uint8Array(sealed.reduce((total, c) => total + c.byteLength, 0));
      let at = 0;
      for (const c of sealed) {
        part.set(c, at);
        at += c.byteLength;
      }
      await sendPart(info.id, n, part);
      sent += Math.min(file.size, last * FILE_CHUNK_BYTES) - first * FILE_CHUNK_BYTES;
      updateTransfer(transfer, sent);
    }
    await apiRequest("POST", `/api/files/${info.id}/complete`);
    finishTransfer(transfer, "complete");
    return {
      fileId: info.id,
      name: file.name.slice(0, 255) || "file",
      size: file.size,
      mime,
      key: raw,
      chunkSize: FILE_CHUNK_BYTES,
      sha256: toHex(hash.digest()),
      thumbnail: await thumbnailOf(file),
      kind: opts.kind ?? "file",
      transcript: opts.transcript,
    };
  } catch (e) {
    finishTransfer(transfer, "failed");
    throw e;
  }
}

/** Fetches, decrypts and checks a file; the Blob's parts are decrypted chunks, never one big buffer. */
export async function downloadFile(m: FileMessage): Promise<Blob> {
  const res = await fetch(`/api/files/${m.fileId}`, { credentials: "include" });
  if (!res.ok || !res.body) throw new HttpError(res.status, await res.text(), res.statusText);
  const transfer = startTransfer({ fileId: m.fileId, name: m.name, size: m.size, direction: "download" });
  try {
    const key = await importFileKey(m.key);
    const count = chunkCountFor(m.size);
    const hash = sha256.create();
    const plain: Uint8Array<ArrayBuffer>[] = [];
    const reader = res.body.getReader();
    let pending = new Uint8Array(0);
    let index = 0;
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (value) {
        const joined = new Uint8Array(pending.byteLength + value.byteLength);
        joined.set(pending);
        joined.set(value, pending.byteLength);
        pending = joined;
      }
      while (index < count && pending.byteLength >= sealedChunkBytes(m.size, index)) {
        const size = sealedChunkBytes(m.size, index);
        const chunk = await decryptChunk(key, index, count, pending.slice(0, size));
        pending = pending.slice(size);
        hash.update(chunk);
        plain.push(chunk);
        received += chunk.byteLength;
        index++;
        updateTransfer(transfer, received);
      }
      if (done) break;
    }
    if (index !== count || pending.byteLength > 0 || toHex(hash.digest()) !== m.sha256)
      throw new Error("The file arrived damaged: its fingerprint does not match.");
    finishTransfer(transfer, "complete");
    return new Blob(plain, { type: m.mime });
  } catch (e) {
    finishTransfer(transfer, "failed");
    throw e;
  }
}

/** Hands a decrypted file to the browser's downloads. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
