// What is said when jobs finish: one notification per job ("Image ready", "Video failed"), a
// burst summarised ("5 jobs finished"), and notified_at written before it goes out, so a restart
// never notifies twice. When and how many at once is the host's batching policy
// (host/notifier.ts); a poll round holds the burst, so a catch-up after sleep yields one summary.
import {
  announceBurst,
  createBurst,
  NOTIFICATION_BURST,
  type Burst,
  type Notifier,
  type NotificationRequest,
} from '../host/notifier.ts';
import type { EngineTime } from '../host/time.ts';
import { upscaleTitle } from '../../contract/job-title.ts';
import { modelName } from '../../contract/names.ts';
import { outputsOf, requestOf } from './job-info.ts';
import type { JobRow, JobsRepo } from '../db/repos/jobs-repo.ts';

export interface FinishNotifierOptions {
  /** How long after the first finish to wait for others before notifying. */
  windowMs: number;
  /** More than this many in one burst → one summary. */
  summarizeAbove: number;
  /** At start-up, unnotified finishes older than this are marked without a notification. */
  staleAfterMs: number;
}

export const DEFAULT_FINISH_NOTIFIER: FinishNotifierOptions = {
  ...NOTIFICATION_BURST,
  staleAfterMs: 60 * 60_000,
};

export interface FinishNotifierDeps {
  store: JobsRepo;
  /** Already gated by the user's Notifications setting (core.ts `gateNotifier`): every finish is told to it. */
  notifier: Notifier;
  time: EngineTime;
  options: FinishNotifierOptions;
  /** A finish that could not be marked (a full disk): kept, announced by a later flush. */
  onError?(error: unknown): void;
  /** The prompt of the library's image `imageId` (an upscale is named after its source), when known. */
  sourcePromptOf?(imageId: string): string | null;
}

const KIND_NAMES = { image: 'Image', upscale: 'Upscale', video: 'Video', training: 'Training' } as const;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `sourcePrompt`: an upscale's source image's prompt (an upscale is called "Upscale of “…”"). */
export function notificationFor(row: JobRow, sourcePrompt: string | null = null): NotificationRequest {
  const name = KIND_NAMES[row.kind];
  const request = requestOf(row);
  const prompt =
    row.kind === 'upscale'
      ? upscaleTitle(sourcePrompt)
      : typeof request['prompt'] === 'string'
        ? request['prompt']
        : '';
  const outputs = outputsOf(row);
  const target = { ...(row.job_id ? { jobId: row.job_id } : {}), ...(outputs[0] ? { assetId: outputs[0].id } : {}) };
  if (row.state === 'succeeded') {
    const count = outputs.length;
    const title = count > 1 ? `${count} ${name.toLowerCase()}s ready` : `${name} ready`;
    // What it cost, when the service said (its job list gives credits; a job read alone does not).
    const cost = row.credits === null ? '' : ` · ${row.credits} ${row.credits === 1 ? 'credit' : 'credits'}`;
    return {
      title,
      body: clip(prompt || (row.model_id ? `With ${modelName(row.model_id)}` : 'Your job finished.'), 120) + cost,
      ...target,
    };
  }
  return { title: `${name} failed`, body: clip(row.error ?? 'The service could not finish this job.', 200), ...target };
}

export function summaryFor(rows: readonly JobRow[]): NotificationRequest {
  const ready = rows.filter((row) => row.state === 'succeeded').length;
  const failed = rows.length - ready;
  const parts = [ready > 0 ? `${ready} ready` : '', failed > 0 ? `${failed} failed` : ''].filter(Boolean);
  return { title: `${rows.length} jobs finished`, body: parts.join(', ') };
}

export class FinishNotifier {
  readonly #deps: FinishNotifierDeps;
  readonly #burst: Burst<number>;

  constructor(deps: FinishNotifierDeps) {
    this.#deps = deps;
    this.#burst = createBurst((localIds) => this.#announce(localIds), deps.options.windowMs, deps.time);
  }

  /** After a restart: finishes that were never announced (killed within the window) go out now. */
  resumePending(): void {
    const { store, time, options } = this.#deps;
    const now = time.now();
    for (const row of store.unnotified()) {
      if (now - (row.finished_at ?? 0) <= options.staleAfterMs) this.add(row.local_id);
      else {
        try {
          store.update(row.local_id, { notifiedAt: now }, now);
        } catch (error) {
          // Marking can wait for the next start; the engine must start all the same.
          this.#deps.onError?.(error);
        }
      }
    }
  }

  add(localId: number): void {
    this.#burst.add(localId);
  }

  /** While held (a poll round in progress), a due flush waits for release. */
  hold(): () => void {
    return this.#burst.hold();
  }

  flush(): void {
    this.#burst.flush();
  }

  #announce(localIds: number[]): void {
    const { store, time, notifier, options } = this.#deps;
    const candidates = [...new Set(localIds)]
      .map((id) => store.get(id))
      .filter((row): row is JobRow => row !== undefined && row.notified_at === null);
    if (candidates.length === 0) return;
    const now = time.now();
    // Marked first: a notifier that throws must not make the next start announce these again.
    // Re-read under the write lock: another process sharing the data folder may have announced
    // some of them meanwhile, and only the process that marks a row announces it.
    let rows: JobRow[];
    try {
      rows = store.transaction(() =>
        candidates.filter((row) => {
          if (store.get(row.local_id)?.notified_at !== null) return false;
          store.update(row.local_id, { notifiedAt: now }, now);
          return true;
        }),
      );
    } catch (error) {
      // Runs from a timer: a throw (SQLITE_FULL on a full disk) would end the process. Unmarked,
      // so unannounced: kept for the next flush (or the next start).
      this.#burst.keep(candidates.map((row) => row.local_id));
      this.#deps.onError?.(error);
      return;
    }
    if (rows.length === 0) return;
    const one = (row: JobRow) => notificationFor(row, this.#sourcePromptOf(row));
    announceBurst(notifier, rows, { one, summary: summaryFor }, options.summarizeAbove);
  }

  #sourcePromptOf(row: JobRow): string | null {
    const imageId = row.kind === 'upscale' ? requestOf(row)['imageID'] : null;
    if (typeof imageId !== 'string' || !this.#deps.sourcePromptOf) return null;
    try {
      return this.#deps.sourcePromptOf(imageId);
    } catch {
      // A name is not worth a lost notification.
      return null;
    }
  }
}
