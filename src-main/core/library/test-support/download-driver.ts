// A download queue in its own process, for the kill tests: opens the account database, runs the
// queue until every download has succeeded, and reports on stdout (one line per fact):
//   REQ <assetId> <rangeStart>     a media request was sent (0 = from the start)
//   P <assetId> <bytesDone>        progress
//   E <assetId> <state> <code> <message>   an error was recorded (a retry may follow)
//   RSS <bytes>                    resident memory, with --rss
//   DONE                           everything downloaded
// Usage: node download-driver.ts <dbFile> <libraryRoot> <emulatorUrl> [--throttle-ms N] [--rss]
import { Transform } from 'node:stream';
import { parseArgs } from 'node:util';
import { openAccountDb } from '../../db/account-db.ts';
import { DownloadQueue } from '../downloads/download-queue.ts';
import { fetchMedia, type MediaFetch } from '../media/media-http.ts';
import { emulatorLibraryClient } from './emulator-client.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    'throttle-ms': { type: 'string', default: '0' },
    rss: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '3' },
  },
});
const [dbFile, root, emulatorUrl] = positionals;
if (!dbFile || !root || !emulatorUrl) throw new Error('usage: download-driver.ts <dbFile> <libraryRoot> <emulatorUrl>');
const throttleMs = Number(values['throttle-ms']);
const out = (line: string): void => void process.stdout.write(`${line}\n`);

const cache = openAccountDb(dbFile);
const assetIdOf = new Map<string, string>(
  (cache.sqlite.prepare('SELECT id, url FROM assets').all() as { id: string; url: string }[]).map((r) => [r.url, r.id]),
);

/** Slows the body (a small pause per chunk) so kills land mid-transfer; logs the range asked for. */
const fetch: MediaFetch = async (url, headers, signal) => {
  const start = /^bytes=(\d+)-$/.exec(headers.range ?? '')?.[1] ?? '0';
  out(`REQ ${assetIdOf.get(url) ?? url} ${start}`);
  const response = await fetchMedia(url, headers, signal);
  if (throttleMs <= 0) return response;
  const slow = new Transform({
    highWaterMark: 16 * 1024,
    transform(chunk: Buffer, _e, done) {
      setTimeout(() => done(null, chunk), throttleMs);
    },
  });
  response.body.on('error', (error) => slow.destroy(error));
  return { ...response, body: response.body.pipe(slow) };
};

let peakRss = 0;
const queue = new DownloadQueue({
  db: cache.sqlite,
  assets: cache.assets,
  root: () => root,
  client: emulatorLibraryClient(emulatorUrl),
  concurrency: () => Number(values.concurrency),
  progressIntervalMs: 20,
  retryDelayMs: () => 10,
  logError: (message, error) => process.stderr.write(`${message}: ${String((error as Error)?.stack ?? error)}\n`),
  fetch,
  emit: (change) => {
    for (const item of change.changed) {
      out(`P ${item.asset.id} ${item.bytesDone}`);
      if (item.error) out(`E ${item.asset.id} ${item.state} ${item.error.code} ${item.error.message}`);
    }
    if (values.rss) {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      out(`RSS ${peakRss}`);
    }
    const pending = cache.sqlite.prepare("SELECT count(*) AS n FROM downloads WHERE state <> 'succeeded'").get() as {
      n: number;
    };
    if (pending.n === 0) {
      out('DONE');
      void queue.stop().then(() => {
        cache.close();
        process.exit(0);
      });
    }
  },
});
queue.start();
const pendingAtStart = cache.sqlite.prepare("SELECT count(*) AS n FROM downloads WHERE state <> 'succeeded'").get() as {
  n: number;
};
if (pendingAtStart.n === 0) {
  out('DONE');
  await queue.stop();
  cache.close();
  process.exit(0);
}
