// An e2e `test` whose app runs in demo mode (the in-process emulator), so the frame shows instead of first run.
import { test as base } from '@playwright/test';
import { startBrowserModeApp, type RunningApp } from '../fixtures/browser-mode.ts';

export const demoTest = base.extend<object, { demoApp: RunningApp }>({
  demoApp: [
    async ({}, use) => {
      const app = await startBrowserModeApp(['--demo']);
      await use(app);
      await app.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
