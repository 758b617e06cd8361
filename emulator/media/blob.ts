// Deterministic pseudo-random bytes of any size, seekable and streamed: AES-CTR over zeros, keyed by the seed.
import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MediaEntity } from './conditional-range.ts';

const CHUNK = 64 * 1024;
export const MAX_BLOB_BYTES = 2 ** 40;
/** Fixed so that validators stay valid across restarts of the emulator. */
const BLOB_EPOCH = Date.UTC(2024, 0, 1);

function keyOf(seed: string, generation: number): Buffer {
  return createHash('sha256').update(`${seed}\u0000${generation}`).digest().subarray(0, 16);
}

/** CTR mode lets any offset be produced without generating the bytes before it. */
function counterBlock(blockIndex: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(blockIndex), 8);
  return iv;
}

export function blobStream(seed: string, generation: number, start: number, endInclusive: number): Readable {
  const cipher = createCipheriv('aes-128-ctr', keyOf(seed, generation), counterBlock(Math.floor(start / 16)));
  let skip = start % 16;
  let remaining = endInclusive - start + 1;
  const zeros = Buffer.alloc(CHUNK);
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (remaining <= 0) return void this.push(null);
      const want = Math.min(CHUNK, remaining + skip);
      let bytes = cipher.update(zeros.subarray(0, want));
      if (skip > 0) {
        bytes = bytes.subarray(skip);
        skip = 0;
      }
      if (bytes.length > remaining) bytes = bytes.subarray(0, remaining);
      remaining -= bytes.length;
      this.push(bytes);
    },
  });
}

/**
 * `generation` changes the content at the same URL (control API "rotate"), which is how tests
 * make a resumed download meet a changed file.
 */
export function blobEntity(bytes: number, seed: string, generation: number): MediaEntity {
  const tag = createHash('sha256').update(`${bytes}\u0000${seed}\u0000${generation}`).digest('base64url').slice(0, 20);
  return {
    size: bytes,
    etag: `"blob-${tag}"`,
    lastModified: new Date(BLOB_EPOCH + generation * 1000),
    contentType: 'application/octet-stream',
    read: (start, end) => blobStream(seed, generation, start, end),
  };
}
