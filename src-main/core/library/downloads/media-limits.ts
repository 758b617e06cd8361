// What one media answer may cost, so a hostile or broken host can neither fill the disk nor hold
// a slot: the largest file, the stall window, the per-attempt deadline (a watchdog that aborts the
// attempt), and the meter the body passes through (counted, hashed, capped, free space looked at).
import type { Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import { DownloadError } from './download-error.ts';

/** What one media answer may cost: a hostile or broken host must not fill the disk or hold a slot. */
export interface MediaLimits {
  /** The largest file accepted, declared or counted. */
  maxBytes: number;
  /** A window in which fewer than `minBytesPerStall` bytes arrive counts as a stall. */
  stallMs: number;
  minBytesPerStall: number;
  /** One attempt ends after this long; the part stays and the next attempt resumes it. */
  deadlineMs: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  // Generated videos are tens to hundreds of MB; 4 GB leaves room without letting a body fill a disk.
  maxBytes: 4 * 1024 * 1024 * 1024,
  // Under ~0.5 KB/s for 30 s is no download; the socket's idle timeout alone never fires on a drip.
  stallMs: 30_000,
  minBytesPerStall: 16 * 1024,
  deadlineMs: 30 * 60_000,
};

/** "50 GB", "2 MB": whole units, for messages. */
export function formatSize(bytes: number): string {
  const gb = 1024 * 1024 * 1024;
  if (bytes >= gb) return `${Math.round(bytes / gb)} GB`;
  return `${Math.max(1, Math.round(bytes / (1024 * 1024)))} MB`;
}

const formatDuration = (ms: number): string =>
  ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;

/**
 * Aborts `controller` with a clear DownloadError when the body stalls (a drip) or the attempt
 * outlives its deadline. `count` is called for every chunk; `stop` clears the timers.
 */
export function watchdog(limits: MediaLimits, controller: AbortController): { count(n: number): void; stop(): void } {
  let inWindow = 0;
  const deadline = setTimeout(
    () =>
      controller.abort(
        new DownloadError(
          'failure',
          `The download took longer than ${formatDuration(limits.deadlineMs)}; it will go on where it stopped.`,
        ),
      ),
    limits.deadlineMs,
  );
  const stall = setInterval(() => {
    if (inWindow < limits.minBytesPerStall) {
      controller.abort(
        new DownloadError(
          'stalled',
          `The media host sent almost nothing for ${formatDuration(limits.stallMs)}; will try again later.`,
        ),
      );
    }
    inWindow = 0;
  }, limits.stallMs);
  deadline.unref?.();
  stall.unref?.();
  return {
    count: (n) => void (inWindow += n),
    stop() {
      clearTimeout(deadline);
      clearInterval(stall);
    },
  };
}

/** How much body is written between two looks at the free space (hasRoom). */
export const SPACE_CHECK_BYTES = 16 * 1024 * 1024;

/** Counts, hashes and caps the body as it flows to disk; `onEnd` once the body has ended. */
export function meter(
  hash: Hash,
  limit: { bytes: number; error: () => DownloadError },
  onChunk: (chunk: Buffer) => void,
  onEnd: () => void,
  hasRoom?: () => Promise<boolean>,
): Transform {
  let seen = 0;
  let lookedAt = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit.bytes) return done(limit.error());
      hash.update(chunk);
      onChunk(chunk);
      if (!hasRoom || seen - lookedAt < SPACE_CHECK_BYTES) return done(null, chunk);
      lookedAt = seen;
      hasRoom().then(
        (room) => (room ? done(null, chunk) : done(new DownloadError('disk_full', 'The disk is nearly full.'))),
        () => done(null, chunk),
      );
    },
    flush(done) {
      onEnd();
      done();
    },
  });
}
