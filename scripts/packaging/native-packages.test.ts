import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { afterPack, beforePack, type PackContext } from './check-native-packages.ts';
import {
  checkNatives,
  installedIn,
  nativeNeeds,
  packedIn,
  type TargetArch,
  type TargetPlatform,
} from './native-packages.ts';

const root = resolve(import.meta.dirname, '..', '..');
const host = { platform: process.platform as TargetPlatform, arch: process.arch as TargetArch };
const other: TargetArch = host.arch === 'arm64' ? 'x64' : 'arm64';
const ARCH_ENUM: Record<TargetArch, number> = { x64: 1, arm64: 3 };

let temp: string | null = null;
afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = null;
});

function context(platform: string, arch: TargetArch, resourcesDir = '/nowhere'): PackContext {
  return {
    appOutDir: '/out',
    arch: ARCH_ENUM[arch],
    electronPlatformName: platform,
    packager: { projectDir: root, getResourcesDir: () => resourcesDir },
  };
}

describe('native packages per installer', () => {
  it('names the database, sharp, libvips and ffmpeg packages of each target', () => {
    expect(nativeNeeds('darwin', 'arm64').map((need) => need.path)).toEqual([
      'better-sqlite3/prebuilds/darwin-arm64.node',
      '@img/sharp-darwin-arm64',
      '@img/sharp-libvips-darwin-arm64',
      '@ffmpeg-installer/darwin-arm64',
    ]);
    // sharp's Windows packages carry libvips themselves.
    expect(nativeNeeds('win32', 'x64').map((need) => need.path)).toEqual([
      'better-sqlite3/prebuilds/win32-x64.node',
      '@img/sharp-win32-x64',
      '@ffmpeg-installer/win32-x64',
    ]);
  });

  it('only warns where no ffmpeg package exists (Windows on Arm)', () => {
    const needs = nativeNeeds('win32', 'arm64');
    const check = checkNatives(needs, (path) => !path.startsWith('@ffmpeg-installer/'));
    expect(check.missing).toEqual([]);
    expect(check.warnings.map((need) => need.path)).toEqual(['@ffmpeg-installer/win32-arm64']);
  });

  it("finds this machine's packages where the app will load them", () => {
    const check = checkNatives(nativeNeeds(host.platform, host.arch), installedIn(root));
    expect(check.missing).toEqual([]);
  });

  it('better-sqlite3 carries every prebuilt binary itself: no native rebuild is needed', () => {
    const has = installedIn(root);
    for (const target of ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-arm64', 'win32-x64']) {
      expect(has(`better-sqlite3/prebuilds/${target}.node`)).toBe(true);
    }
  });

  it('refuses to pack another architecture than node_modules holds, and says how to fix it', async () => {
    await expect(beforePack(context(host.platform, host.arch))).resolves.toBeUndefined();
    const refused = beforePack(context(host.platform, other));
    await expect(refused).rejects.toThrow(`@img/sharp-${host.platform}-${other}`);
    await expect(refused).rejects.toThrow(`npm ci --os=${host.platform} --cpu=${other}`);
  });

  it('checks the packed app carries them unpacked next to app.asar', async () => {
    temp = mkdtempSync(join(tmpdir(), 'atelier-packed-'));
    const modules = join(temp, 'app.asar.unpacked', 'node_modules');
    for (const need of nativeNeeds('linux', 'x64')) {
      const path = join(modules, need.path);
      if (path.endsWith('.node')) {
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, '');
      } else mkdirSync(path, { recursive: true });
    }
    expect(checkNatives(nativeNeeds('linux', 'x64'), packedIn(temp)).missing).toEqual([]);
    await expect(afterPack(context('linux', 'x64', temp))).resolves.toBeUndefined();
    rmSync(join(modules, '@img', 'sharp-libvips-linux-x64'), { recursive: true });
    await expect(afterPack(context('linux', 'x64', temp))).rejects.toThrow(/libvips.*\n.*asarUnpack/s);
  });

  it('refuses targets Atelier is not built for', async () => {
    await expect(beforePack({ ...context('linux', 'x64'), arch: 2 })).rejects.toThrow('not linux arch #2');
  });
});
