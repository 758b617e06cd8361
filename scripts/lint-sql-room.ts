// `npm run lint:layers` (part of `npm test`): the sqlRoom rule of eslint.config.js alone, over
// src-main: `.prepare(` outside src-main/core/db fails. Prints file:line:col and the message of
// each breach; exits 1 on any.
import { relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { sqlRoom } from '../eslint.config.js';

const ROOT = resolve(import.meta.dirname, '..');

/** A linter that knows only the sqlRoom rule (file paths relative to the repository root). */
export function sqlRoomLinter(cwd = ROOT): ESLint {
  return new ESLint({ cwd, overrideConfigFile: true, overrideConfig: sqlRoom, errorOnUnmatchedPattern: false });
}

export function describeResults(results: ESLint.LintResult[], cwd = ROOT): string[] {
  return results.flatMap((result) =>
    result.messages
      .filter((m) => m.severity === 2)
      .map((m) => `${relative(cwd, result.filePath)}:${m.line}:${m.column} ${m.message} (${m.ruleId ?? 'parse'})`),
  );
}

if (import.meta.main) {
  const lines = describeResults(await sqlRoomLinter().lintFiles(['src-main']));
  for (const line of lines) console.error(line);
  if (lines.length > 0) {
    console.error(`sql-room: ${lines.length} statement(s) prepared outside src-main/core/db.`);
    process.exit(1);
  }
  console.log('sql-room: no SQL outside src-main/core/db.');
}
