// Handlers of the budget:* channels: the open account's caps (settings) and its jobs (the database),
// read through the one policy, core/budgets/budget-gate.ts.
import type { BudgetCheckInfo, BudgetStatusInfo, CreditCapsInfo, SpendingInfo } from '../../contract/ipc/budget.ts';
import { BudgetGate } from '../budgets/budget-gate.ts';
import { capsOf, setCaps } from '../budgets/credit-caps.ts';
import { spendingReport } from '../budgets/spending-report.ts';
import type { CoreContext } from '../context.ts';

export interface BudgetDeps {
  ctx: Pick<CoreContext, 'accounts' | 'settings' | 'account'>;
  now(): number;
}

/** The open account's budget (refused with 'auth' when no account is open). */
export function accountBudget(deps: BudgetDeps): BudgetGate {
  const session = deps.ctx.accounts.requireSession();
  const id = deps.ctx.account().id ?? '';
  return new BudgetGate({
    jobs: session.cache.jobs,
    caps: () => capsOf(deps.ctx.settings, id),
    now: deps.now,
  });
}

export function budgetHandlers(deps: BudgetDeps) {
  return {
    'budget:status': (): BudgetStatusInfo => accountBudget(deps).status(),
    'budget:check': ({ credits }: { credits: number }): BudgetCheckInfo => accountBudget(deps).check(credits),
    'budget:set-caps': (caps: CreditCapsInfo): BudgetStatusInfo => {
      const gate = accountBudget(deps);
      setCaps(deps.ctx.settings, deps.ctx.account().id, caps);
      return gate.status();
    },
    'budget:spending': (): SpendingInfo => {
      const session = deps.ctx.accounts.requireSession();
      const id = deps.ctx.account().id ?? '';
      return spendingReport(session.cache.jobs, capsOf(deps.ctx.settings, id), deps.now());
    },
  };
}
