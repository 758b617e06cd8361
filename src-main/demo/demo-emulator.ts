// The emulator as demo mode loads it: on first use only, through a dynamic import, so a start of
// the app or of browser mode never loads it (nor fastify and sharp with it). In the bundle this
// file names the separate chunk the emulator lands in (out/main/demo-emulator-<hash>.js).
export { DEFAULT_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index.ts';
