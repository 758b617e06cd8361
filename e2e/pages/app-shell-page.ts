// Page object for the app frame: sidebar navigation, status bar, queue dock, toasts.
import type { Locator, Page } from '@playwright/test';

export const VIEW_NAMES = [
  'create-image',
  'create-video',
  'models',
  'library',
  'jobs',
  'experiments',
  'spending',
  'settings',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

export class AppShellPage {
  readonly page: Page;
  readonly version: Locator;
  readonly nav: Locator;
  readonly connection: Locator;
  readonly demoBadge: Locator;
  readonly jobsInFlight: Locator;
  readonly queueDock: Locator;
  readonly toasts: Locator;

  constructor(page: Page) {
    this.page = page;
    this.version = page.getByTestId('app-version');
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.connection = page.getByTestId('connection');
    this.demoBadge = page.getByTestId('demo-badge');
    this.jobsInFlight = page.getByTestId('jobs-in-flight');
    this.queueDock = page.getByTestId('queue-dock');
    this.toasts = page.getByTestId('toast');
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
  }

  navLink(view: ViewName): Locator {
    return this.page.getByTestId(`nav-${view}`);
  }

  view(view: ViewName): Locator {
    return this.page.getByTestId(`view-${view}`);
  }

  async goTo(view: ViewName): Promise<void> {
    await this.navLink(view).click();
  }
}
