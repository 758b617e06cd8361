// electron-builder.yml, read and judged by electron-builder's own code (app-builder-lib, the
// library behind the electron-builder CLI): its loader, its JSON-schema validation
// (app-builder-lib/scheme.json) and its icon resolution. Plus the settings installers rely on.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { convertIcon } from 'app-builder-lib/out/util/iconConverter.js';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const quiet = { isEnabled: false, add() {} } as never;
const load = (): Promise<Configuration> => getConfig(root, null, null);
const packageJson = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(await load(), quiet)).resolves.toBeUndefined();
  });

  it('fails the schema on a misspelt option (the check can fail)', async () => {
    const config = await load();
    const planted = { ...config, mac: { ...config.mac, identty: '-' } } as Configuration;
    await expect(validateConfiguration(planted, quiet)).rejects.toThrow(
      /Invalid configuration object[\s\S]*configuration\.mac/,
    );
  });

  it('gives deb what it requires: homepage, an author with an email, a maintainer', async () => {
    const config = await load();
    expect(packageJson['homepage']).toMatch(/^https:\/\//);
    expect(packageJson['author']).toMatchObject({ name: expect.any(String), email: expect.stringContaining('@') });
    expect(config.linux?.maintainer).toMatch(/^.+ <.+@.+>$/);
  });

  it('does no native rebuild, and unpacks every native package and executable', async () => {
    const config = await load();
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        'node_modules/better-sqlite3/**',
        'node_modules/sharp/**',
        'node_modules/@img/**',
        'node_modules/@ffmpeg-installer/**',
      ]),
    );
    expect(config.beforePack).toBe('./scripts/packaging/check-native-packages.ts');
    expect(config.afterPack).toBe('./scripts/packaging/check-native-packages.ts');
  });

  it('builds the architecture asked for (no target pins one) and names installers by OS and arch', async () => {
    const config = await load();
    const targets = [config.mac?.target, config.win?.target, config.linux?.target].flat();
    for (const target of targets) {
      expect(typeof target === 'string' || (typeof target === 'object' && target !== null && !('arch' in target))).toBe(
        true,
      );
    }
    expect(config.artifactName).toBe('${productName}-${version}-${os}-${arch}.${ext}');
  });

  it('signs macOS ad hoc when there is no identity, and notarizes only from the environment', async () => {
    const config = await load();
    expect(config.electronFuses?.resetAdHocDarwinSignature).toBe(true);
    // Naming '-' would override a configured Developer ID.
    expect(config.mac && 'identity' in config.mac).toBe(false);
    expect(config.mac?.notarize).toBe(true);
    // electron-updater's macOS updater installs from the zip.
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
  });

  it('publishes to a generic feed, one folder per OS and architecture', async () => {
    const config = await load();
    expect(config.publish).toEqual({
      provider: 'generic',
      url: 'https://updates.example.com/atelier/${os}/${arch}',
    });
  });

  it('has an icon for every target that electron-builder takes as is (no conversion)', async () => {
    const config = await load();
    const roots = [resolve(root, 'resources'), root];
    const outDir = resolve(root, 'release', '.icon-test');
    const mac = await convertIcon({
      sources: [config.mac?.icon as string],
      fallbackSources: [],
      roots,
      format: 'icns',
      outDir,
    });
    expect(mac.icons.map((icon) => icon.file)).toEqual([resolve(root, 'resources/icon.icns')]);
    const win = await convertIcon({
      sources: [config.win?.icon as string],
      fallbackSources: [],
      roots,
      format: 'ico',
      outDir,
    });
    expect(win.icons).toEqual([{ file: resolve(root, 'resources/icon.ico'), size: 256 }]);
    const linux = await convertIcon({
      sources: [config.linux?.icon as string],
      fallbackSources: [],
      roots,
      format: 'set',
      outDir,
    });
    expect(linux.icons.map((icon) => icon.size)).toEqual([16, 24, 32, 48, 64, 128, 256, 512]);
    expect(mac.isFallback || win.isFallback || linux.isFallback).toBe(false);
  });
});
