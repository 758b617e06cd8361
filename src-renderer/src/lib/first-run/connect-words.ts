// The first-run connection in the words of the welcome screen: a pasted key cleaned of spaces and a
// "Bearer " prefix, and each failure of the check put on the field it is about (the address or the key).
import type { ErrorInfo } from '@contract/errors.ts';

/** What people paste: the key with spaces or line breaks around or inside it, or a whole "Bearer …" header. */
export function cleanKey(pasted: string): { key: string; changed: string | null } {
  let key = pasted;
  const notes: string[] = [];
  if (/^\s*bearer\s+/i.test(key)) {
    key = key.replace(/^\s*bearer\s+/i, '');
    notes.push('the “Bearer ” prefix');
  }
  if (/\s/.test(key)) {
    key = key.replace(/\s+/g, '');
    notes.push('spaces');
  }
  return { key, changed: notes.length > 0 ? `Removed ${notes.join(' and ')} from the pasted key.` : null };
}

export interface ConnectProblem {
  field: 'baseUrl' | 'key' | null;
  message: string;
}

/** Where a failed check belongs and what to say there, on the welcome screen (no "Settings" to go to). */
export function connectProblem(error: ErrorInfo, baseUrl: string): ConnectProblem {
  switch (error.code) {
    case 'network':
    case 'offline':
      return {
        field: 'baseUrl',
        message: `Nothing answered at ${baseUrl}. Check the address and your connection; the key was not tried.`,
      };
    case 'not_found':
    case 'malformed_response':
      return {
        field: 'baseUrl',
        message: `${baseUrl} answered, but not like the media service. Check the address (it often ends in /v1).`,
      };
    case 'auth':
      return {
        field: 'key',
        message: 'The service answered and refused this key. Check that it was copied whole and is still active.',
      };
    default:
      if (error.field === 'baseUrl') return { field: 'baseUrl', message: error.message.replace(/ in Settings/g, '') };
      if (error.field === 'key') return { field: 'key', message: error.message };
      return { field: null, message: error.message.replace(/ in Settings/g, '') };
  }
}
