// A jobs engine in a process of its own, for the kill tests: it submits jobs, says so on stdout,
// and keeps polling on real timers until the test SIGKILLs it.
// Usage: node engine-child.ts <emulatorUrl> <dbFile> <count> <in-flight|mid-submit>
import { createServiceClient } from '../../api/service-client.ts';
import { openAccountDb } from '../../db/account-db.ts';
import { createEventBus } from '../../events.ts';
import { silentLogger } from '../../log/index.ts';
import { createJobsEngine } from '../engine.ts';
import { jobsServiceFromClient } from '../service-port.ts';

const [url, dbFile, countText, mode] = process.argv.slice(2);
if (!url || !dbFile || !countText || (mode !== 'in-flight' && mode !== 'mid-submit')) {
  console.error('usage: engine-child.ts <emulatorUrl> <dbFile> <count> <in-flight|mid-submit>');
  process.exit(2);
}
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const cache = openAccountDb(dbFile);
const client = createServiceClient({ baseUrl: url, getApiKey: () => 'demo-key', logger: silentLogger() });
const engine = createJobsEngine({ cache, service: jobsServiceFromClient(client), events: createEventBus() });
engine.start();
// Keeps the process alive: the engine's own timers are unref'd.
setInterval(() => {}, 60_000);

const count = Number(countText);
const body = (i: number) => ({ modelID: 'imagea', prompt: `killed child job ${i}`, numImages: 1 });
if (mode === 'in-flight') {
  for (let i = 0; i < count; i += 1) {
    const job = await engine.submit({ kind: 'image', body: body(i) });
    say({ event: 'submitted', localId: job.localId, jobId: job.jobId, state: job.state });
  }
  say({ event: 'all-submitted' });
} else {
  for (let i = 0; i < count; i += 1) void engine.submit({ kind: 'image', body: body(i) }).catch(() => {});
  say({ event: 'posting' });
}
