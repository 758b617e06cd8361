// electron-vite: bundles main (src-main/index.ts), preload and the renderer into out/.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(root, 'src-main/index.ts') }, external: ['better-sqlite3', 'sharp'] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads must be CommonJS.
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
