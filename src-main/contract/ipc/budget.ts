// Channels of the credit budget: the account's daily and monthly caps (local, off by default), what
// was spent today and this month (the account's real job credits, plus the estimates of jobs on
// their way that are not charged yet), the check a paid request passes before it is sent, and the
// Spending view's figures. The policy itself is core/budgets/ (docs/budgets.md).
import * as v from 'valibot';
import { invoke, type } from './channel.ts';

/** The most a cap can be: far beyond any real budget, low enough to stay an exact whole number. */
export const CREDIT_CAP_MAX = 100_000_000;

/** A cap: a whole positive number of credits, or null (off). The same rule for the form, the channel and the file. */
export const creditCapSchema = (name: 'The daily cap' | 'The monthly cap') =>
  v.nullable(
    v.pipe(
      v.number(`${name} must be a number of credits.`),
      v.finite(`${name} must be a number of credits.`),
      v.integer(`${name} must be a whole number of credits.`),
      v.minValue(1, `${name} must be at least 1 credit. Leave it empty to have no cap.`),
      v.maxValue(CREDIT_CAP_MAX, `${name} can be at most ${CREDIT_CAP_MAX.toLocaleString('en-US')} credits.`),
    ),
  );

export const creditCapsSchema = v.strictObject(
  { daily: creditCapSchema('The daily cap'), monthly: creditCapSchema('The monthly cap') },
  'Caps are { daily, monthly }, each a whole number of credits or null.',
);

/** The account's caps; null = no cap. */
export type CreditCapsInfo = v.InferOutput<typeof creditCapsSchema>;

export const NO_CAPS: CreditCapsInfo = { daily: null, monthly: null };

export interface BudgetStatusInfo {
  caps: CreditCapsInfo;
  /** Credits of today's jobs (local day), the estimates of those not charged yet included. */
  spentToday: number;
  /** The same for this calendar month (local time). */
  spentThisMonth: number;
  /** Of those, what is only estimated (jobs on their way, or finished with a cost not reported yet). */
  estimatedToday: number;
  estimatedThisMonth: number;
  /** Left under each cap (never below 0); null where there is no cap. */
  remainingToday: number | null;
  remainingThisMonth: number | null;
}

/** What a paid request of `credits` would do to the caps: the reason is said to the user as is. */
export type BudgetCheckInfo = { ok: true } | { ok: false; reason: string };

export interface SpendingDayInfo {
  /** The local calendar day, YYYY-MM-DD. */
  date: string;
  credits: number;
  jobs: number;
}

export interface SpendingModelInfo {
  /** The model's id (named by contract/names.ts where shown); null for jobs of no known model. */
  modelId: string | null;
  credits: number;
  jobs: number;
}

export interface SpendingInfo {
  /** The last 30 local days, oldest first, today last (days without credits are 0). */
  days: SpendingDayInfo[];
  /** Credits of those 30 days by model, most first. */
  models: SpendingModelInfo[];
  /** Credits charged this calendar month (what the service reported). */
  monthTotal: number;
  caps: CreditCapsInfo;
  /** Finished jobs of the 30 days whose cost the service has not reported yet (not in the figures). */
  uncosted: number;
}

const credits = v.pipe(
  v.number('credits must be a number.'),
  v.finite('credits must be a number.'),
  v.minValue(0, 'credits cannot be negative.'),
  v.maxValue(CREDIT_CAP_MAX * 100, 'credits is too large.'),
);

export const budgetInvoke = {
  /** Spent today and this month, the caps and what is left (no request is sent). */
  'budget:status': invoke(v.undefined(), type<BudgetStatusInfo>()),
  /** Would a request estimated at `credits` pass a cap? (0 when unknown: refused only once a cap is used up.) */
  'budget:check': invoke(v.strictObject({ credits }), type<BudgetCheckInfo>()),
  /** Sets the open account's caps (null = off); refused with a clear message for anything but a whole positive number. */
  'budget:set-caps': invoke(creditCapsSchema, type<BudgetStatusInfo>()),
  /** The Spending view: credits by day (30 days) and by model, this month's total against the caps. */
  'budget:spending': invoke(v.undefined(), type<SpendingInfo>()),
};

export const budgetEvents = {};
