// The docs' pictures (`npm run docs:screens`), kept out of the test run: these drive the real app like
// the e2e specs (same fixtures and page objects) but only take pictures, so they are not tests.
import { defineConfig } from '@playwright/test';
import base from '../playwright.config.ts';

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '**/*.screens.ts',
  outputDir: '../../test-results/screens',
  timeout: 180_000,
});
