// Page object for the asset view (lightbox): position, the zoomable stage, media, details and lineage, actions and the two deletes.
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
  /** The zoomable picture area (data-scale, data-fit). */
  readonly stage: Locator;
  /** The details panel (collapsible with I). */
  readonly panel: Locator;

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
    this.stage = this.root.getByTestId('zoom-stage');
    this.panel = this.root.getByTestId('asset-panel');
  }

  action(name: string): Locator {
    return this.root.getByTestId(`action-${name}`);
  }

  /** "Upscaled from": the image an upscale was made from (its button opens it). */
  upscaledFrom(): Locator {
    return this.root.getByTestId('asset-lineage');
  }

  /** "Upscaled version": the upscale made of this image (its button opens it). */
  upscaledVersion(): Locator {
    return this.root.getByTestId('asset-upscaled');
  }

  /** Starts the video muted (autoplay rules allow that) once it can play. */
  async play(): Promise<void> {
    await this.video.evaluate(
      (el: HTMLVideoElement) =>
        new Promise<void>((resolve, reject) => {
          el.muted = true;
          const start = () => el.play().then(resolve, reject);
          if (el.readyState >= 2) void start();
          else el.addEventListener('canplay', () => void start(), { once: true });
        }),
    );
  }

  currentTime(): Promise<number> {
    return this.video.evaluate((el: HTMLVideoElement) => el.currentTime);
  }
}
