// Sends a picked or dropped file to the core for upload in 1 MiB chunks (uploads:begin-file, then
// uploads:send-chunk), so no message of either transport carries a whole photo: the browser-mode
// WebSocket has a bounded message size, and Electron's IPC takes the same path.
import type { Result } from '@contract/errors.ts';
import { UPLOAD_CHUNK_BYTES } from '@contract/ipc/uploads.ts';
import { invoke } from './ipc.ts';

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

/** The file's id for uploads:add once every byte has arrived, or why it could not be sent. */
export async function sendFileForUpload(file: File): Promise<Result<{ fileId: string }>> {
  const begun = await invoke('uploads:begin-file', { name: file.name, size: file.size });
  if (!begun.ok) return begun;
  const { fileId } = begun.value;
  for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
    const bytesBase64 = await base64Of(file.slice(offset, offset + UPLOAD_CHUNK_BYTES));
    const sent = await invoke('uploads:send-chunk', { fileId, offset, bytesBase64 });
    if (!sent.ok) return sent;
  }
  return { ok: true, value: { fileId } };
}
