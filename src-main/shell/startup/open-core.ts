// The core for the desktop: Electron's versions, the shell's logger, the safeStorage cipher,
// the settings file, media URLs on atelier-media:, the host adapters, and the
// in-process demo emulator (the same as browser mode's, loaded only when the demo opens).
import { app, safeStorage } from 'electron';
import { createCore, type Core } from '../../core/core.ts';
import type { HostServices } from '../../core/host/host-services.ts';
import { electronMediaUrl } from '../../core/library/library-host.ts';
import type { Logger } from '../../core/log/index.ts';
import type { KeyValueStore } from '../../core/settings/store.ts';
import { createEmulatorDemo } from '../../demo/emulator-demo.ts';
import { createSafeStorageCipher } from '../safe-storage-cipher.ts';

export interface OpenCoreOptions {
  dataDir: string;
  logger: Logger;
  store: KeyValueStore;
  hostServices: HostServices;
  /** Registers what must close on quit (lifecycle.ts). */
  addCloser(name: string, run: () => unknown): void;
}

export async function openCore(options: OpenCoreOptions): Promise<Core> {
  const demo = createEmulatorDemo({ dataDir: options.dataDir });
  options.addCloser('demo emulator', () => demo.stop());
  const core = await createCore({
    dataDir: options.dataDir,
    host: {
      kind: 'electron',
      appVersion: app.getVersion(),
      chromiumVersion: process.versions.chrome ?? null,
      electronVersion: process.versions.electron ?? null,
    },
    logger: options.logger,
    mediaUrlFor: electronMediaUrl,
    cipher: createSafeStorageCipher(safeStorage, process.platform),
    store: options.store,
    demo,
    hostServices: options.hostServices,
  });
  options.addCloser('core', () => core.close());
  return core;
}
