// Handlers of the account:* channels. Every result is AccountInfo: the key goes in, never out.
import type { CoreContext } from '../context.ts';

export function accountHandlers(ctx: CoreContext) {
  return {
    'account:status': () => ctx.accounts.info(),
    'account:set-key': (args: { key: string; verify: boolean; baseUrl?: string | undefined }) =>
      ctx.accounts.setKey(args.key, { verify: args.verify, ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}) }),
    'account:remove-key': () => ctx.accounts.removeKey(),
    'account:use-demo': () => ctx.accounts.useDemo(),
    'account:leave-demo': () => ctx.accounts.leaveDemo(),
    'account:start-fresh': () => ctx.accounts.startFresh(),
  };
}
