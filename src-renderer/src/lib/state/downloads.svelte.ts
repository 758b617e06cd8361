// Offline copies on their way: the download queue and each asset's download (the video's two steps:
// the service prepares it with percentComplete, then the file arrives), from library:downloads and
// every downloads:changed. The status bar shows `pending` and `message` (e.g. paused: disk full).
import { accountScope } from '../account-scope.ts';
import type { ErrorInfo } from '@contract/errors.ts';
import { isDownloadUnderWay } from '@contract/download-state.ts';
import type { AssetRefInfo, DownloadInfo, DownloadQueueInfo, DownloadsInfo } from '@contract/ipc/library.ts';
import { invoke, on } from '../ipc.ts';
import { assetKey, type AssetKey } from '../library/asset-key.ts';
import { withEntries } from '../library/collections.ts';
import { serviceReach } from './service-reach.svelte.ts';
import { toasts } from './toasts.svelte.ts';

/** The contract takes at most this many assets per call. */
export const MAX_ASSETS_PER_CALL = 5000;

export const chunk = <T>(items: readonly T[], size = MAX_ASSETS_PER_CALL): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

class DownloadsState {
  byKey = $state.raw<ReadonlyMap<AssetKey, DownloadInfo>>(new Map());
  queueInfo = $state<DownloadQueueInfo | null>(null);

  constructor() {
    accountScope.bind({ reset: () => this.reset(), reload: () => this.load() });
  }

  /** Downloads waiting or under way. */
  readonly pending = $derived.by(() => {
    const q = this.queueInfo;
    return q ? q.active + q.waiting : [...this.byKey.values()].filter((d) => isDownloadUnderWay(d.state)).length;
  });
  /** What the queue asks the user to know (e.g. "Paused: disk full — free space and press Resume."). */
  readonly message = $derived(this.queueInfo?.message ?? null);

  get(ref: AssetRefInfo): DownloadInfo | undefined {
    return this.byKey.get(assetKey(ref));
  }

  #setAll(info: DownloadsInfo): void {
    this.queueInfo = info.queue;
    this.byKey = new Map(info.items.map((d) => [assetKey(d.asset), d]));
  }

  async load(): Promise<void> {
    const result = await invoke('library:downloads');
    if (result.ok) this.#setAll(result.value);
  }

  listen(): () => void {
    return on('downloads:changed', (change) => {
      this.byKey = withEntries(
        this.byKey,
        change.changed.map((item) => [assetKey(item.asset), item] as const),
        change.removed.map(assetKey),
      );
      this.queueInfo = change.queue;
      for (const item of change.changed) if (item.state === 'failed' && item.error) serviceReach.noteError(item.error);
    });
  }

  #report(error: ErrorInfo): void {
    serviceReach.noteError(error);
    toasts.error(error.message);
  }

  /** Queues offline copies; videos default to the service's prepared MP4 ('hls' copies the stream). */
  async start(refs: AssetRefInfo[], videoMode?: 'mp4' | 'hls'): Promise<number> {
    let queued = 0;
    for (const part of chunk(refs)) {
      const result = await invoke('library:download', { assets: part, ...(videoMode ? { videoMode } : {}) });
      if (!result.ok) {
        this.#report(result.error);
        break;
      }
      this.byKey = withEntries(
        this.byKey,
        result.value.map((item) => [assetKey(item.asset), item] as const),
      );
      queued += result.value.length;
    }
    return queued;
  }

  async retry(refs: AssetRefInfo[]): Promise<void> {
    const result = await invoke('library:retry', { assets: refs });
    if (result.ok) this.#setAll(result.value);
    else this.#report(result.error);
  }

  async cancel(refs: AssetRefInfo[]): Promise<void> {
    const result = await invoke('library:cancel', { assets: refs });
    if (result.ok) this.#setAll(result.value);
    else this.#report(result.error);
  }

  async resumeQueue(): Promise<void> {
    const result = await invoke('library:resume', {});
    if (result.ok) this.#setAll(result.value);
    else this.#report(result.error);
  }

  reset(): void {
    this.byKey = new Map();
    this.queueInfo = null;
  }
}

export const downloads = new DownloadsState();
