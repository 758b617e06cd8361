// e2e `test`s with their own browser-mode app: `demoApp` (shared, in demo mode, so the frame shows) and
// `freshApp` (one per test, no account yet: first run) for tests that change the account.
import { test as base } from '../fixtures/page-errors.ts';
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

export const freshTest = base.extend<{ freshApp: RunningApp }>({
  freshApp: async ({}, use) => {
    const app = await startBrowserModeApp();
    await use(app);
    await app.stop();
  },
});

export { expect } from '@playwright/test';
