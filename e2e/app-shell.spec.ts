// The walking skeleton: the renderer shows the version that came from the core.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppShellPage } from './pages/app-shell-page.ts';
import { repoRoot } from './fixtures/browser-mode.ts';
import { expect, test } from './fixtures/test.ts';

const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

test('the app shell renders and shows the version from the core', async ({ page, app }) => {
  const shell = new AppShellPage(page);
  await shell.open(app.url);
  await expect(shell.version).toHaveText(`Atelier ${version}`);
  // The token was traded for a cookie and is gone from the address bar.
  expect(page.url()).toBe(`${app.origin}/`);
});

test('a request without the token is refused', async ({ request, app }) => {
  const response = await request.get(`${app.origin}/`);
  expect(response.status()).toBe(403);
});

test('a request with a wrong token is refused', async ({ request, app }) => {
  const response = await request.get(`${app.origin}/?token=${'0'.repeat(64)}`);
  expect(response.status()).toBe(403);
});
