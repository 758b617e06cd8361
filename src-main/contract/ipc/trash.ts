// Channels of the Atelier trash: local copies removed with "Remove local copy" (library:remove-local)
// lie in the library's `.trash` folder for TRASH_KEEP_DAYS, then go for good. List, restore, empty.
import * as v from 'valibot';
import type { AssetInfo } from './assets.ts';
import { assetRefs, type AssetRefInfo } from './library.ts';
import { invoke, type } from './channel.ts';

/** How long a removed local copy is kept in the trash (the one policy: core purge, dialogs, days left). */
export const TRASH_KEEP_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** When an entry trashed at `trashedAt` (epoch ms) goes for good. */
export const trashExpiresAt = (trashedAt: number): number => trashedAt + TRASH_KEEP_DAYS * DAY_MS;

/** Days left before it goes, rounded up (30 just after trashing, 1 on its last day), as the Trash shows it. */
export const trashDaysLeft = (trashedAt: number, now: number): number =>
  Math.max(0, Math.ceil((trashExpiresAt(trashedAt) - now) / DAY_MS));

export interface TrashSummaryInfo {
  count: number;
  /** Bytes of every trashed copy. */
  bytes: number;
}

export interface TrashEntryInfo {
  /** The asset as the library shows it now (still on the service; no local copy). */
  asset: AssetInfo;
  bytes: number;
  /** ISO time it was moved to the trash. */
  trashedAt: string;
  /** ISO time it goes for good. */
  expiresAt: string;
  daysLeft: number;
  /** The trashed file itself (an image's picture; for an HLS copy its playlist). */
  fileUrl: string;
}

export interface TrashListInfo extends TrashSummaryInfo {
  entries: TrashEntryInfo[];
}

export interface TrashRestoreInfo {
  /** Back in the library as downloaded copies. */
  restored: AssetRefInfo[];
  /** Already downloaded again meanwhile: their trash entries were dropped. */
  alreadyLocal: AssetRefInfo[];
  /** Could not be put back, with the reason in plain words (the copy stays in the trash). */
  failed: { asset: AssetRefInfo; reason: string }[];
}

export interface TrashEmptyInfo {
  /** Entries deleted for good. */
  removed: number;
  /** Bytes freed. */
  bytes: number;
}

export const trashInvoke = {
  /** Every trashed copy, newest first, with its asset, size, date and days left. */
  'trash:list': invoke(v.undefined(), type<TrashListInfo>()),
  /** How many copies the trash holds and their size (the Library's sidebar). */
  'trash:summary': invoke(v.undefined(), type<TrashSummaryInfo>()),
  /**
   * Puts trashed copies back where they were: the assets read as downloaded again. An asset
   * downloaded again meanwhile keeps that copy; its trash entry is dropped.
   */
  'trash:restore': invoke(v.strictObject({ assets: assetRefs }), type<TrashRestoreInfo>()),
  /** Deletes trashed copies for good: these, or the whole trash when `assets` is absent. */
  'trash:empty': invoke(v.optional(v.strictObject({ assets: v.optional(assetRefs) })), type<TrashEmptyInfo>()),
};

export const trashEvents = {
  /** The trash changed (a copy trashed, restored, emptied or purged): its new totals. */
  'trash:changed': type<TrashSummaryInfo>(),
};
