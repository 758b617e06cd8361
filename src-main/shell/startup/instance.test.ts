import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimInstance, type InstanceApp } from './instance.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function recordingApp(lockFree: boolean) {
  const calls: string[] = [];
  const app: InstanceApp = {
    setPath: (name, path) => void calls.push(`setPath ${name} ${path}`),
    setName: (name) => void calls.push(`setName ${name}`),
    requestSingleInstanceLock: () => {
      calls.push('lock');
      return lockFree;
    },
  };
  return { app, calls };
}

describe('claim the instance', () => {
  it('makes the data folder, points userData at it, then asks for the lock', () => {
    const root = mkdtempSync(join(tmpdir(), 'atelier-instance-'));
    dirs.push(root);
    const dataDir = join(root, 'nested', 'Atelier');
    const { app, calls } = recordingApp(true);
    expect(claimInstance(app, dataDir, 'Atelier')).toBe(true);
    expect(statSync(dataDir).isDirectory()).toBe(true);
    expect(calls).toEqual([`setPath userData ${dataDir}`, 'setName Atelier', 'lock']);
    expect(claimInstance(recordingApp(false).app, dataDir, 'Atelier')).toBe(false);
  });

  it('throws (for the error box) instead of asking for a lock in a folder it cannot make', () => {
    const root = mkdtempSync(join(tmpdir(), 'atelier-instance-'));
    dirs.push(root);
    writeFileSync(join(root, 'a-file'), '');
    const { app, calls } = recordingApp(true);
    expect(() => claimInstance(app, join(root, 'a-file', 'Atelier'), 'Atelier')).toThrow();
    expect(calls).toEqual([]);
  });
});
