// The app left running, in a process of its own for the fault soak (soak-run.ts kills it with
// SIGKILL and starts it again on the same data folder): the whole core (createCore, as a host
// starts it) on <dataDir>, talking to the service through the fault proxy, submitting the plan's
// requests at their times through `jobs:submit`. It says on stdout, one JSON line each, what it
// submitted and every `jobs:changed` / `downloads:changed` event with the time it saw it. On stdin,
// `dump` prints the jobs and the library as the core has them; `exit` closes the core and exits.
// Its engines run on the emulator's clock (virtual = <virtualMs> + (now − <realMs>) × <scale>, the
// emulator's own formula), so a 3-minute window takes 3 minutes ÷ scale; every time it prints is virtual.
// Usage: node soak-child.ts <dataDir> <serviceUrl> <planFile> <startAtVirtualMs> <virtualMs,realMs,scale>
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { withRunOverrides } from '../../../cli/settings-overlay.ts';
import type { JobInfo } from '../../../contract/ipc/jobs.ts';
import { createCore } from '../../core.ts';
import type { EngineTime } from '../../host/time.ts';
import { createJsonFileStore } from '../../settings/json-file-store.ts';
import type { PlannedSubmission } from './soak-plan.ts';

const [dataDir, serviceUrl, planFile, startAtText, clockText] = process.argv.slice(2);
const [virtualAnchor, realAnchor, scale] = (clockText ?? '').split(',').map(Number);
if (!dataDir || !serviceUrl || !planFile || !startAtText || !virtualAnchor || !realAnchor || !scale) {
  console.error('usage: soak-child.ts <dataDir> <serviceUrl> <planFile> <startAtVirtualMs> <virtualMs,realMs,scale>');
  process.exit(2);
}
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as PlannedSubmission[];
const startAt = Number(startAtText);
const time: EngineTime = {
  now: () => Math.floor(virtualAnchor + (Date.now() - realAnchor) * scale),
  random: () => Math.random(),
  setTimer: (fn, ms) => setTimeout(fn, Math.max(0, ms / scale)).unref(),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
/** Waits `ms` of virtual time. */
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms / scale)));
const say = (line: object): void => void process.stdout.write(`${JSON.stringify({ t: time.now(), ...line })}\n`);

const core = await createCore({
  dataDir,
  host: { kind: 'browser', appVersion: '0.0.0-soak', chromiumVersion: null, electronVersion: null },
  store: withRunOverrides(createJsonFileStore(dataDir), { baseUrl: serviceUrl }),
  apiKeyOverride: 'demo-key',
  time,
  // The engine's warnings (a failed check, a retried request) come here too: kept as lines, counted.
  logError: (message, error) => say({ type: 'core-error', message, error: String(error) }),
});
core.events.subscribe((event, payload) => {
  if (event === 'jobs:changed') {
    const job = payload as JobInfo;
    say({ type: 'jobs:changed', localId: job.localId, jobId: job.jobId, state: job.state, kind: job.kind });
  } else if (event === 'downloads:changed') {
    const { queue } = payload as { queue: { active: number; waiting: number; failed: number } };
    say({ type: 'downloads:changed', active: queue.active, waiting: queue.waiting, failed: queue.failed });
  }
});

const call = async <T>(channel: string, args: unknown): Promise<T> => {
  const result = await core.dispatch(channel as never, args as never);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`);
  return result.value as T;
};

for (let i = 0; ; i += 1) {
  const account = await call<{ mode: string }>('account:status', undefined);
  if (account.mode === 'service') break;
  if (i > 200) throw new Error(`the account did not open: ${JSON.stringify(account)}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const listJobs = (): Promise<JobInfo[]> => call<JobInfo[]>('jobs:list', { limit: 500 });

// After a restart: what the first process already wrote is not submitted again.
const already = await listJobs();
const promptsSent = new Set(already.map((job) => job.prompt).filter((p) => p !== null));
const sourcesUpscaled = new Set(already.filter((job) => job.kind === 'upscale').map((job) => job.sourceImageId));
say({ type: 'ready', pid: process.pid, rowsAtStart: already.length });

/** The image an upscale starts from: its planned source once that finished, else the earliest finished one not yet upscaled. */
async function upscaleSource(entry: Extract<PlannedSubmission, { kind: 'upscale' }>): Promise<string> {
  const promptOf = new Map(plan.flatMap((p) => (p.kind === 'upscale' ? [] : [[p.n, p.body['prompt']]])));
  for (;;) {
    const jobs = await listJobs();
    const done = jobs
      .filter((job) => job.kind === 'image' && job.state === 'succeeded' && job.outputs.length > 0)
      .sort((a, b) => a.localId - b.localId);
    const planned = done.find((job) => job.prompt === promptOf.get(entry.sourceN));
    const source = [planned, ...done].find((job) => job && !sourcesUpscaled.has(job.outputs[0]!.id));
    if (source) {
      const id = source.outputs[0]!.id;
      sourcesUpscaled.add(id);
      return id;
    }
    await sleep(500 * (scale ?? 1));
  }
}

async function submit(entry: PlannedSubmission): Promise<void> {
  const request =
    entry.kind === 'upscale'
      ? { kind: 'upscale' as const, body: { imageID: await upscaleSource(entry) } }
      : { kind: entry.kind, body: entry.body };
  say({ type: 'submitting', n: entry.n, kind: entry.kind, body: request.body });
  try {
    const job = await call<JobInfo>('jobs:submit', request);
    say({ type: 'submitted', n: entry.n, localId: job.localId, jobId: job.jobId, state: job.state });
  } catch (error) {
    say({ type: 'submit-refused', n: entry.n, error: String(error) });
  }
}

const pending: Promise<void>[] = [];
// Upscales are told apart by the source they took, chosen when due: the first ones are those already sent.
let upscalesToSkip = sourcesUpscaled.size;
for (const entry of plan) {
  if (entry.kind === 'upscale') {
    if (upscalesToSkip > 0) {
      upscalesToSkip -= 1;
      continue;
    }
  } else if (promptsSent.has(entry.body['prompt'] as string)) continue;
  await sleep(startAt + entry.atMs - time.now());
  // A user does not wait for one answer before the next Generate: each request goes on its own.
  pending.push(submit(entry));
}
await Promise.all(pending);
say({ type: 'all-submitted' });

// Keeps the process alive (the engine's own timers are unref'd) until told to dump or exit.
const keepAlive = setInterval(() => {}, 60_000);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'dump') {
    const jobs = await listJobs();
    const assets: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Record<string, unknown>[]; nextCursor: string | null } = await call('assets:list', {
        cursor,
        limit: 500,
      });
      for (const a of page.items)
        assets.push({
          kind: a['kind'],
          id: a['id'],
          origin: a['origin'],
          jobId: a['jobId'],
          prompt: a['prompt'],
          paramsJson: a['paramsJson'],
          file: a['file'],
        });
      cursor = page.nextCursor;
    } while (cursor);
    say({ type: 'dump', jobs, assets });
  } else if (line === 'exit') {
    clearInterval(keepAlive);
    await core.close();
    process.exit(0);
  }
}
