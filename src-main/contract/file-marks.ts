// How an asset's marks (its 0–5 stars and pick/reject flag, contract/ipc/marks.ts) and its parents
// travel in exported files, and how they are read back on import. Written by export into the XMP of
// PNG, JPEG and WebP files and into every JSON sidecar; read by `library:import-marks`.
//
// XMP: `xmp:Rating` is the photo tools' rating (Lightroom, Bridge, digiKam, darktable): 0–5 stars,
// and -1 for a reject, as those tools write it. Since -1 leaves no room for the stars a rejected
// asset had, and XMP has no standard "pick", Atelier's namespace keeps both exactly: `atelier:rating`
// (0–5) and `atelier:flag` (pick|reject). Reading: `xmp:Rating` wins, because it is what another tool
// changes (-1 = reject, with atelier:rating's stars; 0–5 = those stars, a pick kept from atelier:flag,
// a reject another tool re-rated is no longer one); without it, atelier:rating/flag.
// The asset itself: `xmpMM:DocumentID` "atelier:<kind>:<id>" and `atelier:id`/`atelier:kind` (import
// matches by them). Parents: `xmpMM:DerivedFrom` (the first parent with an id: an upscale's image)
// and `xmpMM:Ingredients` (every parent: its id when known, its file's name, its role).

export type FileMarkKind = 'image' | 'video';
export type FileMarkFlag = 'pick' | 'reject';

export interface FileParent {
  /** What it was to this asset: "upscale of", "reference", "first frame"… */
  role: string;
  kind: FileMarkKind | null;
  /** The service id, when the request named one; null for a reference known only by its address. */
  id: string | null;
  /** Its name for people: a reference's file name, or null. */
  name: string | null;
}

export interface FileMarks {
  kind: FileMarkKind;
  id: string;
  /** 0–5 stars (0: not rated). */
  rating: number;
  flag: FileMarkFlag | null;
  parents: FileParent[];
}

export const XMP_MM_NS = 'http://ns.adobe.com/xap/1.0/mm/';
export const ST_REF_NS = 'http://ns.adobe.com/xap/1.0/sType/ResourceRef#';
/** The PNG iTXt keyword of an XMP packet (the XMP specification, part 3). */
export const PNG_XMP_KEYWORD = 'XML:com.adobe.xmp';

/** Text as XML 1.0 can carry it in an attribute or element (generation-settings.ts uses it too). */
export const escapeXml = (text: string): string =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, ' ');

export const unescapeXml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');

export const documentIdOf = (kind: string, id: string): string => `atelier:${kind}:${id}`;

/** The photo tools' rating: -1 for a reject, else the stars. */
export const xmpRatingOf = (marks: Pick<FileMarks, 'rating' | 'flag'>): number =>
  marks.flag === 'reject' ? -1 : marks.rating;

/** Namespace declarations, attributes and elements the marks add to an XMP rdf:Description. */
export function marksXmpParts(marks: FileMarks): { namespaces: string; attributes: string[]; elements: string[] } {
  const attributes = [
    `xmp:Rating="${xmpRatingOf(marks)}"`,
    `xmpMM:DocumentID="${escapeXml(documentIdOf(marks.kind, marks.id))}"`,
    `atelier:id="${escapeXml(marks.id)}"`,
    `atelier:kind="${marks.kind}"`,
    `atelier:rating="${marks.rating}"`,
    marks.flag ? `atelier:flag="${marks.flag}"` : '',
  ].filter(Boolean);
  const ref = (parent: FileParent) =>
    [
      parent.id && parent.kind
        ? `<stRef:documentID>${escapeXml(documentIdOf(parent.kind, parent.id))}</stRef:documentID>`
        : '',
      parent.name ? `<stRef:filePath>${escapeXml(parent.name)}</stRef:filePath>` : '',
      `<atelier:role>${escapeXml(parent.role)}</atelier:role>`,
    ].join('');
  const elements: string[] = [];
  const derived = marks.parents.find((parent) => parent.id && parent.kind);
  if (derived) elements.push(`<xmpMM:DerivedFrom rdf:parseType="Resource">${ref(derived)}</xmpMM:DerivedFrom>`);
  if (marks.parents.length > 0) {
    const items = marks.parents.map((parent) => `<rdf:li rdf:parseType="Resource">${ref(parent)}</rdf:li>`);
    elements.push(`<xmpMM:Ingredients><rdf:Bag>${items.join('')}</rdf:Bag></xmpMM:Ingredients>`);
  }
  return { namespaces: `xmlns:xmpMM="${XMP_MM_NS}" xmlns:stRef="${ST_REF_NS}"`, attributes, elements };
}

/** A property written as an attribute (name="value") or an element (<name>value</name>). */
function property(xmp: string, name: string): string | null {
  const attribute = new RegExp(`\\s${name}="([^"]*)"`).exec(xmp);
  if (attribute?.[1] !== undefined) return unescapeXml(attribute[1]);
  const element = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xmp);
  return element?.[1] === undefined ? null : unescapeXml(element[1]);
}

const KINDS = new Set<string>(['image', 'video']);

/** What an XMP packet says of the asset it belongs to: its id and marks; null when it names no Atelier asset. */
export function readMarksXmp(xmp: string): FileMarks | null {
  let kind = property(xmp, 'atelier:kind');
  let id = property(xmp, 'atelier:id');
  if (!kind || !id) {
    const doc = /^atelier:(image|video):(.+)$/.exec(property(xmp, 'xmpMM:DocumentID') ?? '');
    kind = doc?.[1] ?? null;
    id = doc?.[2] ?? null;
  }
  if (!kind || !KINDS.has(kind) || !id) return null;
  const ours = Number(property(xmp, 'atelier:rating'));
  const stars = Number.isInteger(ours) && ours >= 0 && ours <= 5 ? ours : 0;
  const ourFlag = property(xmp, 'atelier:flag');
  const flag: FileMarkFlag | null = ourFlag === 'pick' || ourFlag === 'reject' ? ourFlag : null;
  const tools = property(xmp, 'xmp:Rating');
  const shared = tools === null ? null : Number(tools);
  let marks: Pick<FileMarks, 'rating' | 'flag'>;
  if (shared === -1) marks = { rating: stars, flag: 'reject' };
  else if (shared !== null && Number.isInteger(shared) && shared >= 0 && shared <= 5)
    marks = { rating: shared, flag: flag === 'pick' ? 'pick' : null };
  else marks = { rating: stars, flag };
  const parents: FileParent[] = [];
  const bag = /<xmpMM:Ingredients>([\s\S]*?)<\/xmpMM:Ingredients>/.exec(xmp)?.[1] ?? '';
  for (const item of bag.matchAll(/<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/g)) {
    const inner = item[1] ?? '';
    const doc = /^atelier:(image|video):(.+)$/.exec(property(inner, 'stRef:documentID') ?? '');
    parents.push({
      role: property(inner, 'atelier:role') ?? 'parent',
      kind: (doc?.[1] as FileMarkKind | undefined) ?? null,
      id: doc?.[2] ?? null,
      name: property(inner, 'stRef:filePath'),
    });
  }
  return { kind: kind as FileMarkKind, id, ...marks, parents };
}

/** What a JSON sidecar says of its asset (Atelier's export sidecar); null when it names none. */
export function readMarksSidecar(value: unknown): FileMarks | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const { kind, id, rating, flag, parents } = record;
  if ((kind !== 'image' && kind !== 'video') || typeof id !== 'string' || id === '') return null;
  return {
    kind,
    id,
    rating: typeof rating === 'number' && Number.isInteger(rating) && rating >= 0 && rating <= 5 ? rating : 0,
    flag: flag === 'pick' || flag === 'reject' ? flag : null,
    parents: Array.isArray(parents)
      ? parents.filter((p): p is FileParent => typeof p === 'object' && p !== null && 'role' in p)
      : [],
  };
}

/** Whether a sidecar or XMP packet carries marks at all (an older export has an id but no rating). */
export function carriesMarks(source: string | Record<string, unknown>): boolean {
  if (typeof source === 'string') return /xmp:Rating|atelier:rating|atelier:flag/.test(source);
  return 'rating' in source || 'flag' in source;
}
