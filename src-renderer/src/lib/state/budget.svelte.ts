// The open account's credit budget as the renderer shows it: its caps and what was spent (budget:status),
// the Spending view's figures (budget:spending), and the check of a request before Generate. The
// policy is the core's (core/budgets/); this module only asks and holds the answers.
import * as v from 'valibot';
import { accountBound } from '../account-scope.ts';
import {
  creditCapSchema,
  type BudgetCheckInfo,
  type BudgetStatusInfo,
  type CreditCapsInfo,
  type SpendingInfo,
} from '@contract/ipc/budget.ts';
import { invoke } from '../ipc.ts';

/** The rule's own words for a cap typed in the form (undefined = empty = no cap), or null when fine. */
export function capProblem(which: 'daily' | 'monthly', value: number | undefined): string | null {
  const result = v.safeParse(creditCapSchema(which === 'daily' ? 'The daily cap' : 'The monthly cap'), value ?? null);
  return result.success ? null : (result.issues[0]?.message ?? 'That is not a number of credits.');
}

class BudgetState {
  status = $state.raw<BudgetStatusInfo | null>(null);
  spending = $state.raw<SpendingInfo | null>(null);
  spendingError = $state<string | null>(null);
  loadingSpending = $state(false);
  saving = $state(false);
  saveError = $state<string | null>(null);
  /** The Create form's current request (by kind), as the core last judged it with its estimate (GenerateBar). */
  verdicts = $state<Partial<Record<'image' | 'video', BudgetCheckInfo>>>({});
  /** A request over a cap waiting for the user's "Generate anyway" (OverBudgetDialog). */
  override = $state<{ reason: string; proceed: () => void } | null>(null);
  /** How many places can show the override dialog now (a Create view's Generate area). */
  #hosts = 0;

  constructor() {
    accountBound<BudgetState>(this, () => ({
      status: null,
      spending: null,
      spendingError: null,
      loadingSpending: false,
      saving: false,
      saveError: null,
      verdicts: {},
      override: null,
    }));
  }

  /** A dialog host mounted (returns its unmount). */
  hostDialog(): () => void {
    this.#hosts += 1;
    return () => {
      this.#hosts -= 1;
      if (this.#hosts === 0) this.override = null;
    };
  }

  /** Asks for "Generate anyway"; false when no dialog can be shown (the caller says the reason instead). */
  askOverride(reason: string, proceed: () => void): boolean {
    if (this.#hosts === 0) return false;
    this.override = { reason, proceed };
    return true;
  }

  /** The user's answer to the dialog: go over the cap, or not. */
  answerOverride(goAhead: boolean): void {
    const asked = this.override;
    this.override = null;
    if (goAhead) asked?.proceed();
  }

  readonly caps: CreditCapsInfo | null = $derived(this.status?.caps ?? null);
  readonly hasCaps = $derived(!!this.caps && (this.caps.daily !== null || this.caps.monthly !== null));

  async refresh(): Promise<void> {
    const result = await invoke('budget:status', undefined);
    if (result.ok) this.status = result.value;
  }

  async loadSpending(): Promise<void> {
    this.loadingSpending = this.spending === null;
    try {
      const result = await invoke('budget:spending', undefined);
      if (result.ok) {
        this.spending = result.value;
        this.spendingError = null;
      } else this.spendingError = result.error.message;
    } finally {
      this.loadingSpending = false;
    }
  }

  /** Saves both caps (null = none); false with `saveError` when refused. */
  async setCaps(caps: CreditCapsInfo): Promise<boolean> {
    this.saving = true;
    this.saveError = null;
    try {
      const result = await invoke('budget:set-caps', caps);
      if (!result.ok) {
        this.saveError = result.error.message;
        return false;
      }
      this.status = result.value;
      return true;
    } finally {
      this.saving = false;
    }
  }

  /** Would a request estimated at `credits` pass a cap? null when the core could not say. */
  async check(credits: number): Promise<BudgetCheckInfo | null> {
    const result = await invoke('budget:check', { credits: Math.max(0, credits) });
    return result.ok ? result.value : null;
  }
}

export const budget = new BudgetState();
