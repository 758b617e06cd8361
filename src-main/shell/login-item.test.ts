import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyOpenAtLogin, autostartEntry, autostartFile, launchCommand, type LaunchFacts } from './login-item.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const facts = (over: Partial<LaunchFacts> = {}): LaunchFacts => ({
  platform: 'linux',
  isPackaged: true,
  execPath: '/opt/Atelier/atelier',
  appPath: '/opt/Atelier/resources/app.asar',
  env: {},
  ...over,
});

describe('open at login', () => {
  it('starts the same copy: packaged alone, a development run with its app folder, an AppImage by itself', () => {
    expect(launchCommand(facts())).toEqual({ path: '/opt/Atelier/atelier', args: [] });
    expect(launchCommand(facts({ isPackaged: false, execPath: '/r/electron', appPath: '/r' }))).toEqual({
      path: '/r/electron',
      args: ['/r'],
    });
    expect(launchCommand(facts({ env: { APPIMAGE: '/home/u/Atelier.AppImage' } }))).toEqual({
      path: '/home/u/Atelier.AppImage',
      args: [],
    });
  });

  it('uses Electrons login items on Windows (with the launch command) and macOS', () => {
    const calls: unknown[] = [];
    const host = { setLoginItemSettings: (s: unknown) => void calls.push(s) };
    applyOpenAtLogin(
      true,
      'Atelier',
      facts({ platform: 'win32', isPackaged: false, execPath: 'C:\\e.exe', appPath: 'C:\\app' }),
      host,
    );
    applyOpenAtLogin(false, 'Atelier', facts({ platform: 'darwin' }), host);
    expect(calls).toEqual([{ openAtLogin: true, path: 'C:\\e.exe', args: ['C:\\app'] }, { openAtLogin: false }]);
  });

  it('writes and removes an XDG autostart entry on Linux', () => {
    const config = mkdtempSync(join(tmpdir(), 'atelier-autostart-'));
    dirs.push(config);
    const linux = facts({
      isPackaged: false,
      execPath: '/x/my "electron"',
      appPath: '/x/app $HOME',
      env: { XDG_CONFIG_HOME: config },
    });
    const host = {
      setLoginItemSettings: () => {
        throw new Error('not on Linux');
      },
    };
    const file = autostartFile(linux.env);
    expect(file).toBe(join(config, 'autostart', 'atelier.desktop'));
    applyOpenAtLogin(true, 'Atelier', linux, host);
    const entry = readFileSync(file, 'utf8');
    expect(entry).toBe(autostartEntry('Atelier', linux));
    expect(entry).toContain('Exec="/x/my \\"electron\\"" "/x/app \\$HOME"');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
    applyOpenAtLogin(false, 'Atelier', linux, host);
    expect(existsSync(file)).toBe(false);
    applyOpenAtLogin(false, 'Atelier', linux, host);
  });
});
