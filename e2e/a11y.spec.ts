// Accessible by default: axe-core over every view, light and dark, with the queue open and closed —
// no serious or critical finding; at 1024×640 and 1920×1080 too, with Generate enabled (so its kbd
// hint is checked), and no control whose words are cut off (text wider than the control).
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startBrowserModeApp } from './fixtures/browser-mode.ts';
import { AppShellPage, VIEW_NAMES } from './pages/app-shell-page.ts';
import { demoTest as test, expect } from './pages/app-fixtures.ts';

interface Finding {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function seriousFindings(page: Page): Promise<Finding[]> {
  // Let transitions settle so colours are the final ones.
  await page.waitForTimeout(250);
  const results = await new AxeBuilder({ page }).analyze();
  const violations: Violation[] = results.violations;
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`),
    }));
}

/** Controls whose text overflows them (scrollWidth > clientWidth): a label cut off, "Sys…". */
async function cutOffLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const CONTROLS =
      'button, a[href], label, select, summary, [role="button"], [role="radio"], [role="tab"], [role="menuitem"], [role="option"], [role="link"], [role="switch"]';
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(CONTROLS)) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || el.closest('[inert], [aria-hidden="true"]'))
        continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // The control itself, and any text element inside it that clips (an ellipsis on a span).
      const parts = [el, ...el.querySelectorAll<HTMLElement>('span, div, strong, em, b')];
      for (const part of parts) {
        const text = (part.textContent ?? '').trim();
        if (!text || part.clientWidth === 0) continue;
        const clips =
          getComputedStyle(part).overflowX !== 'visible' || getComputedStyle(part).textOverflow === 'ellipsis';
        if (clips && part.scrollWidth > part.clientWidth + 1) {
          found.push(
            `${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? ''}] "${text.slice(0, 40)}" ${part.scrollWidth}>${part.clientWidth}`,
          );
          break;
        }
      }
    }
    return found;
  });
}

test.beforeEach(async ({ page, demoApp }) => {
  await new AppShellPage(page).open(demoApp.url);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`every view in ${scheme}, queue closed and open: no serious or critical finding`, async ({ page }) => {
    test.setTimeout(120_000);
    const shell = new AppShellPage(page);
    await page.emulateMedia({ colorScheme: scheme });
    for (const view of VIEW_NAMES) {
      await shell.goTo(view);
      await expect(shell.view(view)).toBeVisible();
      for (const queueOpen of [false, true]) {
        const open = (await shell.queueDock.count()) > 0;
        if (open !== queueOpen) await shell.jobsInFlight.click();
        const findings = await seriousFindings(page);
        expect(findings, `${view}, ${scheme}, queue ${queueOpen ? 'open' : 'closed'}`).toEqual([]);
      }
    }
  });
}

for (const size of [
  { width: 1024, height: 640 },
  { width: 1920, height: 1080 },
]) {
  test(`every view at ${size.width}×${size.height}, light and dark: no serious finding, no label cut off`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const shell = new AppShellPage(page);
    await page.setViewportSize(size);
    // Generate enabled, so its kbd hint ("Ctrl+↵") is judged like any text (axe skips disabled buttons).
    await shell.goTo('create-image');
    await page
      .getByTestId('view-create-image')
      .getByRole('textbox', { name: /prompt/i })
      .fill('a quiet harbour');
    await expect(page.getByTestId('generate')).toBeEnabled();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const view of VIEW_NAMES) {
        await shell.goTo(view);
        await expect(shell.view(view)).toBeVisible();
        const where = `${view}, ${scheme}, ${size.width}×${size.height}`;
        expect(await seriousFindings(page), where).toEqual([]);
        expect(await cutOffLabels(page), `cut-off labels: ${where}`).toEqual([]);
      }
    }
  });
}

test('the first-run screen, light and dark: no serious or critical finding', async ({ browser }) => {
  const app = await startBrowserModeApp();
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(app.url);
    await expect(page.getByTestId('view-first-run')).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousFindings(page), `first run, ${scheme}`).toEqual([]);
      await page.getByTestId('choose-key').click();
      await page.getByTestId('save-key').click();
      expect(await seriousFindings(page), `first run with its key form and errors, ${scheme}`).toEqual([]);
      await page.reload();
    }
  } finally {
    await context.close();
    await app.stop();
  }
});
