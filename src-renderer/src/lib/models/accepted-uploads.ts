// The answer of uploads:add is a snapshot taken when the files were queued. Events about the same
// uploads can arrive before it (a small file is sent at once), and they are newer: the answer
// only adds uploads no event has told of yet, and never brings back one that already ended.
import type { UploadInfo } from '@contract/ipc/uploads.ts';

export function withAcceptedUploads(
  known: readonly UploadInfo[],
  accepted: readonly UploadInfo[],
  ended: ReadonlySet<number> = new Set(),
): UploadInfo[] {
  const seen = new Set(known.map((upload) => upload.id));
  return [...known, ...accepted.filter((upload) => !seen.has(upload.id) && !ended.has(upload.id))];
}
