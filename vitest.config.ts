// Unit and integration tests (colocated *.test.ts); e2e specs (*.spec.ts) belong to Playwright.
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Renderer state modules (*.svelte.ts) are compiled as the app compiles them, so their tests run the real runes.
  plugins: [svelte({ configFile: false })],
  // Renderer state modules import the contract through the same alias as the renderer build.
  resolve: { alias: { '@contract': resolve(import.meta.dirname, 'src-main/contract') } },
  test: {
    include: [
      'src-main/**/*.test.ts',
      'emulator/**/*.test.ts',
      'src-renderer/src/**/*.test.ts',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: ['node_modules/**', 'out/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
