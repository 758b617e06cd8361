// The one table between file extensions and Content-Types, for saving downloads and serving them.

const TYPE_OF_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  gif: 'image/gif',
  avif: 'image/avif',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  m4s: 'video/iso.segment',
  aac: 'audio/aac',
  key: 'application/octet-stream',
  json: 'application/json',
};

const EXTENSION_OF_TYPE: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heic',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'application/vnd.apple.mpegurl': 'm3u8',
  'application/x-mpegurl': 'm3u8',
  'audio/mpegurl': 'm3u8',
  'video/mp2t': 'ts',
};

/** Content-Type for serving a local file; unknown extensions are plain bytes (never sniffed). */
export function contentTypeOfFile(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return TYPE_OF_EXTENSION[ext] ?? 'application/octet-stream';
}

/** Extension for a response's Content-Type (parameters ignored), or undefined when unknown. */
export function extensionOfContentType(contentType: string | undefined): string | undefined {
  const bare = contentType?.split(';')[0]?.trim().toLowerCase();
  return bare ? EXTENSION_OF_TYPE[bare] : undefined;
}

/** Extension claimed by a URL's path, only when it is one we know (never free text from a server). */
export function extensionOfUrl(url: string): string | undefined {
  try {
    const ext = /\.([A-Za-z0-9]{1,5})$/.exec(new URL(url).pathname)?.[1]?.toLowerCase();
    if (ext === 'jpeg') return 'jpg';
    return ext && Object.hasOwn(TYPE_OF_EXTENSION, ext) ? ext : undefined;
  } catch {
    return undefined;
  }
}

/** Extension of an image format name from the service (`jpeg`, `png`, …). */
export function extensionOfFormat(format: string | undefined): string | undefined {
  const f = format?.toLowerCase();
  if (f === 'jpeg' || f === 'jpg') return 'jpg';
  return f && Object.hasOwn(TYPE_OF_EXTENSION, f) ? f : undefined;
}

export function isPlaylistUrl(url: string): boolean {
  return extensionOfUrl(url) === 'm3u8';
}
