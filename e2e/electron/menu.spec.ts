// The application menu's Settings… (Cmd/Ctrl+,) opens Settings in the window, from whichever view is
// showing. Runs only where an Electron binary exists; elsewhere the mapping's unit test covers it.
import { expect, test } from '@playwright/test';
import { launchAtelier, skipWithoutElectron } from './electron-app.ts';

test('Settings… in the application menu opens the Settings view', async ({}, testInfo) => {
  skipWithoutElectron(testInfo);
  const running = await launchAtelier();
  try {
    const { window } = running;
    await window.getByTestId('choose-demo').click();
    await expect(window.getByTestId('view-create-image')).toBeVisible({ timeout: 20_000 });
    await window.getByTestId('nav-library').click();
    const clicked = await running.app.evaluate(({ Menu }) => {
      type Item = { accelerator?: string | null; submenu?: { items: Item[] } | null; click(): void };
      const find = (items: Item[]): Item | undefined => {
        for (const item of items) {
          if (item.accelerator === 'CmdOrCtrl+,') return item;
          const inner = item.submenu ? find(item.submenu.items) : undefined;
          if (inner) return inner;
        }
        return undefined;
      };
      const item = find((Menu.getApplicationMenu()?.items ?? []) as unknown as Item[]);
      item?.click();
      return item !== undefined;
    });
    expect(clicked).toBe(true);
    await expect(window.getByTestId('view-settings')).toBeVisible();
    await expect(window.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  } finally {
    await running.close();
  }
});
