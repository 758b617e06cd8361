// Saves a view's screenshot in light and dark into e2e-artifacts/screenshots/ (gitignored) for people to look at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { repoRoot } from '../fixtures/browser-mode.ts';

export const SCREENSHOT_DIR = join(repoRoot, 'e2e-artifacts', 'screenshots');

export async function screenshotBothSchemes(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Let transitions settle so the picture shows the final colours.
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: null });
}
