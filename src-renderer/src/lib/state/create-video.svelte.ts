// The Create video form: model, prompt, the model's own options, references with roles, elements; validated live.
import { accountBound } from '../account-scope.ts';
import { defaultsFor, inFormWords, normalize, notices, validate, type FieldProblem } from '@contract/rules/index.ts';
import {
  REFERENCE_IMAGE_ROLES,
  REFERENCE_VIDEO_ROLE,
  videoRules,
  type VideoModelRules,
} from '@contract/rules/video-models.ts';
import type { ReferenceImageRole } from '@contract/service.ts';
import { carryOver, defined, groupDefaults } from '../create/option-values.ts';
import { formWords } from '../create/labels.ts';
import { blockingReason, problemAt, problemShown, TouchedFields } from '../create/problems.svelte.ts';
import { videoReferenceRefusal, type ReferenceTarget, type VideoReferenceState } from '../create/reference-targets.ts';
import type { DraggedAsset } from '../library/asset-drag.ts';
import { SeedLock } from '../create/seed.svelte.ts';
import { submitGeneration } from '../commands/submit-generation.ts';
import { budget } from './budget.svelte.ts';

export interface ReferenceImageDraft {
  url: string;
  role: ReferenceImageRole;
}

const FIRST_MODEL = 'videoa-3.1';

class CreateVideoState {
  modelID = $state(FIRST_MODEL);
  prompt = $state('');
  /** Fields the user changed: their problems show at once; the others wait for a submit attempt. */
  touched = new TouchedFields();
  numVideos = $state<number | undefined>(1);
  options = $state<Record<string, unknown>>(initialOptions(FIRST_MODEL));
  referenceImages = $state<ReferenceImageDraft[]>([]);
  referenceVideos = $state<string[]>([]);
  elementIDs = $state<string[]>([]);
  seed = new SeedLock();
  /** The job whose result was remixed into the form (its results and this form's are siblings), if any. */
  originJobId = $state<string | null>(null);

  constructor() {
    // References from the account's library and its elements' ids start over in another account.
    accountBound<CreateVideoState>(this, () => ({
      referenceImages: [],
      referenceVideos: [],
      elementIDs: [],
      originJobId: null,
    }));
  }

  readonly rules: VideoModelRules | undefined = $derived(videoRules(this.modelID));
  readonly hasSeed = $derived(this.rules?.options['seed'] !== undefined);

  /** Roles the chosen model takes (those it drops included: they are allowed, with a warning). */
  readonly acceptedRoles: ReferenceImageRole[] = $derived.by(() => {
    const refs = this.rules?.references;
    if (!refs) return [];
    return REFERENCE_IMAGE_ROLES.filter(
      (role) => refs.imageRoles[role] !== undefined || refs.droppedImageRoles.includes(role),
    );
  });

  readonly body: Record<string, unknown> = $derived.by(() => {
    const group = this.rules?.optionGroup;
    const settings = defined({ ...this.options, seed: this.hasSeed ? this.seed.current : undefined });
    return defined({
      modelID: this.modelID,
      // Left out when empty, so the reason reads "prompt is required".
      prompt: this.prompt.trim() === '' ? undefined : this.prompt,
      numVideos: this.numVideos,
      referenceImages: this.referenceImages.length > 0 ? this.referenceImages.map((r) => ({ ...r })) : undefined,
      referenceVideos:
        this.referenceVideos.length > 0
          ? this.referenceVideos.map((url) => ({ url, role: REFERENCE_VIDEO_ROLE }))
          : undefined,
      elementIDs: this.elementIDs.length > 0 ? [...this.elementIDs] : undefined,
      options: group && Object.keys(settings).length > 0 ? { [group]: settings } : undefined,
    });
  });

  /** Every problem, in the form's own words (labels and model names, never field paths). */
  readonly problems: FieldProblem[] = $derived(inFormWords(validate({ kind: 'video', body: this.body }), WORDS));
  readonly notices: FieldProblem[] = $derived(inFormWords(notices({ kind: 'video', body: this.body }), WORDS));
  readonly blockedBy = $derived(blockingReason(this.problems));
  readonly canGenerate = $derived(this.problems.length === 0);
  /** Elements, images and videos together, for models with a cap on all of them. */
  readonly totalItems = $derived(this.elementIDs.length + this.referenceImages.length + this.referenceVideos.length);

  /** What a new reference is judged against: the model's reference rules and what the form holds. */
  readonly referenceState: VideoReferenceState | null = $derived(
    this.rules
      ? {
          modelID: this.modelID,
          rules: this.rules.references,
          referenceImages: this.referenceImages,
          referenceVideos: this.referenceVideos,
          elementIDs: this.elementIDs,
        }
      : null,
  );

  /** The message next to a field, once the field was touched or a submit was tried. */
  problemFor(path: string): string | null {
    return problemShown(this.problems, path, this.touched);
  }

  noticeFor(path: string): string | null {
    return problemAt(this.notices, path);
  }

  selectModel(id: string): void {
    const rules = videoRules(id);
    if (!rules || id === this.modelID) return;
    const sameGroup = this.rules?.optionGroup === rules.optionGroup;
    this.modelID = id;
    this.options = carryOver(
      sameGroup ? this.options : {},
      rules.options,
      groupDefaults(defaultsFor(id), rules.optionGroup),
    );
  }

  setOption(name: string, value: unknown): void {
    this.options = { ...this.options, [name]: value };
    if (this.rules) this.touched.add(`options.${this.rules.optionGroup}.${name}`);
  }

  setPrompt(value: string): void {
    this.prompt = value;
    this.touched.add('prompt');
  }

  /** New images take the first role that still has room, so adding a few in a row does the expected thing. */
  addImage(url: string): void {
    const refs = this.rules?.references;
    const count = (role: ReferenceImageRole) => this.referenceImages.filter((r) => r.role === role).length;
    const roomy = this.acceptedRoles.find((role) => count(role) < (refs?.imageRoles[role] ?? Infinity));
    const role = roomy ?? this.acceptedRoles[0] ?? 'reference_image';
    this.referenceImages = [...this.referenceImages, { url, role }];
    this.touched.add('referenceImages');
  }

  /** Why `item` cannot be added as `target` now, or null when it can. */
  referenceRefusal(target: ReferenceTarget, item: DraggedAsset): string | null {
    const state = this.referenceState;
    return state ? videoReferenceRefusal(target, item, state) : 'Choose a video model first.';
  }

  /** Adds a library item (dragged or picked) or a dropped link with a role; returns why not instead when refused. */
  addReference(target: ReferenceTarget, item: DraggedAsset): string | null {
    const refusal = this.referenceRefusal(target, item);
    if (refusal !== null || !item.url) return refusal;
    if (target === 'reference_video') this.addVideo(item.url);
    else this.referenceImages = [...this.referenceImages, { url: item.url, role: target }];
    this.touched.add(target === 'reference_video' ? 'referenceVideos' : 'referenceImages');
    return null;
  }

  setImageRole(index: number, role: ReferenceImageRole): void {
    this.referenceImages = this.referenceImages.map((r, i) => (i === index ? { ...r, role } : r));
    this.touched.add('referenceImages');
  }

  removeImage(index: number): void {
    this.referenceImages = this.referenceImages.filter((_, i) => i !== index);
  }

  addVideo(url: string): void {
    this.referenceVideos = [...this.referenceVideos, url];
    this.touched.add('referenceVideos');
  }

  removeVideo(index: number): void {
    this.referenceVideos = this.referenceVideos.filter((_, i) => i !== index);
  }

  addElement(id: string): void {
    this.elementIDs = [...this.elementIDs, id];
    this.touched.add('elementIDs');
  }

  removeElement(index: number): void {
    this.elementIDs = this.elementIDs.filter((_, i) => i !== index);
  }

  /** Reopens the form with a request's exact params (remix); `originJobId`: the job that made the asset remixed. */
  loadRequest(body: Record<string, unknown>, originJobId: string | null = null): void {
    const rules = videoRules(body['modelID']);
    if (!rules) return;
    this.originJobId = originJobId;
    const list = (v: unknown) =>
      (Array.isArray(v) ? v.filter((x) => typeof x === 'object' && x !== null) : []) as Record<string, unknown>[];
    this.modelID = body['modelID'] as string;
    this.prompt = typeof body['prompt'] === 'string' ? body['prompt'] : '';
    this.numVideos = typeof body['numVideos'] === 'number' ? body['numVideos'] : 1;
    this.referenceImages = list(body['referenceImages']).map((r) => ({
      url: String(r['url']),
      role: r['role'] as ReferenceImageRole,
    }));
    this.referenceVideos = list(body['referenceVideos']).map((r) => String(r['url']));
    const ids = body['elementIDs'];
    this.elementIDs = Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : [];
    const options = body['options'];
    const group =
      typeof options === 'object' && options !== null
        ? (options as Record<string, unknown>)[rules.optionGroup]
        : undefined;
    const { seed, ...settings } = typeof group === 'object' && group !== null ? (group as Record<string, unknown>) : {};
    this.options = settings;
    if (typeof seed === 'number') this.seed.set(seed);
    this.touched.add('prompt');
  }

  /** Sends the generation; with problems, shows them all and returns the first one's field (for the focus). */
  submit(): string | null {
    this.touched.submitted = true;
    const first = this.problems[0];
    if (first) return first.field;
    if (!this.rules) return null;
    let body = this.body;
    if (this.hasSeed) {
      const group = this.rules.optionGroup;
      const options = (body['options'] as Record<string, Record<string, unknown>> | undefined) ?? {};
      body = { ...body, options: { [group]: { ...options[group], seed: this.seed.forSubmit() } } };
    }
    // Held a moment in the queue (cancellable there), so the form is free for the next one at once.
    void submitGeneration(normalize({ kind: 'video', body }), {
      checked: budget.verdicts.video,
      originJobId: this.originJobId,
    });
    return null;
  }
}

function initialOptions(modelID: string): Record<string, unknown> {
  const rules = videoRules(modelID);
  return rules ? groupDefaults(defaultsFor(modelID), rules.optionGroup) : {};
}

const WORDS = formWords();

export const createVideo = new CreateVideoState();
