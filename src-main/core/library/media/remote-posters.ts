// When posters of videos not downloaded yet are made: only when asked for (a tile shows the
// video), at most `concurrency` at a time, newest request first (a tile scrolled past long ago
// matters least, and the oldest waiting ones are dropped past `maxWaiting`), and never again for
// a link that gave none: a refused link or one with no frame is remembered for the session, an
// unreachable one for `retryAfterMs`, and being unreachable pauses the whole queue a while
// (offline, every link fails alike: one try per pause, not one per tile).
import type { RemotePosterMiss } from './thumbnails.ts';

export interface PosterJob {
  /** The video's id. */
  id: string;
  /** The link the frame is taken from: a new link (refreshed by a sync) is worth a new try. */
  url: string;
}

/** `skipped`: nothing to do any more (downloaded meanwhile, gone, another link). */
export type PosterOutcome = 'made' | 'skipped' | RemotePosterMiss;

export interface RemotePosterQueueOptions {
  make(job: PosterJob, signal: AbortSignal): Promise<PosterOutcome>;
  /** A `make` that threw (a bug or a full disk): counted as a miss that may pass. */
  onError?(job: PosterJob, error: unknown): void;
  concurrency?: number;
  maxWaiting?: number;
  retryAfterMs?: number;
  /** The pause after an unreachable link: doubled on each one in a row, up to `maxPauseMs`. */
  pauseMs?: number;
  maxPauseMs?: number;
  now?: () => number;
}

export type PosterRequestState = 'queued' | 'running' | 'missed';

export interface RemotePosterQueue {
  /** Asks for a video's poster; says whether it is on its way or known to give none. */
  request(job: PosterJob): PosterRequestState;
  /** A poster being made or waiting (tests, diagnostics). */
  readonly active: number;
  readonly waiting: number;
  /** Resolves when nothing runs or waits (tests). */
  idle(): Promise<void>;
  /** Aborts what runs, drops what waits, and waits for the running ones to end. */
  stop(): Promise<void>;
}

const DEFAULTS = {
  concurrency: 2,
  maxWaiting: 48,
  retryAfterMs: 10 * 60_000,
  pauseMs: 15_000,
  maxPauseMs: 5 * 60_000,
};

const keyOf = (job: PosterJob): string => `${job.id}\n${job.url}`;

export function createRemotePosterQueue(options: RemotePosterQueueOptions): RemotePosterQueue {
  const settings = { ...DEFAULTS, ...options };
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  /** Oldest first; taken from the end. */
  const waiting: PosterJob[] = [];
  const running = new Map<string, Promise<void>>();
  /** Links that gave no poster: until when not to ask again (Infinity: this session). */
  const missed = new Map<string, number>();
  let pausedUntil = 0;
  let pause = 0;
  let resumeTimer: ReturnType<typeof setTimeout> | undefined;
  let idleWaiters: (() => void)[] = [];

  const settle = (): void => {
    if (running.size > 0 || waiting.length > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const done of waiters) done();
  };

  const remember = (job: PosterJob, miss: RemotePosterMiss): void => {
    missed.set(keyOf(job), miss === 'unreachable' ? now() + settings.retryAfterMs : Number.POSITIVE_INFINITY);
    if (miss === 'unreachable') {
      pause = pause === 0 ? settings.pauseMs : Math.min(pause * 2, settings.maxPauseMs);
      pausedUntil = now() + pause;
    }
  };

  const run = (job: PosterJob): void => {
    const key = keyOf(job);
    const work = (async () => {
      try {
        const outcome = await settings.make(job, controller.signal);
        if (controller.signal.aborted) return;
        if (outcome === 'made') pause = 0;
        else if (outcome !== 'skipped') remember(job, outcome);
      } catch (error) {
        if (controller.signal.aborted) return;
        remember(job, 'unreachable');
        options.onError?.(job, error);
      }
    })().finally(() => {
      running.delete(key);
      pump();
      settle();
    });
    running.set(key, work);
  };

  function pump(): void {
    if (controller.signal.aborted) return;
    const wait = pausedUntil - now();
    if (wait > 0) {
      if (waiting.length > 0 && !resumeTimer) {
        resumeTimer = setTimeout(() => {
          resumeTimer = undefined;
          pump();
        }, wait);
        resumeTimer.unref?.();
      }
      return;
    }
    while (running.size < settings.concurrency && waiting.length > 0) run(waiting.pop()!);
  }

  return {
    request(job) {
      const key = keyOf(job);
      if (running.has(key)) return 'running';
      const until = missed.get(key);
      if (until !== undefined) {
        if (until > now()) return 'missed';
        missed.delete(key);
      }
      if (controller.signal.aborted) return 'missed';
      const at = waiting.findIndex((other) => keyOf(other) === key);
      if (at >= 0) waiting.splice(at, 1);
      waiting.push(job);
      if (waiting.length > settings.maxWaiting) waiting.splice(0, waiting.length - settings.maxWaiting);
      pump();
      return running.has(key) ? 'running' : 'queued';
    },
    get active() {
      return running.size;
    },
    get waiting() {
      return waiting.length;
    },
    idle() {
      if (running.size === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      controller.abort();
      clearTimeout(resumeTimer);
      waiting.length = 0;
      await Promise.all(running.values());
      settle();
    },
  };
}
