// `npm run lint:electron`: Doyensec's electronegativity over the main-process and preload sources
// (TypeScript, read as is), plus its CSP evaluator over the policy constant, for the installed
// Electron version. Prints every finding with its justification; fails on any it cannot justify.
// Works offline: the tool's own network calls (translations, Electron release list) are stubbed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../src-main/contract/csp.ts';
import { JUSTIFICATIONS, type Justification } from './electronegativity-justifications.ts';

const root = resolve(import.meta.dirname, '..');
const input = join(root, 'src-main');
const require = createRequire(join(root, 'package.json'));
const toolRequire = createRequire(require.resolve('@doyensec/electronegativity/package.json'));

// The tool fetches translations and Electron's release list with its own copy of got; answer
// both with an immediate failure instead of waiting on (and crashing after) a network timeout.
const offline = (): Promise<never> => Promise.reject(new Error('offline by design'));
const gotPath = toolRequire.resolve('got');
require.cache[gotPath] = {
  id: gotPath,
  filename: gotPath,
  loaded: true,
  exports: Object.assign(offline, { head: offline, get: offline }),
} as unknown as NodeJS.Module;

interface Level {
  name: string;
  value: number;
}
interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: Level;
  confidence: Level;
  manualReview: boolean;
  description: string;
}
interface RunResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}
type Run = (options: Record<string, unknown>, forCli: boolean) => Promise<RunResult>;

const toolPackage = JSON.parse(readFileSync(toolRequire.resolve('./package.json'), 'utf8')) as { version: string };
const electronVersion = (
  JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }
).version;
// Checks left out on purpose, with why (docs/security-notes.md repeats this).
const EXCLUDED_CHECKS: Record<string, string> = {
  AvailableSecurityFixesGlobalCheck:
    "needs the network (Electron's release list); Electron updates are tracked as a dependency instead",
};

const loaded = require('@doyensec/electronegativity') as Run | { default: Run };
const run: Run = typeof loaded === 'function' ? loaded : loaded.default;
// The tool says it could not fetch translations; that is the stub above doing its job.
const log = console.log;
console.log = (...args: unknown[]) => {
  if (!String(args[0]).startsWith('Could not retrieve updated translations')) log(...args);
};
const result = await run(
  {
    input,
    isRelative: true,
    isVerbose: false,
    electronVersionOverride: electronVersion,
    customScan: [],
    excludeFromScan: Object.keys(EXCLUDED_CHECKS).map((name) => name.toLowerCase()),
    parserPlugins: [],
  },
  false,
).finally(() => {
  console.log = log;
});

interface Finding {
  check: string;
  file: string;
  where: string;
  severity: string;
  what: string;
}

const findings: Finding[] = result.issues.map((issue) => ({
  check: issue.id,
  file: issue.file.replaceAll('\\', '/'),
  where: issue.file === 'N/A' ? 'global' : `src-main/${issue.file}:${issue.location.line}`,
  severity: `${issue.severity.name}/${issue.confidence.name}${issue.manualReview ? ', review' : ''}`,
  what: issue.description,
}));

// The same evaluator electronegativity applies to CSPs it finds, run on the policy we really send.
const cspEvaluator = toolRequire('@doyensec/csp-evaluator') as {
  CspParser: new (policy: string) => { csp: unknown };
  CspEvaluator: new (
    csp: unknown,
    version: unknown,
  ) => { evaluate(): { severity: number; directive: string; value?: string; description: string }[] };
  Version: { CSP3: unknown };
  severities: Record<string, number>;
};
const worstCounted = cspEvaluator.severities.MEDIUM_MAYBE ?? 50;
for (const finding of new cspEvaluator.CspEvaluator(
  new cspEvaluator.CspParser(CONTENT_SECURITY_POLICY).csp,
  cspEvaluator.Version.CSP3,
).evaluate()) {
  if (finding.severity > worstCounted) continue;
  const severity =
    Object.entries(cspEvaluator.severities).find(([, value]) => value === finding.severity)?.[0] ??
    String(finding.severity);
  findings.push({
    check: `CSP ${finding.directive} ${finding.value ?? ''}`.trim(),
    file: 'N/A',
    where: 'src-main/contract/csp.ts',
    severity,
    what: finding.description,
  });
}

const matches = (j: Justification, f: Finding): boolean => j.check === f.check && j.file === f.file;
const unjustified = findings.filter((f) => !JUSTIFICATIONS.some((j) => matches(j, f)));
const stale = JUSTIFICATIONS.filter((j) => !findings.some((f) => matches(j, f)));
const parseErrors = result.errors.filter((e) => !e.tolerable);

console.log(
  `electronegativity ${toolPackage.version} for Electron ${electronVersion}: ${result.globalChecks + result.atomicChecks} checks over src-main, plus the CSP evaluator over contract/csp.ts`,
);
for (const [name, why] of Object.entries(EXCLUDED_CHECKS)) console.log(`  not run: ${name} — ${why}`);
for (const finding of findings) {
  const justification = JUSTIFICATIONS.find((j) => matches(j, finding));
  console.log(
    `  ${justification ? 'justified' : 'TO FIX   '}  ${finding.check}  (${finding.severity})  ${finding.where}`,
  );
  console.log(`             ${justification ? justification.reason : finding.what}`);
}
for (const j of stale)
  console.log(`  stale justification (no such finding any more; remove it): ${j.check} in ${j.file}`);
for (const e of parseErrors) console.log(`  could not parse ${e.file}: ${e.message}`);
console.log(
  `electronegativity: ${findings.length} finding(s), ${findings.length - unjustified.length} justified, ${unjustified.length} to fix${parseErrors.length ? `, ${parseErrors.length} unparsed file(s)` : ''}.`,
);
process.exitCode = unjustified.length > 0 || parseErrors.length > 0 ? 1 : 0;
