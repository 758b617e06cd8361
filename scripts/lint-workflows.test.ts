import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError, lintWorkflows } from './lint-workflows.ts';

const root = resolve(import.meta.dirname, '..');
const ci = readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8');

let temp: string | null = null;
afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = null;
});

/** A repository holding only this workflow. */
function repoWith(workflow: string): string {
  temp = mkdtempSync(join(tmpdir(), 'atelier-workflows-'));
  mkdirSync(join(temp, '.github', 'workflows'), { recursive: true });
  writeFileSync(join(temp, '.github', 'workflows', 'ci.yml'), workflow);
  return temp;
}

const problemsOf = (workflow: string): string[] =>
  lintWorkflows(repoWith(workflow)).flatMap((result) => result.errors.map((error) => describeError(error)));

describe('workflow lint', () => {
  it('finds the CI workflow valid', () => {
    const results = lintWorkflows(root);
    expect(results.map((result) => result.file)).toContain(join(root, '.github', 'workflows', 'ci.yml'));
    expect(results.flatMap((result) => result.errors)).toEqual([]);
  });

  it('runs the test job on macOS, Windows and Linux, and builds installers per architecture', () => {
    expect(ci).toContain('os: [ubuntu-24.04, macos-15, windows-2025]');
    for (const runner of ['macos-15, arch: arm64', 'macos-15-intel, arch: x64', 'ubuntu-24.04-arm, arch: arm64']) {
      expect(ci).toContain(runner);
    }
    expect(ci).toContain('npm run dist -- --publish never --${{ matrix.arch }}');
    expect(ci).toMatch(/xvfb-run --auto-servernum npx playwright test -c e2e\/playwright.config.ts e2e\/electron/);
  });

  it('fails a misspelt job key, naming it', () => {
    const problems = problemsOf(ci.replace('    runs-on: ${{ matrix.os }}', '    run-on: ${{ matrix.os }}'));
    expect(problems.join('\n')).toContain("Additional property 'run-on' is not allowed");
  });

  it('fails an event GitHub does not have', () => {
    expect(problemsOf(ci.replace('  workflow_dispatch:\n', '  workflow_dispatch:\n  pushh:\n'))).not.toEqual([]);
  });

  it('fails a file that is not YAML', () => {
    expect(problemsOf('jobs: [unclosed\n')).not.toEqual([]);
  });
});
