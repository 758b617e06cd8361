// Unit and integration tests (colocated *.test.ts); e2e specs (*.spec.ts) belong to Playwright.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'emulator/**/*.test.ts', 'src-renderer/src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['node_modules/**', 'out/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
