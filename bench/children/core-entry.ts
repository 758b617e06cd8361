// What the bundled cold start (scenario 5) loads: the core and the settings store a host starts it
// with, bundled by bench/harness/core-bundle.ts the way electron-vite bundles out/main.
export { createCore } from '../../src-main/core/core.ts';
export { createJsonFileStore } from '../../src-main/core/settings/json-file-store.ts';
export { withRunOverrides } from '../../src-main/cli/settings-overlay.ts';
