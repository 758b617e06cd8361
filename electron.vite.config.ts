// electron-vite: bundles main (src-main/index.ts), preload and the renderer into out/.
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

/** npm packages bundled into out/main instead of loaded from node_modules (the bench bundles the same). */
export const BUNDLED_IN_MAIN = ['valibot'] as const;

/**
 * Demo mode runs the emulator inside the bundled main process, where its fixture folder
 * (`<module dir>/../fixtures`) resolves to out/fixtures: copy the committed videos there.
 */
function copyEmulatorFixtures(): Plugin {
  return {
    name: 'atelier-copy-emulator-fixtures',
    apply: 'build',
    closeBundle() {
      cpSync(resolve(root, 'emulator/fixtures'), resolve(root, 'out/fixtures'), {
        recursive: true,
        filter: (source) => !source.endsWith('.sh'),
      });
    },
  };
}

export default defineConfig({
  main: {
    plugins: [copyEmulatorFixtures()],
    build: {
      outDir: 'out/main',
      // Dependencies stay imports from node_modules, except the small pure-ESM ones every start
      // evaluates: bundled, they are parsed with the start chunk and only what is used is kept.
      externalizeDeps: { exclude: [...BUNDLED_IN_MAIN] },
      rollupOptions: {
        input: { index: resolve(root, 'src-main/index.ts') },
        external: ['better-sqlite3', 'sharp'],
        // Lazily imported code (the demo's emulator) becomes its own chunk beside index.js, so
        // a start never loads it, and its `<module dir>/../fixtures` is still out/fixtures.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads must be CommonJS and self-contained (no require of npm modules).
      rollupOptions: {
        input: { index: resolve(root, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte()],
    resolve: { alias: { '@contract': resolve(root, 'src-main/contract') } },
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
