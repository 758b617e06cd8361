// Shared vocabulary of the request rules: problem type, setting specs as data, and garbage-proof checkers.

export interface FieldProblem {
  /** Dotted path of the field: 'options.imagea.imageSize', 'referenceImages[2].role', 'numImages'. */
  field: string;
  /** In field paths, for the CLI, logs and the service's own words; forms reword it (messages.ts). */
  message: string;
  /** What went wrong as data, so a form can say it with its own labels. */
  detail?: ProblemDetail;
  /** The model the problem is about, when there is one. */
  model?: string;
}

/** What went wrong, as data: the message table (messages.ts) says it in a form's words. */
export type ProblemDetail =
  /** A value outside its spec (enum, range, type). */
  | { kind: 'setting'; spec: SettingSpec; given: unknown }
  /** A required field is missing; `note` says more ("a preset alone is not enough"). */
  | { kind: 'required'; note?: string }
  /** At least one of these fields is needed. */
  | { kind: 'oneOf'; fields: readonly string[] }
  /** A list longer than the model takes. */
  | { kind: 'tooMany'; max: number; given: number }
  /** A list item that is not a public http(s) link. */
  | { kind: 'url'; given: unknown }
  /** A trained model that cannot generate yet. */
  | { kind: 'notReady'; status: string; name: string }
  | { kind: 'unknownModel' }
  /** A value that must equal `required` under a condition (videoa: 8 s with a reference image). */
  | { kind: 'mustBe'; required: string | number; when: string; given: unknown };

export type GenerationRequest =
  { kind: 'image'; body: unknown } | { kind: 'video'; body: unknown } | { kind: 'upscale'; body: unknown };

/** One setting of an option group (or a top-level field), described as data so forms and checks share it. */
export type SettingSpec =
  | { kind: 'enum'; values: readonly string[]; default?: string }
  | { kind: 'intEnum'; values: readonly number[]; default?: number }
  /** Integer in [min, max]; `also` lists isolated extra values (videob-1.5-pro's -1 = auto). */
  | { kind: 'int'; min: number; max: number; also?: readonly number[]; default?: number }
  | { kind: 'number'; min: number; max: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'string'; nonEmpty?: boolean; default?: string };

export type SettingsTable = Readonly<Record<string, SettingSpec>>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Table lookup that ignores inherited keys, so ids like "constructor" or "__proto__" find nothing. */
export function lookup<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A short human description of what was given, for messages: `"5"` (a string), `5`, `null`, `an array`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `"${shown}"`;
    }
    case 'number':
      return Number.isFinite(value) ? String(value) : 'a non-finite number';
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** Own, and not undefined: a JS caller's `{ prompt: undefined }` means the same as leaving it out (JSON drops it). */
export function has(obj: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(obj, key) && obj[key] !== undefined;
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() !== value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function quoteList(values: readonly (string | number)[]): string {
  return values.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ');
}

/** What a spec accepts, in words: used inside messages. */
export function describeSpec(spec: SettingSpec): string {
  switch (spec.kind) {
    case 'enum':
    case 'intEnum':
      return `one of ${quoteList(spec.values)}`;
    case 'int': {
      const extra = spec.also && spec.also.length > 0 ? `${quoteList(spec.also)} or ` : '';
      return `${extra}an integer from ${spec.min} to ${spec.max}`;
    }
    case 'number':
      return `a number from ${spec.min} to ${spec.max}`;
    case 'boolean':
      return 'true or false';
    case 'string':
      return spec.nonEmpty ? 'a non-empty string' : 'a string';
  }
}

/** Returns a message when `value` breaks `spec`, or null when it conforms. */
export function checkSetting(field: string, value: unknown, spec: SettingSpec, owner?: string): string | null {
  let okay: boolean;
  switch (spec.kind) {
    case 'enum':
      okay = typeof value === 'string' && spec.values.includes(value);
      break;
    case 'intEnum':
      okay = typeof value === 'number' && spec.values.includes(value);
      break;
    case 'int':
      okay =
        typeof value === 'number' &&
        Number.isInteger(value) &&
        ((value >= spec.min && value <= spec.max) || (spec.also ?? []).includes(value));
      break;
    case 'number':
      okay = typeof value === 'number' && Number.isFinite(value) && value >= spec.min && value <= spec.max;
      break;
    case 'boolean':
      okay = typeof value === 'boolean';
      break;
    case 'string':
      okay = spec.nonEmpty ? isNonEmptyString(value) : typeof value === 'string';
      break;
  }
  const on = owner ? ` on ${owner}` : '';
  return okay ? null : `${field} must be ${describeSpec(spec)}${on}; you gave ${describe(value)}`;
}

/** The defaults a table declares, e.g. `{ imageSize: '1K' }`. */
export function tableDefaults(table: SettingsTable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (spec.default !== undefined) out[name] = spec.default;
  }
  return out;
}

/** Copy only the listed keys that are present; never copies inherited or unlisted keys. */
export function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (has(source, key)) out[key] = source[key];
  }
  return out;
}

export function problem(
  field: string,
  message: string,
  extra?: { detail?: ProblemDetail; model?: string | undefined },
): FieldProblem {
  const out: FieldProblem = { field, message };
  if (extra?.detail) out.detail = extra.detail;
  if (extra?.model) out.model = extra.model;
  return out;
}

/**
 * The `options` envelope shared by image and video models: an object holding only the model's own
 * group (`options.<own>`), never another model's. Returns the problems found and the own group
 * when it is present and an object (its settings are the caller's to check).
 */
export function optionGroupOf(
  body: Record<string, unknown>,
  modelID: string,
  own: string,
  knownGroups: readonly string[],
): { problems: FieldProblem[]; group: Record<string, unknown> | null } {
  if (!has(body, 'options')) return { problems: [], group: null };
  const options = body['options'];
  if (!isRecord(options)) {
    const message = `options must be an object holding only options.${own}; you gave ${describe(options)}`;
    return { problems: [problem('options', message)], group: null };
  }
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(options)) {
    if (key === own || options[key] === undefined) continue;
    const path = `options.${key}`;
    const relation = knownGroups.includes(key) ? 'not accepted by' : 'not an option group of';
    problems.push(problem(path, `${path} is ${relation} ${modelID}: send only options.${own}`));
  }
  if (!has(options, own)) return { problems, group: null };
  const group = options[own];
  const where = `options.${own}`;
  if (!isRecord(group)) {
    problems.push(problem(where, `${where} must be an object; you gave ${describe(group)}`));
    return { problems, group: null };
  }
  return { problems, group };
}

/** Refuse every key of `obj` not in `allowed`, naming it. `where` prefixes paths ('' for top level). */
export function unknownKeyProblems(
  obj: Record<string, unknown>,
  allowed: readonly string[],
  where: string,
  owner: string,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key) || obj[key] === undefined) continue;
    const path = where ? `${where}.${key}` : key;
    problems.push(problem(path, `${path} is not accepted by ${owner}; accepted fields: ${allowed.join(', ')}`));
  }
  return problems;
}

/** Check every present setting of `obj` against `table`; absent settings are fine (all are optional). */
export function settingsProblems(
  obj: Record<string, unknown>,
  table: SettingsTable,
  where: string,
  owner?: string,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [name, spec] of Object.entries(table)) {
    if (!has(obj, name)) continue;
    const path = where ? `${where}.${name}` : name;
    const message = checkSetting(path, obj[name], spec, owner);
    const model = owner && !owner.includes(' ') ? owner : undefined;
    if (message) problems.push(problem(path, message, { detail: { kind: 'setting', spec, given: obj[name] }, model }));
  }
  return problems;
}
