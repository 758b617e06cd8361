// Tools are spawned portably: their bin file run by this Node, never a bare `npx`/`npm`, which a
// spawn without a shell cannot find on Windows (the commands there are npx.cmd and npm.cmd).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binCommand, packageBin, repoRoot } from './package-bin.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('package bins', () => {
  it('resolves the tools the scripts run to bin files, run by this Node', () => {
    const [node, args] = binCommand('electron-vite', ['build']);
    expect(node).toBe(process.execPath);
    expect(args[1]).toBe('build');
    expect(existsSync(args[0]!)).toBe(true);
    expect(existsSync(packageBin('@playwright/test', 'playwright'))).toBe(true);
  });

  it('no script or e2e file spawns npx, npm or a tool by bare name', () => {
    const offenders: string[] = [];
    for (const file of [...sources(join(repoRoot, 'scripts')), ...sources(join(repoRoot, 'e2e'))]) {
      // Code only: comments may name what not to do.
      const text = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const bare =
        /\b(spawn|spawnSync|execFile|execFileSync|exec|execSync)\(\s*['"`](npx|npm|pnpm|yarn|electron-vite|vite|playwright)\b/;
      if (bare.test(text)) offenders.push(relative(repoRoot, file));
    }
    expect(offenders).toEqual([]);
  });
});
