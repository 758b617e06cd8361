// Loaded with `--import` into the electron package's own install.js (see electron-install.ts).
// It changes nothing the installer does; it reports on stderr, as marked lines, each request, the
// download's progress and a network failure's cause, which install.js's `err.stack` leaves out
// ("TypeError: fetch failed" without ENOTFOUND, ECONNREFUSED…). Written synchronously to fd 2, so
// a report is never lost to install.js's `process.exit(1)`.
import { writeSync } from 'node:fs';

const MARK = '@@atelier-install ';
const report = (event: Record<string, unknown>): void => {
  try {
    writeSync(2, `${MARK}${JSON.stringify(event)}\n`);
  } catch {
    // nowhere to report: the install goes on regardless
  }
};

const realFetch = globalThis.fetch;

globalThis.fetch = async function observedFetch(input: string | URL | Request, init?: RequestInit) {
  const url = input instanceof Request ? input.url : String(input);
  report({ event: 'request', url });
  let response: Response;
  try {
    response = await realFetch(input, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    report({
      event: 'error',
      url,
      code: typeof cause?.code === 'string' ? cause.code : null,
      message: typeof cause?.message === 'string' ? cause.message : (error as Error).message,
    });
    throw error;
  }
  const total = Number(response.headers.get('content-length')) || null;
  report({ event: 'response', url, status: response.status, statusText: response.statusText, total });
  if (!response.ok || !response.body) return response;
  let bytes = 0;
  let last = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        const now = Date.now();
        if (now - last >= 250) {
          last = now;
          report({ event: 'progress', url, bytes, total });
        }
        controller.enqueue(chunk);
      },
      flush() {
        report({ event: 'progress', url, bytes, total, done: true });
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
};
