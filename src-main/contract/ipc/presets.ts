// Public presets (spec §2) from the local cache, ordered by category and then the service's order,
// so the renderer can group them in one pass.
import * as v from 'valibot';
import { invoke, type } from './channel.ts';

export interface PresetInfo {
  /** The value sent as `preset`. */
  tag: string;
  name: string;
  /** '' when the service gave none (shown last, as "Other"). */
  category: string;
  /**
   * The preset's preview: the thumbnail of the newest image in the library made with it (the
   * service gives presets no picture); null until there is one (the picker then shows its category's swatch).
   */
  sampleUrl: string | null;
}

export const presetsInvoke = {
  'presets:list': invoke(v.undefined(), type<PresetInfo[]>()),
};

export const presetsEvents = {};
