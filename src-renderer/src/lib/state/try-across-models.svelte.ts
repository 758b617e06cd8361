// "Try across models…": the dialog's state. Opened from Create with the form's request as the base;
// holds the one or two axes as the user sets them, the core's plan of them (experiments:plan: cells,
// estimates, mapped settings, the caps' verdict; asked again after a pause in the changes), and
// sends it (experiments:start) only when the user presses the send button — over a cap only with
// the explicit "Send anyway" ticked. Nothing is sent while the dialog is being filled in.
import type { ExperimentPlanInfo, ExperimentPlanInput } from '@contract/ipc/experiments.ts';
import { accountBound } from '../account-scope.ts';
import {
  axisChoices,
  choiceById,
  currentValue,
  valueGroups,
  type AxisChoice,
  type AxisContext,
  type GenerationKind,
} from '../experiments/axis-choices.ts';
import { axisValues, cellsProblem, drawSeeds, type AxisDraft, type AxisValues } from '../experiments/axis-values.ts';
import { defaultName, sentCells } from '../experiments/plan-words.ts';
import { invoke } from '../ipc.ts';
import { names } from './names.svelte.ts';
import { models } from './models.svelte.ts';
import { presets } from './presets.svelte.ts';
import { showExperiment } from './experiments.svelte.ts';
import { toasts } from './toasts.svelte.ts';

/** The form's request the experiment starts from. */
export interface ExperimentBase {
  kind: GenerationKind;
  body: Record<string, unknown>;
}

class TryAcrossModelsState {
  open = $state(false);
  base = $state.raw<ExperimentBase | null>(null);
  axes = $state<AxisDraft[]>([]);
  name = $state('');
  /** The core's plan of `planKey`'s input (it may lag behind the axes while a new one is asked). */
  plan = $state.raw<ExperimentPlanInfo | null>(null);
  planKey = $state<string | null>(null);
  planError = $state<string | null>(null);
  planning = $state(false);
  /** The user ticked "Send anyway (over my cap)". */
  overBudgetOk = $state(false);
  /** A refusal at start (another job took the room meanwhile): said, and the override asked for. */
  startRefusal = $state<string | null>(null);
  sending = $state(false);
  sendError = $state<string | null>(null);
  #asked = 0;

  constructor() {
    // The base names the account's things (a trained model, a preset): another account starts closed.
    accountBound<TryAcrossModelsState>(this, () => ({
      open: false,
      base: null,
      axes: [],
      name: '',
      plan: null,
      planKey: null,
      planError: null,
      planning: false,
      overBudgetOk: false,
      startRefusal: null,
      sending: false,
      sendError: null,
    }));
  }

  readonly context: AxisContext | null = $derived.by(() => {
    const base = this.base;
    if (!base) return null;
    return {
      kind: base.kind,
      body: base.body,
      accountModels: models.items.map((m) => ({
        id: m.id,
        label: m.displayName,
        usable: m.usable,
        provided: names.provided(m.id),
      })),
      presets: presets.items.map((p) => ({ tag: p.tag, name: p.name })),
    };
  });

  readonly choices: AxisChoice[] = $derived(this.context ? axisChoices(this.context) : []);

  /** Each axis's choice (what it varies). */
  readonly axisChoices: (AxisChoice | undefined)[] = $derived(
    this.axes.map((draft) => (this.context ? choiceById(this.context, draft.choiceId) : undefined)),
  );

  /** Each axis's values for the core, or its problem in words. */
  readonly axisResults: AxisValues[] = $derived(
    this.axes.map((draft, i) => {
      const choice = this.axisChoices[i];
      return choice ? axisValues(choice, draft) : { ok: false, problem: 'Choose what to vary.' };
    }),
  );

  /** Why the axes cannot be planned yet (shown once, above the preview); null when they can. */
  readonly inputProblem: string | null = $derived.by(() => {
    const refused = this.axisResults.find((result) => !result.ok);
    if (refused && !refused.ok) return refused.problem;
    return cellsProblem(this.axisResults.flatMap((result) => (result.ok ? [result.axis] : [])));
  });

  /** What experiments:plan and experiments:start take (without the name), or null while a problem stands. */
  readonly input: ExperimentPlanInput | null = $derived.by(() => {
    if (!this.base || this.inputProblem !== null) return null;
    const axes = this.axisResults.flatMap((result) => (result.ok ? [result.axis] : []));
    return { base: { kind: this.base.kind, body: this.base.body }, axes };
  });

  readonly inputKey: string | null = $derived(this.input ? JSON.stringify(this.input) : null);
  /** The plan shown matches the axes as they are now (the send button sends exactly what it shows). */
  readonly planIsCurrent = $derived(this.plan !== null && this.planKey === this.inputKey);

  /** The caps' reason when the plan would pass one, or the refusal a start met. */
  readonly overBudgetReason: string | null = $derived.by(() => {
    if (this.startRefusal) return this.startRefusal;
    const verdict = this.plan?.budget;
    return verdict && !verdict.ok ? verdict.reason : null;
  });

  /** Why the send button cannot be pressed now, or null. */
  readonly sendBlockedBy: string | null = $derived.by(() => {
    if (this.inputProblem) return this.inputProblem;
    if (this.planError) return this.planError;
    if (!this.planIsCurrent || !this.plan) return 'Working out the jobs and their cost…';
    if (sentCells(this.plan).length === 0) return 'No job can be sent: every cell is refused (see the list).';
    if (this.overBudgetReason && !this.overBudgetOk) return 'Over your cap: tick “Send anyway (over my cap)” to send.';
    return null;
  });

  /** Opens the dialog on the form's request: one axis, Models, with the form's model ticked. */
  openWith(kind: GenerationKind, body: Record<string, unknown>): void {
    this.base = { kind, body: $state.snapshot(body) };
    this.name = defaultName(body['prompt']);
    this.plan = null;
    this.planKey = null;
    this.planError = null;
    this.overBudgetOk = false;
    this.startRefusal = null;
    this.sendError = null;
    this.sending = false;
    this.axes = [this.#newAxis('model')];
    this.open = true;
  }

  close(): void {
    this.open = false;
    this.#asked += 1; // a plan still on its way is not wanted any more
    this.planning = false;
  }

  /** A new axis varying `choiceId`, with the form's own value ticked (or typed) where it has one. */
  #newAxis(choiceId: string): AxisDraft {
    const draft: AxisDraft = { choiceId, picked: [], text: '', randomSeeds: drawSeeds() };
    const ctx = this.context;
    const choice = ctx ? choiceById(ctx, choiceId) : undefined;
    if (!ctx || !choice) return draft;
    const current = currentValue(ctx, choice);
    if (current === undefined) return draft;
    if (choice.input === 'text') return { ...draft, text: current };
    const offered = valueGroups(ctx, choice).some((group) => group.values.some((v) => v.value === current));
    return offered ? { ...draft, picked: [current] } : draft;
  }

  /** Changes what axis `index` varies (its values start over). */
  setChoice(index: number, choiceId: string): void {
    this.axes = this.axes.map((draft, i) => (i === index ? this.#newAxis(choiceId) : draft));
  }

  /** The choices axis `index` may take: not what the other axis varies. */
  choicesFor(index: number): AxisChoice[] {
    const taken = new Set(this.axes.filter((_, i) => i !== index).map((draft) => draft.choiceId));
    return this.choices.filter((choice) => !taken.has(choice.id));
  }

  /** "Add a second axis": aspect ratio after models, models after anything else. */
  addAxis(): void {
    if (this.axes.length >= 2) return;
    const used = this.axes[0]?.choiceId;
    const free = this.choicesFor(1);
    const next = free.find((c) => c.id === (used === 'model' ? 'aspectRatio' : 'model')) ?? free[0];
    if (next) this.axes = [...this.axes, this.#newAxis(next.id)];
  }

  removeAxis(index: number): void {
    if (this.axes.length <= 1) return;
    this.axes = this.axes.filter((_, i) => i !== index);
  }

  /** Ticks or unticks a value, keeping the offered order. */
  toggle(index: number, value: string, on: boolean): void {
    const ctx = this.context;
    const choice = this.axisChoices[index];
    if (!ctx || !choice) return;
    const order = valueGroups(ctx, choice).flatMap((group) => group.values.map((v) => v.value));
    this.axes = this.axes.map((draft, i) => {
      if (i !== index) return draft;
      const picked = on ? [...draft.picked, value] : draft.picked.filter((v) => v !== value);
      return { ...draft, picked: order.filter((v) => picked.includes(v)) };
    });
  }

  setText(index: number, text: string): void {
    this.axes = this.axes.map((draft, i) => (i === index ? { ...draft, text } : draft));
  }

  /** Asks the core for the plan of the axes as they are now; an answer to an older question is dropped. */
  async refreshPlan(): Promise<void> {
    const input = this.input;
    const key = this.inputKey;
    const asked = ++this.#asked;
    if (!input || key === null) {
      this.planning = false;
      return;
    }
    this.planning = true;
    const result = await invoke('experiments:plan', input);
    if (asked !== this.#asked) return;
    this.planning = false;
    if (result.ok) {
      this.plan = result.value;
      this.planKey = key;
      this.planError = null;
    } else {
      this.plan = null;
      this.planKey = null;
      this.planError = result.error.message;
    }
    this.startRefusal = null;
  }

  /** Sends the experiment the preview shows; closes the dialog and opens its matrix when it started. */
  async start(): Promise<void> {
    const input = this.input;
    if (this.sending || !input || this.sendBlockedBy !== null) return;
    this.sending = true;
    this.sendError = null;
    try {
      const name = this.name.trim() || defaultName(input.base.body['prompt']);
      const result = await invoke('experiments:start', {
        ...input,
        name,
        ...(this.overBudgetReason && this.overBudgetOk ? { overBudget: true as const } : {}),
      });
      if (!result.ok) {
        if (result.error.code === 'over_budget') {
          this.startRefusal = result.error.message;
          this.overBudgetOk = false;
        } else this.sendError = result.error.message;
        return;
      }
      const jobs = sentCells(result.value).length;
      this.close();
      toasts.info(`Experiment “${result.value.name}” started: ${jobs} ${jobs === 1 ? 'job' : 'jobs'} on their way.`);
      showExperiment(result.value.id);
    } finally {
      this.sending = false;
    }
  }
}

export const tryAcrossModels = new TryAcrossModelsState();
