import { describe, expect, it } from 'vitest';
import { queueSummary, trayModel } from './tray-model.ts';

describe('tray model', () => {
  it('says plainly when nothing is in progress', () => {
    const model = trayModel('Atelier', { queued: 0, running: 0 }, false);
    expect(model.tooltip).toBe('Atelier — No jobs in progress');
    expect(model.title).toBe('');
    expect(model.items[0]).toEqual({ kind: 'status', label: 'No jobs in progress' });
  });

  it('counts running and queued jobs with the right plural', () => {
    expect(queueSummary({ queued: 0, running: 1 })).toBe('1 job running');
    expect(queueSummary({ queued: 3, running: 2 })).toBe('2 jobs running, 3 queued');
    expect(queueSummary({ queued: 4, running: 0 })).toBe('4 queued');
    expect(trayModel('Atelier', { queued: 3, running: 2 }, false).title).toBe('2');
  });

  it('shows that checking is paused and ticks the menu item', () => {
    const model = trayModel('Atelier', { queued: 1, running: 0 }, true);
    expect(model.tooltip).toBe('Atelier — 1 queued (checking paused)');
    expect(model.items).toContainEqual({
      kind: 'command',
      command: 'toggle-polling',
      label: 'Pause Checking Jobs',
      checked: true,
    });
  });

  it('offers Open, Pause checking and Quit in that order', () => {
    const commands = trayModel('Atelier', { queued: 0, running: 0 }, false).items.flatMap((item) =>
      item.kind === 'command' ? [item.command] : [],
    );
    expect(commands).toEqual(['open', 'toggle-polling', 'quit']);
  });

  it('treats nonsense counts as zero', () => {
    expect(queueSummary({ queued: Number.NaN, running: -2 })).toBe('No jobs in progress');
    expect(queueSummary({ queued: 2.7, running: 0 })).toBe('2 queued');
  });

  it('offers Restart to Update right under the status once an update is downloaded', () => {
    const model = trayModel('Atelier', { queued: 0, running: 1 }, false, false, {
      version: '1.2.0',
      label: 'Restart to Update',
      enabled: true,
    });
    expect(model.items.slice(0, 4)).toEqual([
      { kind: 'status', label: '1 job running' },
      { kind: 'separator' },
      { kind: 'command', command: 'restart-to-update', label: 'Restart to Update' },
      { kind: 'separator' },
    ]);
    const commands = model.items.flatMap((item) => (item.kind === 'command' ? [item.command] : []));
    expect(commands).toEqual(['restart-to-update', 'open', 'toggle-polling', 'quit']);
  });

  it('shows a restart waiting for work in flight as a disabled item', () => {
    const model = trayModel('Atelier', { queued: 0, running: 0 }, false, true, {
      version: '1.2.0',
      label: 'Update Waits for 1 upload…',
      enabled: false,
    });
    expect(model.items).toContainEqual({
      kind: 'command',
      command: 'restart-to-update',
      label: 'Update Waits for 1 upload…',
      enabled: false,
    });
  });

  it('has no update item without a downloaded update', () => {
    for (const update of [undefined, null]) {
      const model = trayModel('Atelier', { queued: 0, running: 0 }, false, false, update);
      expect(model.items.some((item) => item.kind === 'command' && item.command === 'restart-to-update')).toBe(false);
    }
  });
});
