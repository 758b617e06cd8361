// Playwright e2e: the real renderer and core in Debian Chromium through browser mode.
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
