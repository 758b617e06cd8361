// Request paths: each endpoint's path is written once, as the spec's template, and its segments are
// filled in here, encoded. Errors and log lines name the template, never the filled-in path.
import { AppError } from '../../contract/errors.ts';

const MAX_ID_LENGTH = 512;

const invalid = (field: string, message: string): AppError =>
  new AppError({ code: 'invalid_argument', field, message });

/** An id as one encoded path segment; refuses what could change the path (empty, `.`, `..`, controls). */
export function pathSegment(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, `${field} must be a non-empty id.`);
  if (value.length > MAX_ID_LENGTH) throw invalid(field, `${field} is too long to be an id.`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw invalid(field, `${field} contains control characters.`);
  if (value === '.' || value === '..') throw invalid(field, `${field} cannot be "${value}".`);
  return encodeURIComponent(value);
}

/** One endpoint's address: the spec's template (for messages) and the encoded path relative to the base URL. */
export interface Route {
  template: string;
  /** Segments encoded, no leading slash: `models/abc/images`. */
  path: string;
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/**
 * `path('/models/{modelID}/images', { modelID })`: every `{name}` is filled with its value as one
 * encoded segment; a bad value is refused naming `name`, before anything is sent.
 */
export function path(template: string, values: Readonly<Record<string, unknown>> = {}): Route {
  const filled = template.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`path(): no value for {${name}} in ${template}`);
    return pathSegment(name, values[name]);
  });
  return { template, path: filled.replace(/^\//, '') };
}
