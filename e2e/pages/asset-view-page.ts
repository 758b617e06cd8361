// Page object for the asset view (lightbox): position, media, details, actions and the two deletes.
import type { Locator, Page } from '@playwright/test';

export class AssetViewPage {
  readonly page: Page;
  readonly root: Locator;
  readonly position: Locator;
  readonly prompt: Locator;
  readonly image: Locator;
  readonly video: Locator;
  readonly waiting: Locator;
  readonly offlineStatus: Locator;
  readonly close: Locator;

  constructor(page: Page) {
    this.page = page;
    this.root = page.getByTestId('asset-view');
    this.position = this.root.getByTestId('asset-position');
    this.prompt = this.root.getByTestId('asset-prompt');
    this.image = this.root.getByTestId('asset-image');
    this.video = this.root.getByTestId('video-player');
    this.waiting = this.root.getByTestId('asset-waiting');
    this.offlineStatus = this.root.getByTestId('offline-status');
    this.close = this.root.getByTestId('asset-close');
  }

  action(name: string): Locator {
    return this.root.getByTestId(`action-${name}`);
  }

  /** Plays the video muted (autoplay rules) and returns how far it got after `ms`. */
  async playFor(ms: number): Promise<number> {
    await this.video.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      await el.play();
    });
    await this.page.waitForTimeout(ms);
    return this.video.evaluate((el: HTMLVideoElement) => el.currentTime);
  }
}
