// Runs the fault soak: the emulator (real clock, faster jobs), the fault proxy in front of it, the
// app's core in a child process (soak-child.ts) submitting a seeded plan through the proxy; while
// three submissions' answers are held, SIGKILL; a second process on the same data folder runs to the
// end. Collects what the checks (soak-checks.ts) compare: the core's rows and library, its events,
// the proxy's log (which request made which job), and the emulator's own records.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFaultProxy, NO_FAULTS, type FaultMix, type ProxyRecord } from '../../../../emulator/fault-proxy.ts';
import { startEmulator } from '../../../../emulator/index.ts';
import type { JobInfo } from '../../../contract/ipc/jobs.ts';
import { BURST_AT_SHARE, planSoak, type PlannedSubmission, type SoakMixSize } from './soak-plan.ts';

const CHILD = fileURLToPath(new URL('./soak-child.ts', import.meta.url));

export interface SoakOptions {
  seed: number;
  size: SoakMixSize;
  mix: FaultMix;
  /**
   * Virtual ms per real ms for the emulator and the core's engines alike (their timestamps agree):
   * the plan's span, poll intervals and reconciliation windows all pass this many times faster.
   */
  timeScale: number;
  /** Job lifecycles this many times faster again, on top of the clock. */
  jobSpeed: number;
  /** SIGKILL while the answers of the plan's burst's first `held` POSTs are held; null: no kill. */
  kill: { held: number } | null;
  /** After the last submission, how long (real ms) the run may take to settle before it is judged as it stands. */
  settleLimitMs: number;
  /** Keep the data folder (for a look after a failure). */
  keepDataDir?: boolean;
}

export interface ChildLine {
  /** Virtual epoch ms (the emulator's clock). */
  t: number;
  type: string;
  /** Which process said it: 1 before the kill, 2 after. */
  life: number;
  [key: string]: unknown;
}

export interface DumpedAsset {
  kind: 'image' | 'video';
  id: string;
  origin: string;
  jobId: string | null;
  prompt: string | null;
  paramsJson: string | null;
  file: { state: string; path: string | null };
}

export interface ServiceJob {
  jobId: string;
  status: string;
  createdAt: number;
  updatedAt: number;
  images: string[];
  videos: string[];
}

export interface ServiceImage {
  id: string;
  jobId: string | null;
  prompt: string | null;
  upscaledFrom: string | null;
}

export interface SoakRun {
  options: SoakOptions;
  plan: PlannedSubmission[];
  lines: ChildLine[];
  /** When each life's core was ready (virtual epoch ms; every time in a run is on the emulator's clock). */
  readyAt: number[];
  killedAt: number | null;
  /** The requests whose answers were held when the first process was killed. */
  heldAtKill: ProxyRecord[];
  records: readonly ProxyRecord[];
  jobs: JobInfo[];
  assets: DumpedAsset[];
  libraryDir: string;
  serviceJobs: ServiceJob[];
  serviceImages: Map<string, ServiceImage>;
  /** Whether everything settled before the limit (false: judged as it stood). */
  settled: boolean;
  wallMs: number;
  cleanUp(): void;
}

interface RunningChild {
  proc: ChildProcess;
  exited: Promise<void>;
  waitFor(type: string, timeoutMs: number): Promise<ChildLine>;
  send(line: string): void;
}

function startChild(life: number, args: string[], lines: ChildLine[], onLine: (line: ChildLine) => void): RunningChild {
  const proc = spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const waiters = new Set<(line: ChildLine) => void>();
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    let parsed: ChildLine;
    try {
      parsed = { ...(JSON.parse(text) as Omit<ChildLine, 'life'>), life } as ChildLine;
    } catch {
      return;
    }
    lines.push(parsed);
    onLine(parsed);
    for (const waiter of waiters) waiter(parsed);
  });
  let exitedFlag = false;
  const exited = new Promise<void>((resolve) =>
    proc.on('exit', () => {
      exitedFlag = true;
      resolve();
    }),
  );
  return {
    proc,
    exited,
    send: (line) => void proc.stdin!.write(`${line}\n`),
    waitFor: (type, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`soak child ${life}: no "${type}" within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
        }, timeoutMs);
        const check = (line: ChildLine): void => {
          if (line.type !== type) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(line);
        };
        waiters.add(check);
        if (exitedFlag) check({ t: 0, type: '__never', life });
        void exited.then(() => {
          if (!waiters.has(check)) return;
          waiters.delete(check);
          clearTimeout(timer);
          reject(new Error(`soak child ${life} exited before "${type}"; stderr:\n${stderr.slice(-2000)}`));
        });
      }),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function serviceCall<T>(base: string, path: string): Promise<T> {
  const answer = await fetch(`${base}${path}`, { headers: { authorization: 'Bearer demo-key', 'api-version': '1' } });
  const body = (await answer.json()) as { result: T; status: string };
  if (body.status !== 'OK') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.result;
}

/** Every job the service has for the key since `from`, with its outputs (straight from the emulator, not through the proxy). */
async function readService(
  base: string,
  from: number,
  to: number,
): Promise<{ jobs: ServiceJob[]; images: Map<string, ServiceImage> }> {
  const jobs: ServiceJob[] = [];
  const images = new Map<string, ServiceImage>();
  const range = `start=${new Date(from - 60_000).toISOString()}&end=${new Date(to + 60_000).toISOString()}`;
  let token = '';
  do {
    const page: { jobs: { jobId: string; createdAt: string; updatedAt: string }[]; nextPageToken: string } =
      await serviceCall(base, `/jobs?${range}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    for (const summary of page.jobs) {
      // The full record has no times (spec): they come from the list's summary.
      const job = await serviceCall<{
        jobId: string;
        status: string;
        images?: { id: string }[];
        videos?: { id: string }[];
      }>(base, `/jobs/${summary.jobId}`);
      jobs.push({
        jobId: job.jobId,
        status: job.status,
        createdAt: Date.parse(summary.createdAt),
        updatedAt: Date.parse(summary.updatedAt),
        images: (job.images ?? []).map((i) => i.id),
        videos: (job.videos ?? []).map((v) => v.id),
      });
      for (const id of job.images ?? []) {
        const record = await serviceCall<{ id: string; data: Record<string, unknown> }>(base, `/images/${id.id}`);
        const data = record.data;
        images.set(id.id, {
          id: id.id,
          jobId: typeof data['jobId'] === 'string' ? data['jobId'] : null,
          prompt: typeof data['prompt'] === 'string' ? data['prompt'] : null,
          upscaledFrom: typeof data['upscaledFrom'] === 'string' ? data['upscaledFrom'] : null,
        });
      }
    }
    token = page.nextPageToken;
  } while (token);
  return { jobs, images };
}

export async function runSoak(options: SoakOptions): Promise<SoakRun> {
  const wallStart = Date.now();
  const emulator = await startEmulator({
    seed: options.seed,
    timeScale: options.timeScale,
    jobSpeed: options.jobSpeed,
  });
  const now = (): number => emulator.control.now();
  const proxy = await startFaultProxy({ target: emulator.url, seed: options.seed, mix: NO_FAULTS, now });
  const realSleepUntil = (virtual: number): Promise<void> => sleep((virtual - now()) / options.timeScale);
  const dir = mkdtempSync(join(tmpdir(), 'atelier-soak-'));
  const dataDir = join(dir, 'data');
  const plan = planSoak(options.seed, options.size);
  const planFile = join(dir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const lines: ChildLine[] = [];
  const readyAt: number[] = [];
  let child: RunningChild | undefined;
  const children: RunningChild[] = [];
  try {
    // The account opens on a quiet network (opening an account on a bad one is not this test);
    // the faults start as soon as the core is up, before its first submission.
    const startAt = now() + 4_000 * options.timeScale;
    const launch = async (life: number): Promise<RunningChild> => {
      proxy.setMix(NO_FAULTS);
      const realAt = Date.now();
      const clock = `${now()},${realAt},${options.timeScale}`;
      const started = startChild(life, [dataDir, proxy.url, planFile, String(startAt), clock], lines, () => undefined);
      children.push(started);
      const ready = await started.waitFor('ready', 60_000);
      readyAt.push(ready.t);
      proxy.setMix(options.mix);
      return started;
    };
    child = await launch(1);

    let killedAt: number | null = null;
    let heldAtKill: ProxyRecord[] = [];
    if (options.kill) {
      // Just before the burst: its first POSTs reach the service, their answers never reach the app.
      await realSleepUntil(startAt + BURST_AT_SHARE * options.size.spanMs);
      proxy.hold({ method: 'POST', count: options.kill.held });
      await proxy.whenHeld(options.kill.held, options.size.spanMs / options.timeScale + 60_000);
      heldAtKill = [...proxy.held()];
      child.proc.kill('SIGKILL');
      await child.exited;
      killedAt = now();
      proxy.dropHeld();
      child = await launch(2);
    }

    await child.waitFor('all-submitted', options.size.spanMs / options.timeScale + 120_000);
    // Settled: no live row, every output of every finished row in the library, the service done.
    const limit = Date.now() + options.settleLimitMs;
    let settled = false;
    let dump: ChildLine | undefined;
    while (Date.now() < limit) {
      await sleep(2_000);
      const asked = child.waitFor('dump', 30_000);
      child.send('dump');
      dump = await asked;
      const jobs = dump['jobs'] as JobInfo[];
      const assets = dump['assets'] as DumpedAsset[];
      const live = jobs.some((job) => ['submitting', 'queued', 'running'].includes(job.state));
      const files = new Map(assets.map((a) => [`${a.kind}:${a.id}`, a.file.state]));
      const pendingFiles = jobs.some((job) =>
        job.outputs.some((o) => !['downloaded', 'failed'].includes(files.get(`${o.kind}:${o.id}`) ?? 'remote')),
      );
      if (!live && !pendingFiles) {
        settled = true;
        break;
      }
    }
    const asked = child.waitFor('dump', 30_000);
    child.send('dump');
    dump = await asked;
    child.send('exit');
    await Promise.race([child.exited, sleep(15_000)]);
    const service = await readService(emulator.url, startAt - 10 * 60_000, now());
    return {
      options,
      plan,
      lines,
      readyAt,
      killedAt,
      heldAtKill,
      records: proxy.records(),
      jobs: dump['jobs'] as JobInfo[],
      assets: dump['assets'] as DumpedAsset[],
      libraryDir: join(dataDir, 'Library'),
      serviceJobs: service.jobs,
      serviceImages: service.images,
      settled,
      wallMs: Date.now() - wallStart,
      cleanUp: () => {
        if (!options.keepDataDir) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (!options.keepDataDir) rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    for (const c of children) c.proc.kill('SIGKILL');
    await proxy.close();
    await emulator.close();
  }
}
