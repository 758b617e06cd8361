// Notifications for finished jobs: up to three one by one, more as one summary, nothing twice,
// and finishes from before a restart announced (recent) or quietly marked (stale).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccountDb, type AccountDb } from '../db/account-db.ts';
import { assetFieldsFromImage } from '../api/server-records.ts';
import type { JobsRepo } from '../db/repos/jobs-repo.ts';
import type { NotificationRequest } from '../host/notifier.ts';
import { DEFAULT_FINISH_NOTIFIER, FinishNotifier } from './finish-notifier.ts';
import { createManualTime, type ManualTime } from './test-support/manual-time.ts';

let cache: AccountDb;
let store: JobsRepo;
let now: number;
let time: ManualTime;
let shown: NotificationRequest[];

beforeEach(() => {
  cache = openAccountDb(':memory:');
  store = cache.jobs;
  now = Date.parse('2026-04-01T12:00:00Z');
  time = createManualTime(() => now);
  shown = [];
});
afterEach(() => cache.close());

const notifier = () =>
  new FinishNotifier({
    store,
    notifier: { notify: (n) => void shown.push(n) },
    time,
    options: DEFAULT_FINISH_NOTIFIER,
  });

function finished(count: number, state: 'succeeded' | 'failed' = 'succeeded', at = now): number[] {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const row = store.insert({
      kind: 'image',
      modelId: 'imagea',
      request: { modelID: 'imagea', prompt: `p${i}` },
      now: at,
    });
    store.update(
      row.local_id,
      { jobId: `j${row.local_id}`, state, finishedAt: at, error: state === 'failed' ? 'boom' : null },
      at,
    );
    ids.push(row.local_id);
  }
  return ids;
}

describe('finish notifications', () => {
  it('shows up to three finishes one by one', () => {
    const n = notifier();
    finished(3).forEach((id) => n.add(id));
    now += DEFAULT_FINISH_NOTIFIER.windowMs;
    time.fireDue();
    expect(shown.map((s) => s.title)).toEqual(['Image ready', 'Image ready', 'Image ready']);
  });

  it('summarises a burst of more than three, counting failures', () => {
    const n = notifier();
    [...finished(3), ...finished(2, 'failed')].forEach((id) => n.add(id));
    now += DEFAULT_FINISH_NOTIFIER.windowMs;
    time.fireDue();
    expect(shown).toEqual([{ title: '5 jobs finished', body: '3 ready, 2 failed' }]);
  });

  it('waits for a running poll round before flushing, then never notifies a job twice', () => {
    const n = notifier();
    const release = n.hold();
    finished(2).forEach((id) => n.add(id));
    now += DEFAULT_FINISH_NOTIFIER.windowMs;
    time.fireDue();
    expect(shown).toEqual([]);
    finished(3).forEach((id) => n.add(id));
    release();
    expect(shown).toEqual([{ title: '5 jobs finished', body: '5 ready' }]);
    const again = notifier();
    again.resumePending();
    now += DEFAULT_FINISH_NOTIFIER.windowMs;
    time.fireDue();
    expect(shown).toHaveLength(1);
  });

  it('after a restart announces recent unnotified finishes and quietly marks old ones', () => {
    finished(1, 'succeeded', now - 2 * 3_600_000);
    finished(1, 'failed', now - 60_000);
    const n = notifier();
    n.resumePending();
    now += DEFAULT_FINISH_NOTIFIER.windowMs;
    time.fireDue();
    expect(shown).toEqual([expect.objectContaining({ title: 'Image failed', body: 'boom' })]);
    expect(store.unnotified()).toEqual([]);
  });

  it('two processes sharing a data folder announce a finished job once between them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-notify-'));
    const file = join(dir, 'atelier.sqlite');
    const [app, cli] = [openAccountDb(file), openAccountDb(file)];
    try {
      const stores = [app.jobs, cli.jobs];
      const row = stores[0]!.insert({
        kind: 'image',
        modelId: 'imagea',
        request: { modelID: 'imagea', prompt: 'p' },
        now,
      });
      stores[0]!.update(row.local_id, { jobId: 'j1', state: 'succeeded', finishedAt: now }, now);
      // Both engines saw the job finish before either marked it.
      const notifiers = stores.map(
        (s) =>
          new FinishNotifier({
            store: s,
            notifier: { notify: (n) => void shown.push(n) },
            time,
            options: DEFAULT_FINISH_NOTIFIER,
          }),
      );
      notifiers.forEach((n) => n.add(row.local_id));
      // The app announces it right after the CLI has read the row and before the CLI marks it.
      const cliStore = stores[1]!;
      const read = cliStore.get.bind(cliStore);
      let interleaved = false;
      cliStore.get = (id) => {
        const found = read(id);
        if (!interleaved) {
          interleaved = true;
          notifiers[0]!.flush();
        }
        return found;
      };
      notifiers[1]!.flush();
      expect(interleaved).toBe(true);
      expect(shown.map((s) => s.title)).toEqual(['Image ready']);
    } finally {
      app.close();
      cli.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an upscale is named after its source', () => {
  function upscaleFinished(imageID: string): number {
    const row = store.insert({ kind: 'upscale', modelId: 'imagea', request: { imageID }, now });
    store.update(row.local_id, { jobId: `j${row.local_id}`, state: 'succeeded', finishedAt: now }, now);
    return row.local_id;
  }
  const announce = (id: number) => {
    const n = new FinishNotifier({
      store,
      notifier: { notify: (request) => void shown.push(request) },
      time,
      options: DEFAULT_FINISH_NOTIFIER,
      // As the engine wires it: the library's record of the source image.
      sourcePromptOf: (imageId) => cache.assets.get('image', imageId)?.prompt ?? null,
    });
    n.add(id);
    n.flush();
  };

  it('says "Upscale of “<the source prompt>”", not the model id', () => {
    const fields = assetFieldsFromImage({ id: 'img_src', url: 'https://x/src.png', modelID: 'imagea', type: 'output' });
    cache.assets.upsertFromServer({ ...fields, origin: 'generated', createdAt: now }, now);
    cache.assets.recordGeneration('image', 'img_src', { prompt: 'a heron at dawn' });
    announce(upscaleFinished('img_src'));
    expect(shown).toEqual([expect.objectContaining({ title: 'Upscale ready', body: 'Upscale of “a heron at dawn”' })]);
  });

  it('says what a job cost when the service told it, and nothing when it did not', () => {
    const [costed, unknown] = finished(2);
    store.update(costed!, { credits: 4 }, now);
    const n = notifier();
    n.add(costed!);
    n.add(unknown!);
    n.flush();
    expect(shown.map((s) => s.body)).toEqual(['p0 · 4 credits', 'p1']);
  });

  it('names a source the library does not hold without its id', () => {
    announce(upscaleFinished('img_unknown'));
    expect(shown).toEqual([
      expect.objectContaining({ title: 'Upscale ready', body: 'Upscale of an image without a prompt' }),
    ]);
  });
});
