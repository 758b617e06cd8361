// `npm start`: builds and launches the Electron app, or says plainly why it cannot.
import { spawnSync } from 'node:child_process';
import { electronBinary } from './electron-binary.ts';

const binary = electronBinary();
if (!binary) {
  console.error(
    'Atelier: no Electron binary is installed on this machine (its download failed or was skipped); run `npm run start:browser` to use Atelier in your browser instead.',
  );
  process.exit(1);
}
const build = spawnSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(binary, ['.', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 0);
