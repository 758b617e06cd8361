// Test set-up through the app's own contract: invokes a channel over the page's browser-mode bridge
// (the page's cookie authorises it), so specs can queue jobs without clicking through Create.
import type { Page } from '@playwright/test';

/** A channel's raw Result as the page's bridge answers it (refusals included). */
export function callInPage(
  page: Page,
  channel: string,
  args?: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; field?: string } }> {
  return page.evaluate(
    ({ channel, args }) =>
      new Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; field?: string } }>(
        (resolve, reject) => {
          const ws = new WebSocket(`ws://${location.host}/bridge`);
          ws.onerror = () => reject(new Error('bridge refused the connection'));
          ws.onopen = () => ws.send(JSON.stringify({ id: 1, channel, args }));
          ws.onmessage = (message) => {
            const data = JSON.parse(String(message.data)) as { kind: string; id?: number; result?: never };
            if (data.kind === 'result' && data.id === 1) {
              ws.close();
              resolve(data.result as never);
            }
          };
        },
      ),
    { channel, args },
  );
}

/** Every channel the page calls over its bridge, in order, as the calls are sent (a spec counts what a screen asks for). */
export function recordChannelCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const channel = /"channel":"([^"]+)"/.exec(String(payload))?.[1];
      if (channel) calls.push(channel);
    }),
  );
  return calls;
}

export async function invokeInPage<T = unknown>(page: Page, channel: string, args?: unknown): Promise<T> {
  const result = await callInPage(page, channel, args);
  if (!result.ok) throw new Error(`${channel} failed: ${result.error?.message}`);
  return result.value as T;
}

interface JobLike {
  localId: number;
  state: string;
}

/** Submits one generation (without the Create form's short wait); resolves with its job. */
export function submitJob(page: Page, kind: 'image' | 'video', body: Record<string, unknown>): Promise<JobLike> {
  return invokeInPage<JobLike>(page, 'jobs:submit', { kind, body });
}

/** Submits generations and waits until every one of them has finished. */
export async function generateAndWait(
  page: Page,
  requests: { kind: 'image' | 'video'; body: Record<string, unknown> }[],
  timeoutMs = 45_000,
): Promise<void> {
  const ids: number[] = [];
  for (const request of requests) {
    const job = await submitJob(page, request.kind, request.body);
    ids.push(job.localId);
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const jobs = await invokeInPage<JobLike[]>(page, 'jobs:list', { limit: 200 });
    const mine = jobs.filter((j) => ids.includes(j.localId));
    if (mine.length === ids.length && mine.every((j) => j.state === 'succeeded' || j.state === 'failed')) return;
    await page.waitForTimeout(500);
  }
  throw new Error('the generations did not finish in time');
}
