// Playwright e2e: the real renderer and core through browser mode, in a system Chromium or
// Playwright's own (fixtures/chromium.ts; `npm run pretest:e2e` installs Playwright's where needed).
// The `_electron` specs in electron/ launch the real app where an Electron binary exists.
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './fixtures/chromium.ts';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    launchOptions: chromiumLaunchOptions(),
    viewport: { width: 1280, height: 800 },
    trace: 'off',
  },
});
