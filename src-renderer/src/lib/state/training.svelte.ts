// Training of the open model: the watcher's view ('training:status', 'training:changed'), Train with
// its refusals explained (429: too many trainings, with a retry once the service's wait is over), and
// "Check now", which asks the service for the models' status instead of waiting for the next check.
import { accountBound } from '../account-scope.ts';
import type { TrainingInfo } from '@contract/ipc/training.ts';
import { invoke, on } from '../ipc.ts';

export interface TrainingRefusal {
  /** 'busy' = 429: other trainings are running; 'refused' = anything else. */
  kind: 'busy' | 'refused';
  message: string;
  /** Epoch ms after which a retry makes sense (from Retry-After); null = any time. */
  retryAt: number | null;
}

/** Without a Retry-After, wait this long before suggesting the retry. */
const DEFAULT_BUSY_WAIT_MS = 30_000;

class TrainingState {
  modelId = $state<string | null>(null);
  info = $state<TrainingInfo | null>(null);
  starting = $state(false);
  checking = $state(false);
  refusal = $state<TrainingRefusal | null>(null);
  /** For the retry countdown and the elapsed time. */
  now = $state(Date.now());

  constructor() {
    accountBound<TrainingState>(this, () => ({
      modelId: null,
      info: null,
      starting: false,
      checking: false,
      refusal: null,
    }));
  }

  async open(modelId: string | null): Promise<void> {
    if (modelId !== this.modelId) this.refusal = null;
    this.modelId = modelId;
    this.info = null;
    if (!modelId) return;
    const result = await invoke('training:status', { modelId });
    if (this.modelId === modelId && result.ok) this.info = result.value;
  }

  readonly retryInSeconds = $derived(
    this.refusal?.retryAt ? Math.max(0, Math.ceil((this.refusal.retryAt - this.now) / 1000)) : 0,
  );

  async start(): Promise<boolean> {
    const modelId = this.modelId;
    if (!modelId || this.starting) return false;
    this.starting = true;
    this.refusal = null;
    const result = await invoke('training:start', { modelId });
    this.starting = false;
    if (this.modelId !== modelId) return false;
    if (!result.ok) {
      const busy = result.error.code === 'rate_limited' || result.error.httpStatus === 429;
      this.refusal = busy
        ? {
            kind: 'busy',
            message:
              'Too many trainings are running on this account: the service trains only a few models at a time. Try again when one of them has finished.',
            retryAt: Date.now() + (result.error.retryAfterMs ?? DEFAULT_BUSY_WAIT_MS),
          }
        : { kind: 'refused', message: result.error.message, retryAt: null };
      return false;
    }
    this.info = result.value;
    // The service now says "training": fetch that so the list and the badge follow at once.
    void invoke('sync:refresh', { scope: 'models' });
    return true;
  }

  /** One look at the service's model list now (the watcher itself checks every 5 minutes). */
  async checkNow(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    await invoke('sync:refresh', { scope: 'models' });
    this.checking = false;
    if (this.modelId) await this.open(this.modelId);
  }

  listen(): () => void {
    const tick = setInterval(() => (this.now = Date.now()), 1000);
    const stop = on('training:changed', (info) => {
      if (info.modelId === this.modelId) this.info = info;
    });
    return () => {
      clearInterval(tick);
      stop();
    };
  }
}

export const training = new TrainingState();
