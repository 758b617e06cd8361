// How generation settings travel inside image files, shared by the writer (the core, on download)
// and the reader (the renderer, when a file is dropped on Create). The convention is the one
// Stable Diffusion tools (AUTOMATIC1111, Forge, ComfyUI readers, Civitai) use: a PNG text chunk
// named `parameters` whose text is the prompt, an optional "Negative prompt:" line, and a last line
// of "Key: value" pairs (Steps, Seed, Size, Model…). JPEGs carry the same text in XMP (an APP1
// segment): dc:description (the prompt), exif:UserComment (the parameters text), and Atelier's own
// properties. The exact request also travels as JSON (PNG chunk `atelier`, XMP atelier:request), so
// Atelier restores every option, not only those the text names.

/** The PNG text keyword SD tools read. */
export const PARAMETERS_KEYWORD = 'parameters';
/** Atelier's own PNG text keyword: the request as JSON. */
export const REQUEST_KEYWORD = 'atelier';
import { escapeXml, marksXmpParts, unescapeXml, type FileMarks } from './file-marks.ts';

/** XMP namespace of Atelier's properties. */
export const ATELIER_XMP_NS = 'https://atelier.invalid/ns/generation/1.0/';
/** The identifier that opens an XMP APP1 segment. */
export const XMP_APP1_ID = 'http://ns.adobe.com/xap/1.0/\0';

export interface GenerationSettings {
  prompt: string | null;
  negativePrompt?: string | null;
  modelId: string | null;
  seed?: number | null;
  width?: number | null;
  height?: number | null;
  preset?: string | null;
  jobId?: string | null;
  /** The request that made the image, exactly as sent (modelID, prompt, options…). */
  request: Record<string, unknown> | null;
  /** Export only: the asset's id, stars, flag and parents (contract/file-marks.ts), written into the XMP. */
  marks?: FileMarks | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The seed a request asked for: top level (trained models) or inside its option group. */
export function seedOf(request: Record<string, unknown> | null): number | null {
  if (!request) return null;
  if (typeof request['seed'] === 'number') return request['seed'];
  const options = request['options'];
  if (isRecord(options)) {
    for (const group of Object.values(options)) {
      if (isRecord(group) && typeof group['seed'] === 'number') return group['seed'];
    }
  }
  return null;
}

function negativeOf(request: Record<string, unknown> | null): string | null {
  const options = request?.['options'];
  if (!isRecord(options)) return null;
  for (const group of Object.values(options)) {
    if (isRecord(group) && typeof group['negativePrompt'] === 'string') return group['negativePrompt'];
  }
  return null;
}

/** A value as SD tools write it: no commas or line breaks (they split the pairs on them). */
const flat = (value: unknown): string =>
  String(typeof value === 'object' ? JSON.stringify(value) : value)
    .replace(/[\r\n]+/g, ' ')
    .replace(/,/g, ';');

/** Options as "Key: value" pairs, named as the screen names them ("Aspect ratio", not aspectRatio). */
function optionPairs(request: Record<string, unknown> | null): [string, string][] {
  if (!request) return [];
  const label = (key: string) => {
    const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  };
  const pairs: [string, string][] = [];
  const skip = new Set([
    'modelID',
    'prompt',
    'seed',
    'options',
    'preset',
    'referenceImageURLs',
    'referenceImages',
    'referenceVideos',
  ]);
  for (const [key, value] of Object.entries(request)) {
    if (!skip.has(key) && value !== undefined && value !== null && typeof value !== 'object')
      pairs.push([label(key), flat(value)]);
  }
  const options = request['options'];
  if (isRecord(options)) {
    for (const group of Object.values(options)) {
      if (!isRecord(group)) continue;
      for (const [key, value] of Object.entries(group)) {
        if (key === 'seed' || key === 'negativePrompt' || value === undefined || value === null) continue;
        pairs.push([label(key), flat(value)]);
      }
    }
  }
  return pairs;
}

/** The `parameters` text: prompt, "Negative prompt: …", then one line of "Key: value" pairs. */
export function formatParameters(settings: GenerationSettings): string {
  const seed = settings.seed ?? seedOf(settings.request);
  const negative = settings.negativePrompt ?? negativeOf(settings.request);
  const pairs: [string, string][] = [];
  if (seed !== null && seed !== undefined) pairs.push(['Seed', String(seed)]);
  if (settings.width && settings.height) pairs.push(['Size', `${settings.width}x${settings.height}`]);
  if (settings.modelId) pairs.push(['Model', flat(settings.modelId)]);
  if (settings.preset) pairs.push(['Preset', flat(settings.preset)]);
  pairs.push(...optionPairs(settings.request));
  if (settings.jobId) pairs.push(['Job', flat(settings.jobId)]);
  pairs.push(['Generator', 'Atelier']);
  const lines = [settings.prompt ?? ''];
  if (negative) lines.push(`Negative prompt: ${negative}`);
  lines.push(pairs.map(([key, value]) => `${key}: ${value}`).join(', '));
  return lines.join('\n');
}

export interface ParsedParameters {
  prompt: string;
  negativePrompt: string | null;
  /** The last line's pairs, by their key as written ("Seed", "Model"…). */
  pairs: Record<string, string>;
  seed: number | null;
  model: string | null;
}

/** Reads a `parameters` text (ours, or one written by an SD tool). */
export function parseParameters(text: string): ParsedParameters {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const last = lines.at(-1) ?? '';
  const pairPattern = /\s*([A-Za-z][\w ]*?):\s*([^,]*)(?:,|$)/g;
  const pairs: Record<string, string> = {};
  const looksLikePairs = /^\s*(Steps|Seed|Model|Size|Sampler|Generator)\s*:/m.test(last);
  if (looksLikePairs && lines.length > 1) {
    lines.pop();
    for (const match of last.matchAll(pairPattern)) {
      if (match[1]) pairs[match[1].trim()] = (match[2] ?? '').trim();
    }
  }
  let negativePrompt: string | null = null;
  const negativeAt = lines.findIndex((line) => line.startsWith('Negative prompt:'));
  if (negativeAt >= 0) {
    negativePrompt = lines.slice(negativeAt).join('\n').slice('Negative prompt:'.length).trim();
    lines.length = negativeAt;
  }
  const seed = pairs['Seed'] !== undefined && /^-?\d+$/.test(pairs['Seed']) ? Number(pairs['Seed']) : null;
  return { prompt: lines.join('\n').trim(), negativePrompt, pairs, seed, model: pairs['Model'] ?? null };
}

/** The request JSON as stored in the file; null unless it is an object naming its model. */
export function parseRequestJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && typeof value['modelID'] === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The XMP packet of a JPEG: readable by photo tools (description, user comment) and by Atelier. */
export function formatXmp(settings: GenerationSettings, createdAt: string | null): string {
  const parameters = formatParameters(settings);
  const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(text)}</rdf:li></rdf:Alt>`;
  const attributes = [
    `xmp:CreatorTool="Atelier"`,
    createdAt ? `xmp:CreateDate="${escapeXml(createdAt)}"` : '',
    settings.modelId ? `atelier:model="${escapeXml(settings.modelId)}"` : '',
    (settings.seed ?? seedOf(settings.request)) !== null
      ? `atelier:seed="${String(settings.seed ?? seedOf(settings.request))}"`
      : '',
    settings.jobId ? `atelier:job="${escapeXml(settings.jobId)}"` : '',
  ].filter(Boolean);
  const marks = settings.marks ? marksXmpParts(settings.marks) : null;
  if (marks) attributes.push(...marks.attributes);
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:atelier="${ATELIER_XMP_NS}"${marks ? ` ${marks.namespaces}` : ''} ${attributes.join(' ')}>`,
    settings.prompt ? `<dc:description>${alt(settings.prompt)}</dc:description>` : '',
    `<exif:UserComment>${alt(parameters)}</exif:UserComment>`,
    `<atelier:parameters>${escapeXml(parameters)}</atelier:parameters>`,
    settings.request ? `<atelier:request>${escapeXml(JSON.stringify(settings.request))}</atelier:request>` : '',
    ...(marks?.elements ?? []),
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** What an XMP packet says: Atelier's request and parameters, or an SD tool's parameters in UserComment. */
export function readXmp(xmp: string): { parameters: string | null; request: Record<string, unknown> | null } {
  const element = (name: string): string | null => {
    const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xmp);
    return match?.[1] === undefined ? null : unescapeXml(match[1]);
  };
  const altText = (name: string): string | null => {
    const inner = new RegExp(`<${name}>[\\s\\S]*?<rdf:li[^>]*>([\\s\\S]*?)</rdf:li>`).exec(xmp);
    return inner?.[1] === undefined ? null : unescapeXml(inner[1]);
  };
  const request = element('atelier:request');
  return {
    parameters: element('atelier:parameters') ?? altText('exif:UserComment'),
    request: request ? parseRequestJson(request) : null,
  };
}
