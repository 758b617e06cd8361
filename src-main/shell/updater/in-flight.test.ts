import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../../contract/ipc/jobs.ts';
import type { DownloadQueueInfo } from '../../contract/ipc/library.ts';
import type { UploadInfo } from '../../contract/ipc/uploads.ts';
import type { Dispatch } from '../../core/dispatch.ts';
import { createEventBus } from '../../core/events.ts';
import { watchCoreInFlight } from './in-flight.ts';
import { NOTHING_IN_FLIGHT } from './update-policy.ts';

const job = (localId: number, state: JobInfo['state']) => ({ localId, state }) as JobInfo;
const upload = (id: number, state: UploadInfo['state']) => ({ id, state }) as UploadInfo;
const queue = (active: number): DownloadQueueInfo => ({
  state: 'running',
  pauseReason: null,
  message: null,
  concurrency: 3,
  active,
  waiting: 10,
  failed: 0,
});

/** The core's dispatch as the updater uses it: three lists, or the error without an account. */
function fakeCore(lists: Record<string, unknown> | null) {
  const events = createEventBus();
  const calls: string[] = [];
  return {
    calls,
    core: {
      events,
      dispatch: (async (channel) => {
        calls.push(String(channel));
        if (!lists) return { ok: false, error: { code: 'auth', message: 'No account.' } };
        return { ok: true, value: lists[String(channel)] };
      }) satisfies Dispatch,
    },
  };
}

describe('work in flight, from the core', () => {
  it('reads what already runs from the core lists', async () => {
    const { core, calls } = fakeCore({
      'jobs:list': [job(1, 'submitting'), job(2, 'queued'), job(3, 'running')],
      'uploads:list': [upload(7, 'uploading'), upload(8, 'queued'), upload(9, 'succeeded')],
      'library:downloads': { queue: queue(2), items: [] },
    });
    const watch = watchCoreInFlight(core);
    expect(watch.current()).toEqual(NOTHING_IN_FLIGHT);
    await watch.refresh();
    expect(calls.sort()).toEqual(['jobs:list', 'library:downloads', 'uploads:list']);
    expect(watch.current()).toEqual({ submissions: 1, uploads: 1, downloads: 2, libraryMove: false });
  });

  it('sees nothing in flight without an account', async () => {
    const watch = watchCoreInFlight(fakeCore(null).core);
    await watch.refresh();
    expect(watch.current()).toEqual(NOTHING_IN_FLIGHT);
  });

  it('follows the core events and tells its listeners on every change', () => {
    const { core } = fakeCore(null);
    const watch = watchCoreInFlight(core);
    let changes = 0;
    watch.subscribe(() => void (changes += 1));

    core.events.emit('jobs:changed', job(4, 'submitting'));
    core.events.emit('jobs:changed', job(4, 'submitting'));
    core.events.emit('uploads:changed', upload(5, 'uploading'));
    core.events.emit('downloads:changed', { queue: queue(1), changed: [], removed: [] });
    core.events.emit('library:move-progress', { state: 'copying' } as never);
    expect(watch.current()).toEqual({ submissions: 1, uploads: 1, downloads: 1, libraryMove: true });
    expect(changes).toBe(4);

    core.events.emit('jobs:changed', job(4, 'queued'));
    core.events.emit('uploads:changed', upload(5, 'succeeded'));
    core.events.emit('downloads:changed', { queue: queue(0), changed: [], removed: [] });
    core.events.emit('library:move-progress', { state: 'done' } as never);
    expect(watch.current()).toEqual(NOTHING_IN_FLIGHT);
    expect(changes).toBe(8);
  });

  it('forgets the previous account work on a switch and reads the new one', async () => {
    const { core, calls } = fakeCore({
      'jobs:list': [],
      'uploads:list': [upload(1, 'uploading')],
      'library:downloads': { queue: queue(0), items: [] },
    });
    const watch = watchCoreInFlight(core);
    core.events.emit('jobs:changed', job(9, 'submitting'));
    core.events.emit('account:changed', {} as never);
    expect(watch.current().submissions).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toContain('uploads:list');
    expect(watch.current()).toEqual({ ...NOTHING_IN_FLIGHT, uploads: 1 });
  });

  it('stops listening when closed', () => {
    const { core } = fakeCore(null);
    const watch = watchCoreInFlight(core);
    watch.close();
    core.events.emit('uploads:changed', upload(5, 'uploading'));
    expect(watch.current()).toEqual(NOTHING_IN_FLIGHT);
  });
});
