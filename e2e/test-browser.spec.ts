// The browser the specs and the renderer benchmark drive (fixtures/browser.ts): a new context opens
// only its own page, not the address bar's renderer processes, and Playwright's own
// --disable-features settings survive the switch that turns those off.
import { chromium } from '@playwright/test';
import { expect, test } from './fixtures/page-errors.ts';
import {
  UNUSED_BROWSER_UI_FEATURES,
  chromiumLaunchOptions,
  disabledFeatures,
  withoutUnusedBrowserUi,
} from './fixtures/chromium.ts';

test('a new context starts no browser UI pages beside its own', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('data:text/html,<p>page</p>');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("the launch keeps Playwright's own disabled features in its one --disable-features switch", async () => {
  const spawnedArgs = async (options: Parameters<typeof chromium.launchServer>[0]) => {
    const server = await chromium.launchServer(options);
    const args = server.process().spawnargs;
    await server.close();
    return args;
  };
  const plain = await spawnedArgs(chromiumLaunchOptions());
  const quiet = await spawnedArgs(await withoutUnusedBrowserUi());
  // Chromium keeps only the last switch of a name: that one must carry everything.
  const last = (args: string[]) => disabledFeatures(args.filter((a) => a.startsWith('--disable-features=')).slice(-1));
  expect(last(plain).length).toBeGreaterThan(0);
  expect(new Set(last(quiet))).toEqual(new Set([...last(plain), ...UNUSED_BROWSER_UI_FEATURES]));
});
