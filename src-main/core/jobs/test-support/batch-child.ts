// A jobs engine in a process of its own running a batch, for the kill test: it starts a batch of
// <count> image requests (one in flight at a time), says on stdout each time an item is answered,
// and keeps going on real timers until the test SIGKILLs it.
// Usage: node batch-child.ts <emulatorUrl> <dbFile> <count>
import { createServiceClient } from '../../api/service-client.ts';
import { openAccountDb } from '../../db/account-db.ts';
import { createEventBus } from '../../events.ts';
import { silentLogger } from '../../log/index.ts';
import { createJobsEngine } from '../engine.ts';
import { jobsServiceFromClient } from '../service-port.ts';

const [url, dbFile, countText] = process.argv.slice(2);
if (!url || !dbFile || !countText) {
  console.error('usage: batch-child.ts <emulatorUrl> <dbFile> <count>');
  process.exit(2);
}
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const cache = openAccountDb(dbFile);
const client = createServiceClient({ baseUrl: url, getApiKey: () => 'demo-key', logger: silentLogger() });
const events = createEventBus();
const engine = createJobsEngine({ cache, service: jobsServiceFromClient(client), events, batchInFlight: 1 });
engine.start();
setInterval(() => {}, 60_000);
events.subscribe((event, payload) => {
  if (event !== 'batches:changed') return;
  const info = payload as { items: { sent: number }; jobs: Record<string, number> };
  say({ event: 'progress', sent: info.items.sent, queued: (info.jobs['queued'] ?? 0) + (info.jobs['running'] ?? 0) });
});
const count = Number(countText);
const items = Array.from({ length: count }, (_, i) => ({
  row: i + 1,
  expansion: null,
  of: 1,
  kind: 'image' as const,
  request: { modelID: 'imagea', prompt: `batch item ${i + 1}`, numImages: 1 },
  state: 'pending' as const,
  problem: null,
  estimate: null,
}));
const batch = engine.batches.create('killed batch', items);
say({ event: 'started', id: batch.id });
