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
  build: {
    outDir: resolve(rendererRoot, '../out/renderer'),
    emptyOutDir: true,
    target: 'es2022',
    // CSS as the app ships it: electron-vite builds the renderer for Electron 45's Chromium, which
    // has light-dark(); lowered for older browsers it becomes two nested var() per colour token,
    // which every element's style pays (bench scenario 6 runs this build).
    cssTarget: 'chrome123',
  },
});
