// Renderer build for browser mode and e2e (electron-vite builds the same root for Electron).
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export const rendererRoot = import.meta.dirname;

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [svelte()],
  resolve: { alias: { '@contract': resolve(rendererRoot, '../src-main/contract') } },
  build: { outDir: resolve(rendererRoot, '../out/renderer'), emptyOutDir: true, target: 'es2022' },
});
