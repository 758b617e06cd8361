// `npm run lint:workflows` (part of `npm test`): every GitHub Actions workflow under
// .github/workflows (and any action.yml under .github/actions) checked with action-validator
// (@action-validator/core: the workflow and action JSON schemas, run offline). Prints each
// problem with its file; exits 1 on any, and when there is no workflow at all.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { validateAction, validateWorkflow, type ValidationError } from '@action-validator/core';

export interface WorkflowProblems {
  file: string;
  errors: ValidationError[];
}

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, keep);
    return keep(name) ? [path] : [];
  });
}

const isYaml = (name: string): boolean => /\.ya?ml$/.test(name);

/** The workflows and actions of the repository at `root`, each with its problems (none: valid). */
export function lintWorkflows(root: string): WorkflowProblems[] {
  const workflows = filesUnder(join(root, '.github', 'workflows'), isYaml);
  const actions = filesUnder(join(root, '.github', 'actions'), (name) => /^action\.ya?ml$/.test(name));
  return [
    ...workflows.map((file) => ({ file, errors: validateWorkflow(readFileSync(file, 'utf8')).errors })),
    ...actions.map((file) => ({ file, errors: validateAction(readFileSync(file, 'utf8')).errors })),
  ].sort((a, b) => a.file.localeCompare(b.file));
}

/** One line per problem; a "one of" failure explains itself by the closest alternative's problems. */
export function describeError(error: ValidationError, indent = ''): string {
  const where = 'path' in error ? error.path : error.location ? `line ${error.location.line}` : '';
  const detail = error.detail ? `: ${error.detail}` : '';
  const line = `${indent}${where ? `${where} ` : ''}${error.title} (${error.code})${detail}`;
  const states = 'states' in error ? (error.states ?? []) : [];
  const closest = [...states].sort((a, b) => a.errors.length - b.errors.length)[0];
  if (!closest || closest.errors.length === 0) return line;
  return [line, ...closest.errors.map((inner) => describeError(inner, `${indent}    `))].join('\n');
}

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  const results = lintWorkflows(root);
  if (results.length === 0) {
    console.error('lint:workflows: no workflow found under .github/workflows');
    process.exit(1);
  }
  let failed = 0;
  for (const { file, errors } of results) {
    const name = relative(root, file);
    if (errors.length === 0) {
      console.log(`lint:workflows: ${name} ok`);
      continue;
    }
    failed += 1;
    for (const error of errors) console.error(`lint:workflows: ${name}: ${describeError(error)}`);
  }
  if (failed > 0) process.exit(1);
}
