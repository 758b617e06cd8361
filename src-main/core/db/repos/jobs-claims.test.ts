// Rows left 'submitting' are reconciled against the service, but never while another live
// process sharing the data folder may still be waiting for the answer to its POST.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAccountDb, type AccountDb } from '../account-db.ts';
import type { JobsRepo } from './jobs-repo.ts';

let dir: string;
let caches: AccountDb[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-outbox-'));
  caches = [];
});
afterEach(() => {
  caches.forEach((c) => c.close());
  rmSync(dir, { recursive: true, force: true });
});

function processStore(): { cache: AccountDb; store: JobsRepo } {
  const cache = openAccountDb(join(dir, 'atelier.sqlite'));
  caches.push(cache);
  return { cache, store: cache.jobs };
}

describe('submitting rows shared by two processes', () => {
  it('are reconciled only by their own process while it lives, by anyone once it is gone', () => {
    const cli = processStore();
    const app = processStore();
    const row = cli.store.insert({
      kind: 'image',
      modelId: 'imagea',
      request: { modelID: 'imagea', prompt: 'p' },
      now: Date.now(),
    });
    expect(cli.store.submitting().map((r) => r.local_id)).toEqual([row.local_id]);
    expect(app.store.submitting()).toEqual([]);
    cli.cache.close(); // the CLI quits (or dies and is swept): its row is the app's to reconcile
    caches.splice(caches.indexOf(cli.cache), 1);
    expect(app.store.submitting().map((r) => r.local_id)).toEqual([row.local_id]);
  });
});
