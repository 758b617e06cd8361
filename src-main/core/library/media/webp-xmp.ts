// XMP in a WebP file, losslessly: the RIFF container gets an `XMP ` chunk (replacing an earlier one)
// and, for a simple file (one VP8 or VP8L chunk), the extended header `VP8X` that announces it, with
// the canvas size and alpha read from the bitstream's header. The image chunks are copied byte for
// byte. The layout is Google's "WebP Container Specification" (extended format).

const RIFF = 'RIFF';
const WEBP = 'WEBP';
const XMP_FLAG = 0x04;
const ALPHA_FLAG = 0x10;

interface Chunk {
  fourcc: string;
  /** The payload, without header and padding. */
  data: Buffer;
}

function chunksOf(bytes: Buffer): Chunk[] {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== RIFF || bytes.toString('latin1', 8, 12) !== WEBP)
    throw new Error('not a WebP file');
  const end = 8 + bytes.readUInt32LE(4);
  if (end > bytes.length) throw new Error('a truncated WebP file');
  const chunks: Chunk[] = [];
  let at = 12;
  while (at + 8 <= end) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const dataEnd = at + 8 + size;
    if (dataEnd > end) throw new Error('a truncated WebP chunk');
    chunks.push({ fourcc, data: bytes.subarray(at + 8, dataEnd) });
    at = dataEnd + (size % 2);
  }
  if (!chunks.some((chunk) => chunk.fourcc === 'VP8 ' || chunk.fourcc === 'VP8L' || chunk.fourcc === 'ANIM'))
    throw new Error('a WebP file without image data');
  return chunks;
}

function encodeChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** Canvas size and alpha of a simple file, from its VP8 or VP8L header. */
function simpleImageInfo(chunks: Chunk[]): { width: number; height: number; alpha: boolean } {
  const lossless = chunks.find((chunk) => chunk.fourcc === 'VP8L');
  if (lossless) {
    const d = lossless.data;
    if (d.length < 5 || d[0] !== 0x2f) throw new Error('a damaged VP8L header');
    const bits = d.readUInt32LE(1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alpha: ((bits >>> 28) & 1) === 1 };
  }
  const lossy = chunks.find((chunk) => chunk.fourcc === 'VP8 ');
  const d = lossy?.data;
  if (!d || d.length < 10 || d[3] !== 0x9d || d[4] !== 0x01 || d[5] !== 0x2a) throw new Error('a damaged VP8 header');
  return {
    width: d.readUInt16LE(6) & 0x3fff,
    height: d.readUInt16LE(8) & 0x3fff,
    alpha: chunks.some((chunk) => chunk.fourcc === 'ALPH'),
  };
}

function vp8x(flags: number, width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data[0] = flags;
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return data;
}

/** The WebP with this XMP packet (an earlier one replaced); throws on a file that is not a whole WebP. */
export function embedXmpInWebp(bytes: Buffer, xmp: string): Buffer {
  const chunks = chunksOf(bytes).filter((chunk) => chunk.fourcc !== 'XMP ');
  const parts: Buffer[] = [];
  const extended = chunks[0]?.fourcc === 'VP8X';
  if (extended) {
    const header = Buffer.from(chunks[0]?.data ?? Buffer.alloc(10));
    header[0] = (header[0] ?? 0) | XMP_FLAG;
    parts.push(encodeChunk('VP8X', header));
    for (const chunk of chunks.slice(1)) parts.push(encodeChunk(chunk.fourcc, chunk.data));
  } else {
    const info = simpleImageInfo(chunks);
    parts.push(encodeChunk('VP8X', vp8x(XMP_FLAG | (info.alpha ? ALPHA_FLAG : 0), info.width, info.height)));
    for (const chunk of chunks) parts.push(encodeChunk(chunk.fourcc, chunk.data));
  }
  // The XMP chunk comes last, after the image data and any EXIF, as the container specification orders them.
  parts.push(encodeChunk('XMP ', Buffer.from(xmp, 'utf8')));
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(12);
  head.write(RIFF, 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write(WEBP, 8, 'latin1');
  return Buffer.concat([head, body]);
}

/** The XMP packet of a WebP file, or null; throws on a file that is not a whole WebP. */
export function readWebpXmp(bytes: Buffer): string | null {
  const chunk = chunksOf(bytes).find((c) => c.fourcc === 'XMP ');
  return chunk ? chunk.data.toString('utf8') : null;
}

export const isWebp = (bytes: Uint8Array): boolean =>
  bytes.length >= 12 &&
  Buffer.from(bytes.subarray(0, 4)).toString('latin1') === RIFF &&
  Buffer.from(bytes.subarray(8, 12)).toString('latin1') === WEBP;
