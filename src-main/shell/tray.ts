// The tray icon: the queue at a glance (tooltip, macOS title) and Open / Pause checking / Quit.
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import type { QueueCountsInfo } from '../contract/ipc/shell.ts';
import { trayModel, type TrayCommand, type TrayModel } from './tray-model.ts';
import type { UpdateOffer } from './updater/update-policy.ts';

export interface AppTray {
  /** `update`: a downloaded update to offer (the updater's offer), null or absent for none. */
  update(counts: QueueCountsInfo, pollingPaused: boolean, demo: boolean, update?: UpdateOffer | null): void;
  /** What the tray shows now (for the Electron e2e). */
  model(): TrayModel;
  destroy(): void;
}

export interface TrayOptions {
  appName: string;
  platform: NodeJS.Platform;
  /** Folder holding trayTemplate.png (+@2x) for macOS and tray.png elsewhere. */
  imagesDir: string;
  run(command: TrayCommand): void;
}

export function createAppTray(options: TrayOptions): AppTray {
  const mac = options.platform === 'darwin';
  const image = nativeImage.createFromPath(join(options.imagesDir, mac ? 'trayTemplate.png' : 'tray.png'));
  // A template image follows the light/dark menu bar on macOS.
  if (mac) image.setTemplateImage(true);
  const tray = new Tray(image);
  let current = trayModel(options.appName, { queued: 0, running: 0 }, false);

  const render = (model: TrayModel): void => {
    const template: MenuItemConstructorOptions[] = model.items.map((item) => {
      if (item.kind === 'separator') return { type: 'separator' };
      if (item.kind === 'status') return { label: item.label, enabled: false };
      return {
        label: item.label,
        ...(item.checked === undefined ? {} : { type: 'checkbox' as const, checked: item.checked }),
        ...(item.enabled === false ? { enabled: false } : {}),
        click: () => options.run(item.command),
      };
    });
    tray.setToolTip(model.tooltip);
    if (mac) tray.setTitle(model.title);
    tray.setContextMenu(Menu.buildFromTemplate(template));
  };

  // Windows and most Linux trays: a left click opens the window; the menu is on right click.
  if (!mac) tray.on('click', () => options.run('open'));
  render(current);

  return {
    update(counts, pollingPaused, demo, update = null) {
      const next = trayModel(options.appName, counts, pollingPaused, demo, update);
      if (JSON.stringify(next) === JSON.stringify(current)) return;
      current = next;
      render(next);
    },
    model: () => current,
    destroy: () => tray.destroy(),
  };
}
