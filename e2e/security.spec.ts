// Browser-mode security: what the renderer can reach, what it can open, and who may talk to the
// core. Refusals are checked against a positive control so each test can fail.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import { AppShellPage } from './pages/app-shell-page.ts';
import { callInPage } from './pages/contract-client.ts';
import { expect, test } from './fixtures/test.ts';
import type { RunningApp } from './fixtures/browser-mode.ts';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
}

/** A request with full control over Host and Cookie, which browsers and Playwright would not allow. */
function rawGet(app: RunningApp, path: string, headers: Record<string, string>): Promise<RawResponse> {
  const { hostname, port } = new URL(app.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET', headers, setHost: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The session cookie the server hands out for the right token (name and value, as a Cookie header). */
async function sessionCookie(app: RunningApp): Promise<string> {
  const response = await rawGet(app, `/?token=${app.token}`, { Host: new URL(app.origin).host });
  expect(response.status).toBe(303);
  const setCookie = response.headers['set-cookie']?.[0] ?? '';
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  return setCookie.split(';')[0] ?? '';
}

/** Opens the bridge WebSocket; resolves with 'open' or the HTTP status of the refusal. */
function openBridge(
  app: RunningApp,
  options: { origin: string; cookie?: string; host?: string },
): Promise<'open' | number> {
  const url = `${app.origin.replace('http:', 'ws:')}/bridge`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      origin: options.origin,
      headers: {
        ...(options.cookie ? { Cookie: options.cookie } : {}),
        ...(options.host ? { Host: options.host } : {}),
      },
    });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', (error) => reject(error));
  });
}

test.describe('the renderer in browser mode', () => {
  test('has no require, process, module or Buffer', async ({ page, app }) => {
    await new AppShellPage(page).open(app.url);
    const globals = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return ['require', 'process', 'module', 'exports', 'Buffer', 'global', '__dirname'].map(
        (name) => `${name}:${typeof w[name]}`,
      );
    });
    expect(globals).toEqual([
      'require:undefined',
      'process:undefined',
      'module:undefined',
      'exports:undefined',
      'Buffer:undefined',
      'global:undefined',
      '__dirname:undefined',
    ]);
  });

  test('window.open and target=_blank links open nothing', async ({ page, app, context }) => {
    await new AppShellPage(page).open(app.url);
    const popup = context.waitForEvent('page', { timeout: 1_500 }).then(
      () => 'a new page opened',
      () => 'nothing opened',
    );
    const opened = await page.evaluate(() => window.open('https://evil.example/', '_blank') === null);
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = 'https://evil.example/';
      link.target = '_blank';
      link.textContent = 'away';
      link.id = 'e2e-away';
      document.body.append(link);
    });
    await page.locator('#e2e-away').click();
    expect(opened).toBe(true);
    expect(await popup).toBe('nothing opened');
    expect(context.pages()).toHaveLength(1);
    expect(page.url()).toBe(`${app.origin}/`);
  });

  test('navigation away from the app does nothing; in-app hash changes still work', async ({ page, app }) => {
    await new AppShellPage(page).open(app.url);
    await page.evaluate(() => {
      location.hash = '#still-here';
    });
    expect(page.url()).toBe(`${app.origin}/#still-here`);
    await page.evaluate(() => {
      location.href = 'https://evil.example/';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(`${app.origin}/#still-here`);
    await expect(new AppShellPage(page).version).toBeVisible();
  });

  test('the page is served with the strict CSP and the other security headers', async ({ page, app }) => {
    const policyWarnings: string[] = [];
    page.on('console', (message) => {
      if (/Permissions-Policy|Content Security Policy|Content-Security-Policy/i.test(message.text()))
        policyWarnings.push(message.text());
    });
    const response = await page.goto(app.url);
    // The token exchange redirects; the document's own response carries the headers.
    const headers = (await response?.allHeaders()) ?? {};
    const csp = headers['content-security-policy'] ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).toMatch(/sandbox [^;]*allow-scripts/);
    expect(csp).not.toContain('allow-popups');
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
    await expect(new AppShellPage(page).version).toBeVisible();
    // The browser understood every directive and the app needed nothing the policy forbids.
    expect(policyWarnings).toEqual([]);
  });
});

test.describe('who may talk to browser mode', () => {
  test('a wrong token is refused, for the page and for the bridge', async ({ app }) => {
    const host = new URL(app.origin).host;
    expect((await rawGet(app, `/?token=${'f'.repeat(64)}`, { Host: host })).status).toBe(403);
    expect(
      (await rawGet(app, '/', { Host: host, Cookie: `${(await sessionCookie(app)).split('=')[0]}=${'f'.repeat(64)}` }))
        .status,
    ).toBe(403);
    expect(
      await openBridge(app, { origin: app.origin, cookie: `${(await sessionCookie(app)).split('=')[0]}=wrong` }),
    ).toBe(403);
    expect(await openBridge(app, { origin: app.origin })).toBe(403);
    // Control: the right cookie and origin get through.
    expect(await openBridge(app, { origin: app.origin, cookie: await sessionCookie(app) })).toBe('open');
  });

  test('a WebSocket from a foreign Origin is refused even with the session cookie', async ({ app }) => {
    const cookie = await sessionCookie(app);
    expect(await openBridge(app, { origin: 'http://evil.example', cookie })).toBe(403);
    // Another program's page on this machine is a different origin too (cookies ignore ports).
    expect(await openBridge(app, { origin: 'http://127.0.0.1:1', cookie })).toBe(403);
    expect(await openBridge(app, { origin: 'null', cookie })).toBe(403);
    expect(await openBridge(app, { origin: app.origin, cookie })).toBe('open');
  });

  test('a foreign Host header is refused (DNS rebinding), before the token is even looked at', async ({ app }) => {
    const cookie = await sessionCookie(app);
    const port = new URL(app.origin).port;
    expect((await rawGet(app, '/', { Host: `evil.example:${port}`, Cookie: cookie })).status).toBe(421);
    expect((await rawGet(app, `/?token=${app.token}`, { Host: `evil.example:${port}` })).status).toBe(421);
    // Without any Host, Node's HTTP parser refuses the request itself.
    expect((await rawGet(app, '/', { Cookie: cookie })).status).toBe(400);
    expect(await openBridge(app, { origin: app.origin, cookie, host: `evil.example:${port}` })).toBe(403);
    expect((await rawGet(app, '/', { Host: new URL(app.origin).host, Cookie: cookie })).status).toBe(200);
  });
});

test.describe('what a compromised renderer cannot do', () => {
  test('cannot aim the library at / (media route, open-item) nor the key at another address', async ({ page, app }) => {
    await new AppShellPage(page).open(app.url);
    expect(await callInPage(page, 'settings:update', { libraryDir: '/' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'libraryDir' },
    });
    expect(await callInPage(page, 'library:use-folder', { to: '/' })).toMatchObject({
      ok: false,
      error: { field: 'to' },
    });
    expect((await page.request.get(`${app.origin}/media/etc/passwd`)).status()).toBe(404);
    expect(await callInPage(page, 'shell:open-item', { path: '/etc/passwd' })).toMatchObject({ ok: false });
    expect(await callInPage(page, 'settings:update', { baseUrl: 'https://attacker.example/v1' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'baseUrl' },
    });
    expect(
      await callInPage(page, 'uploads:add', { modelID: 'm', type: 'modelInput', files: [{ path: '/etc/passwd' }] }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    // Control: a harmless setting goes through the same door.
    expect(await callInPage(page, 'settings:update', { theme: 'dark' })).toMatchObject({ ok: true });
  });

  test('an oversized or malformed bridge message closes that connection only; the app lives on', async ({
    page,
    app,
  }) => {
    await new AppShellPage(page).open(app.url);
    const codes = await page.evaluate(async () => {
      const closeCode = (payload: string) =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/bridge`);
          ws.onopen = () => ws.send(payload);
          ws.onclose = (event) => resolve(event.code);
        });
      return [await closeCode('x'.repeat(6 * 1024 * 1024)), await closeCode('{not json')];
    });
    expect(codes).toEqual([1009, 1003]);
    expect(app.process.exitCode).toBeNull();
    expect(await callInPage(page, 'app:info', undefined)).toMatchObject({ ok: true });
  });
});
