// Test helpers: the emulator's deterministic blob content, to compare downloaded bytes against.
import { createHash } from 'node:crypto';
import { blobStream } from '../../../../emulator/media/blob.ts';

/** SHA-256 of `/media/blob/<bytes>?seed=<seed>` at a given content generation (0 until rotated). */
export async function expectedBlobSha256(bytes: number, seed: string, generation = 0): Promise<string> {
  const hash = createHash('sha256');
  if (bytes > 0) for await (const chunk of blobStream(seed, generation, 0, bytes - 1)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const blobUrl = (baseUrl: string, bytes: number, seed: string): string =>
  `${baseUrl}/media/blob/${bytes}?seed=${encodeURIComponent(seed)}`;
