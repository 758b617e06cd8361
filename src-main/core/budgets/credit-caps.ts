// Each account's credit caps, kept in the settings file under the account's id (local to this
// machine, off by default): the demo's caps are not the service account's, nor one key's another's.
import { AppError } from '../../contract/errors.ts';
import { NO_CAPS, type CreditCapsInfo } from '../../contract/ipc/budget.ts';
import type { Settings } from '../settings/settings.ts';

export function capsOf(settings: Settings, accountId: string): CreditCapsInfo {
  return settings.get().creditCaps[accountId] ?? NO_CAPS;
}

/** Sets (or, both null, removes) the account's caps; the values were checked by the channel's schema. */
export function setCaps(settings: Settings, accountId: string | null, caps: CreditCapsInfo): CreditCapsInfo {
  if (!accountId) throw new AppError({ code: 'auth', message: 'No account yet: enter an API key or open the demo.' });
  const all = { ...settings.get().creditCaps };
  if (caps.daily === null && caps.monthly === null) delete all[accountId];
  else all[accountId] = { daily: caps.daily, monthly: caps.monthly };
  settings.update({ creditCaps: all });
  return capsOf(settings, accountId);
}
