// The host side of a chunked upload for Node callers (the CLI, tests): announces the file, sends
// it in UPLOAD_CHUNK_BYTES pieces through the same channels a renderer uses, and returns its id
// for uploads:add. The renderer has its own copy over Blob slices (it cannot import core).
import type { InvokeArgs, InvokeResult } from '../../contract/ipc.ts';
import { UPLOAD_CHUNK_BYTES } from '../../contract/ipc/uploads.ts';

type ChunkChannel = 'uploads:begin-file' | 'uploads:send-chunk';
export type ChunkCall = <C extends ChunkChannel>(channel: C, args: InvokeArgs<C>) => Promise<InvokeResult<C>>;

export async function sendFileInChunks(call: ChunkCall, name: string, bytes: Uint8Array): Promise<string> {
  const { fileId } = await call('uploads:begin-file', { name, size: bytes.byteLength });
  for (let offset = 0; offset < bytes.byteLength; offset += UPLOAD_CHUNK_BYTES) {
    const chunk = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
    await call('uploads:send-chunk', { fileId, offset, bytesBase64: Buffer.from(chunk).toString('base64') });
  }
  return fileId;
}
