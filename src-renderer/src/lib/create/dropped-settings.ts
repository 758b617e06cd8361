// Reads generation settings out of an image file dropped on Create: a PNG's `parameters` text chunk
// (the SD tools' convention, ours included) and Atelier's `atelier` request chunk, or a JPEG's XMP.
// Pure: bytes in, the request to load out. The format itself is contract/generation-settings.ts.
import {
  PARAMETERS_KEYWORD,
  REQUEST_KEYWORD,
  XMP_APP1_ID,
  parseParameters,
  parseRequestJson,
  readXmp,
  type ParsedParameters,
} from '@contract/generation-settings.ts';

export interface FoundSettings {
  /** The exact request (files written by Atelier). */
  request: Record<string, unknown> | null;
  /** The SD-style text (any tool that follows the convention). */
  parameters: ParsedParameters | null;
}

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('');
const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) * 0x1000000 +
      ((bytes[at + 1] ?? 0) << 16) +
      ((bytes[at + 2] ?? 0) << 8) +
      (bytes[at + 3] ?? 0)) >>>
    0
  );
}

/** tEXt and uncompressed iTXt chunks before the image data, by keyword. */
export function pngTexts(bytes: Uint8Array): Record<string, string> {
  const texts: Record<string, string> = {};
  if (latin1(bytes.subarray(1, 4)) !== 'PNG') return texts;
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = readUint32(bytes, at);
    const type = latin1(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length));
    at += 12 + length;
    if (type === 'IEND') break;
    if (type !== 'tEXt' && type !== 'iTXt') continue;
    const nul = data.indexOf(0);
    if (nul <= 0) continue;
    const keyword = latin1(data.subarray(0, nul));
    if (type === 'tEXt') texts[keyword] = latin1(data.subarray(nul + 1));
    else if (data[nul + 1] === 0) {
      let from = data.indexOf(0, nul + 3) + 1; // after the language tag
      from = data.indexOf(0, from) + 1; // after the translated keyword
      if (from > 0) texts[keyword] = utf8(data.subarray(from));
    }
  }
  return texts;
}

/** The XMP packet of a JPEG, or null. */
export function jpegXmp(bytes: Uint8Array): string | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xda) break;
    const length = ((bytes[at + 2] ?? 0) << 8) + (bytes[at + 3] ?? 0);
    const id = latin1(bytes.subarray(at + 4, at + 4 + XMP_APP1_ID.length));
    if (marker === 0xe1 && id === XMP_APP1_ID)
      return utf8(bytes.subarray(at + 4 + XMP_APP1_ID.length, at + 2 + length));
    at += 2 + length;
  }
  return null;
}

/** The settings a file carries, or null when it carries none. */
export function readDroppedSettings(bytes: Uint8Array): FoundSettings | null {
  const texts = pngTexts(bytes);
  let request: Record<string, unknown> | null = null;
  let text: string | null = null;
  if (Object.keys(texts).length > 0) {
    request = texts[REQUEST_KEYWORD] ? parseRequestJson(texts[REQUEST_KEYWORD]) : null;
    text = texts[PARAMETERS_KEYWORD] ?? null;
  } else {
    const xmp = jpegXmp(bytes);
    if (xmp) ({ request, parameters: text } = readXmp(xmp));
  }
  if (!request && !text) return null;
  return { request, parameters: text ? parseParameters(text) : null };
}

/**
 * The request Create image loads: the exact one when the file has it; else one made from the SD text
 * (prompt, the model when it is one we know, the seed for a trained model) on top of `currentModel`.
 */
export function requestToLoad(
  found: FoundSettings,
  options: { currentModel: string; knownModels: readonly string[]; trainedModels: readonly string[] },
): Record<string, unknown> | null {
  if (found.request) return found.request;
  const parsed = found.parameters;
  if (!parsed) return null;
  const model = parsed.model && options.knownModels.includes(parsed.model) ? parsed.model : options.currentModel;
  const body: Record<string, unknown> = { modelID: model, prompt: parsed.prompt };
  if (parsed.seed !== null && options.trainedModels.includes(model)) body['seed'] = parsed.seed;
  return body;
}
