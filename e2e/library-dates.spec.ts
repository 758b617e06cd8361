// Date headers in the Library grid (issue 32 item 7): the demo's week of results under "Today",
// "Yesterday", "This week"… in the order of the list, each a heading with its count; the current one
// kept at the top while scrolling; a jump list beside the grid that scrolls to a section and gives its
// first tile the keyboard focus; the order flips with "Oldest first" and the headers go with a search
// by best match.
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { dateSections } from '../src-renderer/src/lib/library/date-sections.ts';
import { expect, test } from './fixtures/page-errors.ts';
import { startBrowserModeApp, type RunningApp } from './fixtures/browser-mode.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { LibraryPage } from './pages/library-page.ts';

let app: RunningApp;

test.beforeAll(async () => {
  app = await startBrowserModeApp([], { ATELIER_DEMO_LIBRARY: 'full' });
});

test.afterAll(async () => {
  await app?.stop();
});

// The demo's first refresh and thumbnails take a while on a loaded machine.
test.describe.configure({ timeout: 120_000 });

const jumpList = (page: Page): Locator => page.getByRole('navigation', { name: 'Jump to date' });
const jumpEntries = (page: Page): Locator => jumpList(page).getByRole('button');

/** The jump list's entries as "label, count". */
async function entries(page: Page): Promise<{ label: string; count: number }[]> {
  const names = await jumpEntries(page).evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-label') ?? ''),
  );
  return names.map((name) => {
    const match = /^Jump to (.+), ([\d,]+) items?$/.exec(name);
    if (!match) throw new Error(`unexpected jump list name: ${name}`);
    return { label: match[1]!, count: Number(match[2]!.replace(/,/g, '')) };
  });
}

/** The headers the grid shows from top to bottom, scrolling it through once. */
async function headersScrolledThrough(library: LibraryPage): Promise<string[]> {
  const seen: string[] = [];
  await library.grid.evaluate((el) => el.scrollTo({ top: 0 }));
  for (let step = 0; step < 200; step += 1) {
    await library.page.waitForTimeout(60);
    const texts = await library.root.getByRole('heading', { level: 2 }).evaluateAll((hs) =>
      hs
        .map((h) => ({ top: h.getBoundingClientRect().top, text: h.firstChild?.textContent?.trim() ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((h) => h.text),
    );
    for (const text of texts) if (!seen.includes(text)) seen.push(text);
    const atEnd = await library.grid.evaluate((el) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      el.scrollBy({ top: el.clientHeight * 0.8 });
      return end;
    });
    if (atEnd) break;
  }
  return seen;
}

async function openDemoLibrary(page: Page): Promise<LibraryPage> {
  await page.goto(app.url);
  const library = new LibraryPage(page);
  // A fresh app opens on Welcome; once the demo is open, the app comes back to it.
  const welcome = new FirstRunPage(page).chooseDemo;
  await expect(welcome.or(page.getByTestId('nav-library'))).toBeVisible({ timeout: 60_000 });
  if (await welcome.isVisible()) await welcome.click();
  await library.open();
  // The demo's records arrive with its first refresh (a loaded machine takes a while).
  await expect(library.tiles.first()).toBeVisible({ timeout: 30_000 });
  return library;
}

test('the demo library shows its sections in date order, as headings with counts; the current one stays at the top; oldest first turns them round', async ({
  page,
}) => {
  const library = await openDemoLibrary(page);
  await expect(jumpEntries(page).first()).toBeVisible();
  const shown = await entries(page);
  // The sections are the calendar's, in its order (newest first), and hold the whole view.
  const calendar = dateSections(new Date()).map((s) => s.label);
  const labels = shown.map((s) => s.label);
  expect(labels.length).toBeGreaterThanOrEqual(2);
  expect(labels).toEqual(calendar.filter((label) => labels.includes(label)));
  // The newest section is a recent one (the demo's results are from the last week).
  expect(['Today', 'Yesterday', 'This week']).toContain(labels[0]);
  const total = Number((await library.total.textContent())?.replace(/\D/g, ''));
  expect(shown.reduce((sum, s) => sum + s.count, 0)).toBe(total);

  // The first header is a heading at the top of the grid, with its count.
  const first = library.root.getByRole('heading', { level: 2 }).first();
  await expect(first).toHaveText(`${shown[0]!.label}${shown[0]!.count}`);
  // Its tiles are a group named by it.
  await expect(library.grid.getByRole('group', { name: shown[0]!.label }).getByRole('option').first()).toBeVisible();

  // Headings in groups inside the listbox, and the jump list: nothing axe finds serious.
  const axe = await new AxeBuilder({ page }).include('.grid-host').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // Scrolled through, the grid shows every section's header once, in the same order.
  expect(await headersScrolledThrough(library)).toEqual(labels);

  // The header of the section in view stays at the top while it scrolls.
  await library.grid.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.getByTestId('sticky-section')).toHaveCount(0);
  // Just past the first header, onto the first section's tiles (however few the clock leaves in it:
  // after midnight "Today" may hold one row): its name is kept at the top.
  await library.grid.evaluate((el) => {
    const tile = el.querySelector('[data-testid="asset-tile"]')!;
    const below = tile.getBoundingClientRect().top - el.getBoundingClientRect().top;
    el.scrollTo({ top: el.scrollTop + below + 2 });
  });
  await expect(page.getByTestId('sticky-section')).toHaveText(`${shown[0]!.label}${shown[0]!.count}`);
  const stickyTop = await page.getByTestId('sticky-section').evaluate((el) => el.getBoundingClientRect().top);
  const gridTop = await library.grid.evaluate((el) => el.getBoundingClientRect().top);
  expect(Math.abs(stickyTop - gridTop)).toBeLessThan(1);
  await expect(jumpEntries(page).first()).toHaveAttribute('aria-current', 'true');

  // Oldest first turns the sections round; a search by best match has none.
  await page.getByTestId('library-sort').selectOption('oldest');
  await expect.poll(async () => (await entries(page)).map((s) => s.label)).toEqual([...labels].reverse());
  expect((await entries(page)).map((s) => s.count)).toEqual(shown.map((s) => s.count).reverse());
  await library.grid.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(library.root.getByRole('heading', { level: 2 }).first()).toHaveText(new RegExp(`^${labels.at(-1)!}`));
  await library.search.fill('portrait');
  await expect(page.getByTestId('library-sort')).toHaveValue('relevance');
  await expect(jumpList(page)).toHaveCount(0);
  await expect(library.root.getByRole('heading', { level: 2 })).toHaveCount(0);
});

test('the jump list scrolls to a section and gives its first tile the keyboard focus', async ({ page }) => {
  const library = await openDemoLibrary(page);
  await expect(jumpEntries(page).first()).toBeVisible();
  const shown = await entries(page);
  const target = shown.at(-1)!;
  const entry = jumpList(page).getByRole('button', {
    name: `Jump to ${target.label}, ${target.count} item${target.count === 1 ? '' : 's'}`,
  });
  await entry.click();

  // The grid has the focus, on the section's first tile, and its header is at the top.
  await expect(library.grid).toBeFocused();
  const group = library.grid.getByRole('group', { name: target.label });
  const firstTile = group.getByRole('option').first();
  await expect(firstTile).toBeVisible();
  const firstId = await firstTile.getAttribute('id');
  await expect(library.grid).toHaveAttribute('aria-activedescendant', firstId!);
  const header = library.root.getByRole('heading', { level: 2, name: new RegExp(`^${target.label}`) });
  await expect(header).toBeInViewport();
  const headerTop = await header.evaluate((el) => el.getBoundingClientRect().top);
  const gridTop = await library.grid.evaluate((el) => el.getBoundingClientRect().top);
  // At the top, unless the list's end comes first.
  const atEnd = await library.grid.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
  if (!atEnd) {
    expect(Math.abs(headerTop - gridTop)).toBeLessThan(2);
    await expect(jumpList(page).getByRole('button', { name: new RegExp(`^Jump to ${target.label},`) })).toHaveAttribute(
      'aria-current',
      'true',
    );
  }

  // Arrow keys go on item to item, across the header back into the section before.
  await page.keyboard.press('ArrowLeft');
  const before = await library.grid.getAttribute('aria-activedescendant');
  expect(before).not.toBe(firstId);
  const previousGroup = library.grid.getByRole('group', { name: shown.at(-2)!.label });
  await expect(previousGroup.locator(`[id="${before}"]`)).toHaveCount(1);

  // By keyboard: Tab reaches the jump list (one stop), arrows move within it, Enter jumps.
  await library.grid.evaluate((el) => el.scrollTo({ top: 0 }));
  await jumpEntries(page).first().focus();
  await page.keyboard.press('Home');
  await expect(jumpEntries(page).first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(jumpEntries(page).nth(1)).toBeFocused();
  await expect(jumpList(page).locator('button[tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(library.grid).toBeFocused();
  const second = library.grid.getByRole('group', { name: shown[1]!.label }).getByRole('option').first();
  await expect(library.grid).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id'))!);
});
