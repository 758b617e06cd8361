// Which actions an asset offers right now, and for each one that waits, the sentence saying why
// (offline, not downloaded, a video the service cannot delete…). Views disable and explain; they never guess.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import { assetParams } from './asset-params.ts';

export type AssetAction =
  | 'download'
  | 'upscale'
  | 'remix'
  | 'firstFrame'
  | 'lastFrame'
  | 'copyPrompt'
  | 'copyImage'
  | 'showInFolder'
  | 'openWith'
  | 'export'
  | 'removeLocal'
  | 'deleteRemote';

export interface AvailabilityContext {
  offline: boolean;
  /** Why a remote-only file waits while offline (one sentence about the file). */
  waitReason: string;
  /**
   * Why work that runs on the service ("Upscaling") cannot start now, whatever the file's state;
   * null while the service can be reached.
   */
  needsService: (what: string) => string | null;
}

/** null = available; otherwise why not. */
export type Availability = Record<AssetAction, string | null>;

const GONE = 'It is no longer on the service; only the local copy is left.';

const hasLocalCopy = (asset: AssetInfo): boolean => asset.file.state === 'downloaded' && asset.file.path !== null;
const inFlight = (asset: AssetInfo): boolean => asset.file.state === 'queued' || asset.file.state === 'downloading';

/** A request that can reopen a Create panel: it names its model (an upscale request does not). */
export const remixableParams = (asset: AssetInfo): boolean => typeof assetParams(asset)?.['modelID'] === 'string';

function downloadReason(asset: AssetInfo, ctx: AvailabilityContext): string | null {
  if (hasLocalCopy(asset)) return 'Already downloaded: it is available offline.';
  if (inFlight(asset)) return 'Already downloading.';
  if (asset.removedFromService) return GONE;
  if (!asset.url) return 'The service gave no address to download it from.';
  if (ctx.offline) return ctx.waitReason;
  return null;
}

function referenceReason(asset: AssetInfo): string | null {
  if (asset.kind !== 'image') return 'Only images can be video frames.';
  if (asset.removedFromService || !asset.url) return 'A video reference needs the image on the service (its URL).';
  return null;
}

export function assetAvailability(asset: AssetInfo, ctx: AvailabilityContext): Availability {
  const local = hasLocalCopy(asset);
  const reference = referenceReason(asset);
  return {
    download: downloadReason(asset, ctx),
    upscale:
      asset.kind !== 'image'
        ? 'Only images can be upscaled.'
        : asset.removedFromService
          ? GONE
          : ctx.needsService('Upscaling'),
    remix: remixableParams(asset)
      ? null
      : asset.sourceAssetId
        ? 'An upscale has no prompt of its own: remix the image it was made from.'
        : 'The request that made it is not known (it was not made from this app or its cache).',
    firstFrame: reference,
    lastFrame: reference,
    copyPrompt: asset.prompt ? null : 'It has no prompt.',
    copyImage:
      asset.kind !== 'image'
        ? 'Only images can be copied as pictures.'
        : local
          ? null
          : asset.removedFromService || !asset.url
            ? 'There is no copy of it to put on the clipboard.'
            : ctx.offline
              ? ctx.waitReason
              : null,
    showInFolder: local ? null : 'It is not downloaded yet.',
    openWith: local ? null : 'It is not downloaded yet.',
    export: local ? null : 'Export copies the downloaded file: download it first.',
    removeLocal: local || inFlight(asset) ? null : 'There is no local copy to remove.',
    deleteRemote:
      asset.kind === 'video'
        ? 'The service offers no way to delete videos.'
        : asset.removedFromService
          ? 'It is already gone from the service.'
          : ctx.needsService('Deleting it from the service'),
  };
}
