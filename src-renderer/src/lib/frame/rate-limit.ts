// "Rate limited" in the status bar: which background work the service asked to wait, until when, in words.
import type { RateLimitedInfo } from '@contract/ipc/sync.ts';

/** Who waits: the library refresh (sync status) or background work (the 'service:rate-limited' event). */
export type RateLimitSource = RateLimitedInfo['source'] | 'library';

/** Epoch ms until which each source waits. */
export type RateLimitWaits = Readonly<Partial<Record<RateLimitSource, number>>>;

const ACTIVITY: Record<RateLimitSource, string> = {
  jobs: 'checking jobs',
  training: 'checking training',
  uploads: 'uploading',
  library: 'refreshing the library',
};

/** A later wait wins: a shorter one never cuts short what the service asked for before. */
export function extendWait(waits: RateLimitWaits, source: RateLimitSource, until: number): RateLimitWaits {
  return { ...waits, [source]: Math.max(waits[source] ?? 0, until) };
}

/** Sets (or with null clears) one source's wait as it stands now, e.g. after a refresh's outcome. */
export function replaceWait(waits: RateLimitWaits, source: RateLimitSource, until: number | null): RateLimitWaits {
  const next = { ...waits };
  if (until === null) delete next[source];
  else next[source] = until;
  return next;
}

/** The waits not over yet, soonest first. */
export function activeWaits(waits: RateLimitWaits, now: number): [RateLimitSource, number][] {
  return (Object.entries(waits) as [RateLimitSource, number][])
    .filter(([, until]) => until > now)
    .sort((a, b) => a[1] - b[1]);
}

/** When the last wait ends; null when nothing waits. */
export function rateLimitedUntil(waits: RateLimitWaits, now: number): number | null {
  const active = activeWaits(waits, now);
  return active.length === 0 ? null : Math.max(...active.map(([, until]) => until));
}

/** "40 s", "2 min": whole seconds rounded up, so it never says 0 s while still waiting. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds <= 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/** "Rate limited · checking jobs again in 40 s"; null when nothing waits. */
export function rateLimitText(waits: RateLimitWaits, now: number): string | null {
  const active = activeWaits(waits, now);
  if (active.length === 0) return null;
  const parts = active.map(([source, until]) => `${ACTIVITY[source]} again in ${formatWait(until - now)}`);
  return ['Rate limited', ...parts].join(' · ');
}

/** The waits "Check now" can end: the jobs engine's (checking jobs and training). */
const CHECKABLE: readonly RateLimitSource[] = ['jobs', 'training'];

/** Whether "Check now" has something to end right now. */
export function canCheckNow(waits: RateLimitWaits, now: number): boolean {
  return activeWaits(waits, now).some(([source]) => CHECKABLE.includes(source));
}

/** The waits left once "Check now" ended the jobs engine's. */
export function withoutChecks(waits: RateLimitWaits): RateLimitWaits {
  return CHECKABLE.reduce((next, source) => replaceWait(next, source, null), waits);
}
