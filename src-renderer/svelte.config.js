// Svelte compiler options shared by vite, electron-vite and svelte-check.
export default {
  compilerOptions: { runes: true },
};
