// The user's marks on an asset: 0–5 stars and a pick/reject flag, kept on this computer only (the
// service knows nothing of them; sync never writes them). One channel sets them for any number of
// assets and answers with what each asset had before, so a caller undoes by sending those back.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';
import { assetRefs, type AssetRefInfo } from './library.ts';

export const RATING_MAX = 5;
export const ASSET_FLAGS = ['pick', 'reject'] as const;
export type AssetFlagInfo = (typeof ASSET_FLAGS)[number];

/** An asset's marks: 0 stars = not rated; flag null = neither picked nor rejected. */
export interface AssetMarksInfo {
  rating: number;
  flag: AssetFlagInfo | null;
}

export interface AssetMarkInfo extends AssetRefInfo, AssetMarksInfo {}

/** A change of marks: an absent field is left as each asset has it. */
export interface MarkChangeInfo {
  rating?: number;
  flag?: AssetFlagInfo | null;
}

export interface MarkResultInfo {
  /** Every asset asked for, in the order given, with its marks now. */
  marks: AssetMarkInfo[];
  /** The same assets, in the same order, with the marks they had before (send them back to undo). */
  previous: AssetMarkInfo[];
  /** How many assets' marks really changed. */
  changed: number;
}

export const ratingSchema = v.pipe(
  v.number('The rating must be a number of stars.'),
  v.integer('The rating must be a whole number of stars.'),
  v.minValue(0, `The rating is 0 to ${RATING_MAX} stars.`),
  v.maxValue(RATING_MAX, `The rating is 0 to ${RATING_MAX} stars.`),
);
export const flagSchema = v.picklist(ASSET_FLAGS, 'The flag must be pick or reject (or null to clear it).');

export const marksInvoke = {
  /** Sets the rating and/or the flag of these assets; unknown assets are refused and nothing changes. */
  'assets:mark': invoke(
    v.pipe(
      v.strictObject({
        assets: assetRefs,
        rating: v.optional(ratingSchema),
        flag: v.optional(v.nullable(flagSchema)),
      }),
      v.check(
        (args) => args.rating !== undefined || args.flag !== undefined,
        'Give a rating (0 to 5) or a flag (pick, reject or null) to set.',
      ),
    ),
    type<MarkResultInfo>(),
  ),
};
