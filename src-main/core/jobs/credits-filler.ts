// What a job cost arrives with the service's job list (GET /jobs). A job checked alone (GET /jobs/{id})
// finishes without it, so before estimating a model's cost the list is read once for that model's
// recent jobs whose cost is still unknown. Each job is looked for once; failures leave the estimate
// to what is known.
import { JOB_LIST_RANGE_MS } from '../../contract/service.ts';
import type { JobListGate, JobListTurn } from '../api/job-list-gate.ts';
import type { AccountDb } from '../db/account-db.ts';
import type { EngineTime } from '../host/time.ts';
import { checkJobsPage, type JobsService } from './service-port.ts';

const LOOK_BACK = 20;
const MAX_PAGES = 3;
const MARGIN_MS = 60_000;

export interface CreditsFillerDeps {
  cache: AccountDb;
  service: JobsService;
  time: EngineTime;
  /** The account's one gate for GET /jobs: this read waits its turn (at most the advised interval). */
  listGate: JobListGate;
  signal(): AbortSignal;
  changed(localId: number): void;
}

export class CreditsFiller {
  readonly #deps: CreditsFillerDeps;
  readonly #tried = new Set<string>();

  constructor(deps: CreditsFillerDeps) {
    this.#deps = deps;
  }

  async fill(kind: 'image' | 'video', modelId: string): Promise<void> {
    const { cache, service, time } = this.#deps;
    const now = time.now();
    const since = now - JOB_LIST_RANGE_MS.max;
    const wanted = cache.jobs.uncosted(kind, modelId, since, LOOK_BACK).filter((row) => !this.#tried.has(row.job_id));
    if (wanted.length === 0) return;
    for (const row of wanted) this.#tried.add(row.job_id);
    const byJobId = new Map(wanted.map((row) => [row.job_id, row.local_id]));
    // The service's clock may run ahead of this one (the demo's runs fast): the range follows its times.
    const times = wanted.map((row) => row.created_at);
    const end = Math.max(now, ...times) + MARGIN_MS;
    const start = Math.max(end - JOB_LIST_RANGE_MS.max + MARGIN_MS, Math.min(...times) - MARGIN_MS);
    const range = { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
    let turn: JobListTurn | null = null;
    try {
      let pages = 0;
      turn = await this.#deps.listGate.take(this.#deps.signal());
      for await (const raw of service.jobPages(range, this.#deps.signal())) {
        if (pages === 0) turn.answered();
        for (const summary of checkJobsPage(raw).jobs) {
          const localId = byJobId.get(summary.jobId);
          if (localId === undefined || typeof summary.credits !== 'number') continue;
          cache.jobs.update(localId, { credits: summary.credits }, time.now());
          byJobId.delete(summary.jobId);
          this.#deps.changed(localId);
        }
        pages += 1;
        if (byJobId.size === 0 || pages >= MAX_PAGES) break;
      }
    } catch {
      // Offline, rate limited or refused: the estimate uses what is known; these jobs are not asked for again.
    } finally {
      // Settles the turn whatever happened (after an answer this only lets the gate go).
      turn?.failed();
    }
  }
}
