import { describe, expect, it } from 'vitest';
import { replySaysOwned, STATUS_NOTIFIER_WATCHER, trayIsShown, type RunProgram } from './tray-host.ts';

const reply = (owned: boolean) =>
  `method return time=1.2 sender=org.freedesktop.DBus -> destination=:1.9 serial=3 reply_serial=2\n   boolean ${owned}\n`;

describe('tray host', () => {
  it('reads the NameHasOwner reply of dbus-send', () => {
    expect(replySaysOwned(reply(true))).toBe(true);
    expect(replySaysOwned(reply(false))).toBe(false);
    expect(replySaysOwned('')).toBe(false);
    expect(replySaysOwned('string "boolean true"')).toBe(false);
  });

  it('asks the session bus for the StatusNotifier watcher on Linux, with a timeout', async () => {
    const asked: { file: string; args: readonly string[]; timeoutMs: number }[] = [];
    const run: RunProgram = async (file, args, timeoutMs) => {
      asked.push({ file, args, timeoutMs });
      return reply(true);
    };
    expect(await trayIsShown('linux', run)).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.file).toBe('dbus-send');
    expect(asked[0]!.args).toContain('--session');
    expect(asked[0]!.args).toContain(`string:${STATUS_NOTIFIER_WATCHER}`);
    expect(asked[0]!.timeoutMs).toBeLessThanOrEqual(2_000);
    expect(await trayIsShown('linux', async () => reply(false))).toBe(false);
  });

  it('counts a missing dbus-send or a silent bus as no tray, and never asks elsewhere', async () => {
    const failing: RunProgram = async () => {
      throw Object.assign(new Error('spawn dbus-send ENOENT'), { code: 'ENOENT' });
    };
    expect(await trayIsShown('linux', failing)).toBe(false);
    expect(await trayIsShown('win32', failing)).toBe(true);
    expect(await trayIsShown('darwin', failing)).toBe(true);
  });

  it('really runs a program and gives up on one that hangs', async () => {
    const { runProgram } = await import('./tray-host.ts');
    await expect(runProgram(process.execPath, ['-e', 'process.stdout.write("boolean true")'], 5_000)).resolves.toBe(
      'boolean true',
    );
    await expect(runProgram(process.execPath, ['-e', 'setTimeout(() => {}, 10000)'], 200)).rejects.toThrow();
  });
});
