// Handler of presets:list: the public presets as last synced (works offline).
import type { PresetInfo } from '../../contract/ipc/presets.ts';
import type { AccountDb } from '../db/account-db.ts';
import { presetToInfo, type MediaUrlFor } from './to-info.ts';

export function presetsHandlers(deps: { cache(): AccountDb; mediaUrlFor: MediaUrlFor }) {
  return {
    'presets:list': (): PresetInfo[] =>
      deps
        .cache()
        .presets.listWithSamples()
        .map((row) => presetToInfo(row, deps.mediaUrlFor)),
  };
}
