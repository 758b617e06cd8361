// Conversions between what the service and the app hand us and what the tables store:
// epoch-ms integers for times, JSON text for free-form objects, NULL for empty strings.
import { isoTime } from './iso-time.ts';

/** ISO text (or anything Date.parse reads) → epoch ms; NULL when absent or unreadable. */
export function parseTime(value: unknown): number | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

// isoTime: same text as toISOString, several times faster (asset pages format two times per row).
export const isoOrNull = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : isoTime(ms);

/** The service sends '' for "none" in several id/url fields; the tables keep NULL instead. */
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export const jsonOrNull = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

/** Parses JSON stored by us; a damaged value reads as NULL rather than failing a whole page. */
export function parseJson<T = unknown>(text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export const positiveIntOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
