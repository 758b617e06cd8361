// Handlers of the settings:* channels (settings:open-data-folder belongs to the shell).
import type { SettingsInfo, SettingsUpdate } from '../../contract/ipc/settings.ts';
import { toSettingsInfo } from '../settings/settings.ts';
import type { CoreContext } from '../context.ts';

export function settingsHandlers(ctx: CoreContext) {
  return {
    'settings:get': (): SettingsInfo => toSettingsInfo(ctx.settings.get()),
    'settings:update': async (patch: SettingsUpdate): Promise<SettingsInfo> => {
      const values = ctx.settings.update(patch);
      // A new base URL or storage opt-in switches the account; answer once that is done.
      await ctx.accounts.settled();
      return toSettingsInfo(values);
    },
  };
}
