// Child process of scenario 4: downloads in a process of their own, so memory figures are clean.
//   atelier <dbFile> <root> <emulatorUrl> [--count] [--memory]: runs Atelier's DownloadQueue (product
//     defaults: concurrency 3, node:http streams, .part files, resume, fsync, commit) until every queued
//     download succeeded. --count wraps the media fetch to count body bytes, printed as `B <bytes>`
//     lines; --memory samples memory (the many-files floor does not, so neither does Atelier there).
//   plain <url> <file>: the memory and single-file floor, a bare node:http GET piped into a file.
//   plain-many <listFile> <concurrency>: the many-files floor, the same bare copy `concurrency` at a
//     time over the JSON list [{ url, file }]. Prints { ms, bytes }.
//   durable <listFile> <concurrency>: the durable floor, what integrity and durability need and
//     nothing else: each file a bare node:http GET into `<file>.part` with the SHA-256 of its body,
//     fsynced, renamed into place, then a directory fsync shared by the files renamed while the
//     previous one ran (Atelier batches its folder fsyncs too); no database, no events. Prints { ms, cpuMs }.
//   fetch <listFile> <concurrency>: the throughput baseline when curl is missing: Node's fetch into
//     files, `concurrency` at a time; the list is JSON [{ url, file }]; a file that exists is resumed
//     with a Range request. Prints { ms, received }.
// Samples memory from just before the transfer starts (RSS every 10 ms, heap every 50 ms); ends with one JSON line.
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { get } from 'node:http';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { count: { type: 'boolean', default: false }, memory: { type: 'boolean', default: false } },
});
const [mode, ...rest] = positionals;
const out = (line: string): void => void process.stdout.write(`${line}\n`);
/** CPU time (user + system) of this process in ms: on a loaded machine it tells work from waiting. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}
const sample = (): Memory => {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
};

/**
 * Baseline memory after a GC (the child runs with --expose-gc), then the peaks: RSS every 10 ms
 * (cheap), the heap every 50 ms (process.memoryUsage() walks the heap spaces, so less often).
 */
function startSampling(): { base: Memory; stop(): { base: Memory; peak: Memory } } {
  (globalThis as { gc?: () => void }).gc?.();
  const base = sample();
  const peak = { ...base };
  let ticks = 0;
  const take = (full: boolean) => {
    if (full) {
      const now = sample();
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
      peak.external = Math.max(peak.external, now.external);
      peak.rss = Math.max(peak.rss, now.rss);
    } else {
      peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    }
  };
  const timer = setInterval(() => take(++ticks % 5 === 0), 10);
  return {
    base,
    stop() {
      take(true);
      clearInterval(timer);
      return { base, peak };
    },
  };
}

/** A GET's response once its headers are in; anything but 200 is an error. */
const getOk = (url: string): Promise<import('node:http').IncomingMessage> =>
  new Promise((resolve, reject) =>
    get(url, (response) => {
      if (response.statusCode === 200) return resolve(response);
      response.destroy();
      reject(new Error(`HTTP ${response.statusCode} for ${url}`));
    }).on('error', reject),
  );

/** The JSON list [{ url, file }] of the many-files modes. */
const readList = (listFile: string): { url: string; file: string }[] =>
  JSON.parse(readFileSync(listFile, 'utf8')) as { url: string; file: string }[];

/** The list's files fetched `concurrency` at a time by `copy`. */
async function eachFile(
  list: { url: string; file: string }[],
  concurrency: number,
  copy: (url: string, file: string) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, list.length) }, async () => {
    while (next < list.length) {
      const { url, file } = list[next++]!;
      await copy(url, file);
    }
  });
  await Promise.all(lanes);
}

/**
 * fsyncs `dir` for every caller, one fsync for all who call while the previous one runs (a
 * rename must be followed by a folder fsync that starts after it).
 */
function groupDirSync(dir: string): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const syncNow = (): Promise<void> =>
    (running = (async () => {
      const handle = await open(dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    })().finally(() => (running = null)));
  return () => {
    if (!running) return syncNow();
    return (queued ??= running.then(() => {
      queued = null;
      return syncNow();
    }));
  };
}

if (mode === 'plain') {
  const [url, file] = rest;
  if (!url || !file) throw new Error('usage: download.ts plain <url> <file>');
  const sampling = startSampling();
  const cpuAtStart = cpuMs();
  const started = performance.now();
  const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
    get(url, resolve).on('error', reject),
  );
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(response, counter, createWriteStream(file));
  const memory = sampling.stop();
  out(
    JSON.stringify({ event: 'done', ms: performance.now() - started, cpuMs: cpuMs() - cpuAtStart, bytes, ...memory }),
  );
} else if (mode === 'plain-many') {
  const [listFile, concurrency] = rest;
  if (!listFile || !concurrency) throw new Error('usage: download.ts plain-many <listFile> <concurrency>');
  const list = readList(listFile);
  const cpuAtStart = cpuMs();
  const started = performance.now();
  await eachFile(list, Number(concurrency), async (url, file) => {
    await pipeline(await getOk(url), createWriteStream(file));
  });
  out(JSON.stringify({ event: 'done', ms: performance.now() - started, cpuMs: cpuMs() - cpuAtStart }));
} else if (mode === 'durable') {
  const [listFile, concurrency] = rest;
  if (!listFile || !concurrency) throw new Error('usage: download.ts durable <listFile> <concurrency>');
  const list = readList(listFile);
  const syncDir = groupDirSync(dirname(list[0]!.file));
  const cpuAtStart = cpuMs();
  const started = performance.now();
  await eachFile(list, Number(concurrency), async (url, file) => {
    const response = await getOk(url);
    const hash = createHash('sha256');
    response.on('data', (chunk: Buffer) => hash.update(chunk));
    const part = `${file}.part`;
    // flush: the file is fsynced before its close, and pipeline waits for the close.
    await pipeline(response, createWriteStream(part, { flush: true }));
    hash.digest('hex');
    await rename(part, file);
    await syncDir();
  });
  out(JSON.stringify({ event: 'done', ms: performance.now() - started, cpuMs: cpuMs() - cpuAtStart }));
} else if (mode === 'fetch') {
  const [listFile, concurrency] = rest;
  if (!listFile || !concurrency) throw new Error('usage: download.ts fetch <listFile> <concurrency>');
  const { statSync } = await import('node:fs');
  const { Readable } = await import('node:stream');
  const list = readList(listFile);
  const started = performance.now();
  let received = 0;
  let next = 0;
  const lanes = Array.from({ length: Math.min(Number(concurrency), list.length) }, async () => {
    while (next < list.length) {
      const { url, file } = list[next++]!;
      const have = (() => {
        try {
          return statSync(file).size;
        } catch {
          return 0;
        }
      })();
      const response = await fetch(url, have > 0 ? { headers: { range: `bytes=${have}-` } } : {});
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} for ${url}`);
      const append = have > 0 && response.status === 206;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
        counter,
        createWriteStream(file, { flags: append ? 'a' : 'w' }),
      );
    }
  });
  await Promise.all(lanes);
  out(JSON.stringify({ event: 'done', ms: performance.now() - started, received }));
} else if (mode === 'atelier') {
  const [dbFile, root, emulatorUrl] = rest;
  if (!dbFile || !root || !emulatorUrl) throw new Error('usage: download.ts atelier <dbFile> <root> <emulatorUrl>');
  const { openAccountDb } = await import('../../src-main/core/db/account-db.ts');
  const { DownloadQueue } = await import('../../src-main/core/library/downloads/download-queue.ts');
  const { fetchMedia } = await import('../../src-main/core/library/media/media-http.ts');
  const { emulatorLibraryClient } = await import('../../src-main/core/library/test-support/emulator-client.ts');
  const { DOWNLOAD_CONCURRENCY } = await import('../../src-main/contract/ipc/settings.ts');
  type MediaFetch = import('../../src-main/core/library/media/media-http.ts').MediaFetch;

  const cache = openAccountDb(dbFile);
  // Counted once, before the clock: the events then say which downloads succeeded (reading the
  // table at every event cost the child O(files²): ~0.6 s of CPU over 2,000 files).
  const toSucceed = (
    cache.sqlite.prepare("SELECT count(*) AS n FROM downloads WHERE state <> 'succeeded'").get() as { n: number }
  ).n;
  const succeeded = new Set<string>();
  let received = 0;
  let reported = 0;
  const REPORT_EVERY = 256 * 1024;
  // Counting only when asked (the kill run): the throughput runs use the product's fetch untouched.
  const fetch: MediaFetch = values.count
    ? async (url, headers, signal) => {
        const response = await fetchMedia(url, headers, signal);
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            received += chunk.length;
            if (received - reported >= REPORT_EVERY) {
              reported = received;
              out(`B ${received}`);
            }
            done(null, chunk);
          },
        });
        response.body.on('error', (error) => counter.destroy(error));
        return { ...response, body: response.body.pipe(counter) };
      }
    : fetchMedia;
  let finished = false;
  let sampling: { stop(): { base: Memory; peak: Memory } } | null = null;
  let started = 0;
  let cpuAtStart = 0;
  const finish = (ok: boolean) => {
    if (finished) return;
    finished = true;
    const memory = sampling!.stop();
    const cpu = cpuMs() - cpuAtStart;
    out(
      JSON.stringify({
        event: ok ? 'done' : 'failed',
        ms: performance.now() - started,
        cpuMs: cpu,
        received,
        ...memory,
      }),
    );
    void queue.stop().then(() => {
      cache.close();
      process.exit(ok ? 0 : 1);
    });
  };
  const queue = new DownloadQueue({
    db: cache.sqlite,
    assets: cache.assets,
    root: () => root,
    client: emulatorLibraryClient(emulatorUrl),
    concurrency: () => DOWNLOAD_CONCURRENCY.default,
    fetch,
    logError: (message, error) => process.stderr.write(`${message}: ${String((error as Error)?.stack ?? error)}\n`),
    emit: (change) => {
      for (const item of change.changed) {
        if (item.state === 'failed') return finish(false);
        if (item.state === 'succeeded') succeeded.add(`${item.asset.kind}:${item.asset.id}`);
      }
      if (succeeded.size === toSucceed) finish(true);
    },
  });
  // The media client (node:http and node:https) is loaded at the first media request, once per
  // process: loaded here, before the clock starts, so the figure is the transfer's and not module
  // loading's (the floor's node:http is loaded before its clock starts too).
  process.getBuiltinModule('node:http');
  process.getBuiltinModule('node:https');
  sampling = values.memory ? startSampling() : { stop: () => ({ base: sample(), peak: sample() }) };
  cpuAtStart = cpuMs();
  started = performance.now();
  queue.start();
} else {
  throw new Error('usage: download.ts atelier|plain|plain-many|durable|fetch …');
}
