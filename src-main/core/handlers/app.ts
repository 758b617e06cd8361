// Handlers of the app:* channels.
import type { AppInfo } from '../../contract/ipc/app.ts';
import type { CoreContext } from '../context.ts';

export function appHandlers(ctx: CoreContext) {
  return {
    'app:info': (): AppInfo => ({
      name: 'Atelier',
      version: ctx.host.appVersion,
      dataDir: ctx.dataDir,
      versions: { node: process.versions.node, chromium: ctx.host.chromiumVersion, electron: ctx.host.electronVersion },
      host: ctx.host.kind,
      account: ctx.account(),
    }),
  };
}
