// The Create image form: the chosen model, its values, live validation against contract/rules, and submission.
import { accountScope } from '../account-scope.ts';
import {
  defaultsFor,
  inFormWords,
  normalize,
  notices,
  notReadyProblem,
  resolveImagecSize,
  TRAINED_IMAGE_FIELDS,
  validate,
  type FieldProblem,
} from '@contract/rules/index.ts';
import { publicImageRules, type PublicImageModelRules } from '@contract/rules/image-models.ts';
import { carryOver, defined, groupDefaults } from '../create/option-values.ts';
import { formWords } from '../create/labels.ts';
import { blockingReason, problemAt, problemShown, TouchedFields } from '../create/problems.svelte.ts';
import { imageReferenceRefusal } from '../create/reference-targets.ts';
import type { DraggedAsset } from '../library/asset-drag.ts';
import { SeedLock } from '../create/seed.svelte.ts';
import { submitGeneration } from '../commands/submit-generation.ts';
import { budget } from './budget.svelte.ts';
import { trainedModels } from './trained-models.svelte.ts';

/** Trained-model settings edited in the "Trained model" section (prompt, preset, count and seed live apart). */
export const TRAINED_SETTING_NAMES = [
  'width',
  'height',
  'steps',
  'runType',
  'enhanceFace',
  'styleStrength',
  'inputImageId',
];

const DEFAULT_MODEL = 'imagea';

class CreateImageState {
  modelID = $state<string>(DEFAULT_MODEL);
  prompt = $state('');
  preset = $state<string | undefined>(undefined);
  aspectRatio = $state<string | undefined>('1:1');
  numImages = $state<number | undefined>(1);
  referenceURLs = $state<string[]>([]);
  /** Settings of the public model's option group (options.<group>). */
  options = $state<Record<string, unknown>>(defaultsOptions(DEFAULT_MODEL));
  /** Settings of a trained model (top-level fields of its body). */
  trained = $state<Record<string, unknown>>({});
  seed = new SeedLock();
  /** Fields the user changed: their problems show at once; the others wait for a submit attempt. */
  touched = new TouchedFields();
  /** The job whose result was remixed into the form (its results and this form's are siblings), if any. */
  originJobId = $state<string | null>(null);

  constructor() {
    // The form's choices that name the account's things (a trained model and its own settings and
    // seed, a preset, reference links from its library) start over in another account; the prompt
    // and a public model's settings stay, as they mean the same anywhere.
    accountScope.bind({
      reset: () => {
        if (this.isTrained) this.selectModel(DEFAULT_MODEL);
        this.trained = {};
        this.preset = undefined;
        this.referenceURLs = [];
        this.originJobId = null;
        this.seed.set(undefined);
        this.touched.reset();
      },
    });
  }

  readonly rules: PublicImageModelRules | undefined = $derived(publicImageRules(this.modelID));
  readonly isTrained = $derived(this.rules === undefined);

  /** Fields greyed out by another field's value, with the reason. */
  readonly disabledOptions: Record<string, string> = $derived.by((): Record<string, string> => {
    if (this.rules?.family !== 'imagec') return {};
    const format = this.options['outputFormat'] ?? 'jpeg';
    return format === 'jpeg' ? {} : { outputCompression: 'Only with JPEG output.' };
  });

  /** The request body exactly as the form describes it (disabled fields left out). */
  readonly body: Record<string, unknown> = $derived.by(() => {
    // An empty prompt is left out, so the reason reads "prompt is required" rather than a type complaint.
    const prompt = this.prompt.trim() === '' ? undefined : this.prompt;
    const common = { modelID: this.modelID, prompt, preset: this.preset, numImages: this.numImages };
    if (!this.rules) {
      return defined({ ...common, ...this.trained, seed: this.seed.current });
    }
    const settings = defined(
      Object.fromEntries(Object.entries(this.options).filter(([name]) => !(name in this.disabledOptions))),
    );
    return defined({
      ...common,
      aspectRatio: this.aspectRatio,
      referenceImageURLs: this.referenceURLs.length > 0 ? this.referenceURLs : undefined,
      options: Object.keys(settings).length > 0 ? { [this.rules.optionGroup]: settings } : undefined,
    });
  });

  /** A trained model that exists but cannot generate yet (only 'ready' models can). */
  readonly trainedNotReady = $derived.by(() => {
    const model = trainedModels.find(this.modelID);
    return model && !model.usable ? model : null;
  });

  /** Every problem, in the form's own words (labels and model names, never field paths). */
  readonly problems: FieldProblem[] = $derived.by(() => {
    const model = this.trainedNotReady;
    const status = model ? notReadyProblem(model.id, model.status, model.label) : null;
    return inFormWords([...(status ? [status] : []), ...validate({ kind: 'image', body: this.body })], WORDS);
  });
  readonly notices: FieldProblem[] = $derived(inFormWords(notices({ kind: 'image', body: this.body }), WORDS));
  readonly blockedBy: string | null = $derived(blockingReason(this.problems));
  readonly canGenerate = $derived(this.problems.length === 0);

  /** imagec-2's exact output size for the chosen tier and ratio, when both are set. */
  readonly resolvedSize = $derived.by(() => {
    const size = this.options['imageSize'];
    if (this.rules?.family !== 'imagec' || typeof size !== 'string') return null;
    return resolveImagecSize(size, this.aspectRatio ?? '1:1');
  });

  /** The message next to a field, once the field was touched or a submit was tried: an untouched form does not shout. */
  problemFor(path: string): string | null {
    return problemShown(this.problems, path, this.touched);
  }

  noticeFor(path: string): string | null {
    return problemAt(this.notices, path);
  }

  selectModel(id: string): void {
    if (id === this.modelID) return;
    const previousGroup = this.rules?.optionGroup;
    const wasTrained = this.isTrained;
    this.modelID = id;
    const rules = publicImageRules(id);
    const defaults = defaultsFor(id);
    if (rules) {
      const previous = previousGroup === rules.optionGroup ? this.options : {};
      this.options = carryOver(previous, rules.options, groupDefaults(defaults, rules.optionGroup));
      this.aspectRatio ??= defaults['aspectRatio'] as string | undefined;
    } else {
      this.trained = wasTrained ? this.trained : {};
    }
    this.numImages ??= defaults['numImages'] as number | undefined;
  }

  setOption(name: string, value: unknown): void {
    this.options = { ...this.options, [name]: value };
    if (this.rules) this.touched.add(`options.${this.rules.optionGroup}.${name}`);
  }

  setTrained(name: string, value: unknown): void {
    this.trained = { ...this.trained, [name]: value };
    this.touched.add(name);
  }

  setPrompt(value: string): void {
    this.prompt = value;
    this.touched.add('prompt');
  }

  addReference(url: string): void {
    this.referenceURLs = [...this.referenceURLs, url.trim()];
    this.touched.add('referenceImageURLs');
  }

  /** Adds a library item (dragged or picked) or a dropped link; returns why not instead when the model's rules refuse it. */
  addDropped(item: DraggedAsset): string | null {
    if (!this.rules) return 'Reference images are for the public models; a trained model takes an input image.';
    const refusal = imageReferenceRefusal(item, {
      modelID: this.modelID,
      max: this.rules.maxReferenceURLs,
      urls: this.referenceURLs,
    });
    if (refusal === null && item.url) this.addReference(item.url);
    return refusal;
  }

  removeReference(index: number): void {
    this.referenceURLs = this.referenceURLs.filter((_, i) => i !== index);
  }

  /**
   * Reopens the form with a request's exact params (remix); unknown fields are dropped by the form's own
   * shape. `originJobId`: the job that made the asset remixed (what is sent from the form then is its variation).
   */
  loadRequest(body: Record<string, unknown>, originJobId: string | null = null): void {
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    const modelID = str(body['modelID']);
    if (!modelID) return;
    this.originJobId = originJobId;
    this.modelID = modelID;
    this.prompt = str(body['prompt']) ?? '';
    this.preset = str(body['preset']);
    this.numImages = num(body['numImages']) ?? 1;
    const rules = publicImageRules(modelID);
    if (rules) {
      this.aspectRatio = str(body['aspectRatio']) ?? '1:1';
      const urls = body['referenceImageURLs'];
      this.referenceURLs = Array.isArray(urls) ? urls.filter((u): u is string => typeof u === 'string') : [];
      const options = body['options'];
      const group =
        typeof options === 'object' && options !== null
          ? (options as Record<string, unknown>)[rules.optionGroup]
          : undefined;
      this.options = typeof group === 'object' && group !== null ? { ...(group as Record<string, unknown>) } : {};
    } else {
      const { modelID: _id, prompt: _p, preset: _s, numImages: _n, seed, ...trained } = body;
      this.trained = trained;
      if (typeof seed === 'number') this.seed.set(seed);
    }
    this.touched.add('prompt');
  }

  /**
   * Sends the generation; with problems, shows them all and returns the first one's field (for
   * the focus) instead. Returns null when the request went on its way or one is already sending.
   */
  submit(): string | null {
    this.touched.submitted = true;
    const first = this.problems[0];
    if (first) return first.field;
    const body = this.isTrained ? { ...this.body, seed: this.seed.forSubmit() } : this.body;
    // Held a moment in the queue (cancellable there), so the form is free for the next one at once.
    void submitGeneration(normalize({ kind: 'image', body }), {
      checked: budget.verdicts.image,
      originJobId: this.originJobId,
    });
    return null;
  }
}

function defaultsOptions(modelID: string): Record<string, unknown> {
  const rules = publicImageRules(modelID);
  return rules ? groupDefaults(defaultsFor(modelID), rules.optionGroup) : {};
}

/** Fields of TRAINED_IMAGE_FIELDS the trained section shows, with their specs. */
export const TRAINED_SETTINGS = TRAINED_SETTING_NAMES.flatMap((name) => {
  const spec = TRAINED_IMAGE_FIELDS[name];
  return spec ? [{ name, spec }] : [];
});

/** Model names: the user's own label for a trained model, the display name of a public one. */
const WORDS = formWords((id) => trainedModels.find(id)?.label);

export const createImage = new CreateImageState();
