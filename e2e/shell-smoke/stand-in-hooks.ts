// Module hooks for the shell smoke test's child process: `electron` resolves to the stand-in
// (electron-stand-in.ts) for the bundle and for electron-store alike, and every module loaded
// is recorded, so the test can say what a start did NOT load (sharp, the emulator, fastify).
import { registerHooks } from 'node:module';

const standInUrl = new URL('./electron-stand-in.ts', import.meta.url).href;

/** Every URL resolved by import or require, in order. */
export const loadedModules: string[] = [];
// Read by the stand-in for its journal (the stand-in itself is loaded through these hooks).
(globalThis as { __smokeLoadedModules?: string[] }).__smokeLoadedModules = loadedModules;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standInUrl, shortCircuit: true };
    const resolved = nextResolve(specifier, context);
    if (!resolved.url.startsWith('node:')) loadedModules.push(resolved.url);
    return resolved;
  },
});
