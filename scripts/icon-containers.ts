// The two icon containers the installers need, written by hand: both are a small index of images.
// ICO (Windows): a directory of entries, each a 32-bit BMP (small sizes, which every Windows and
// NSIS reads) or a PNG (256 px, Vista and later). ICNS (macOS): typed chunks, PNG from ic07 up.
// Used by generate-icons.ts; read back in icon-containers.test.ts.

export interface RgbaImage {
  /** Square images only. */
  size: number;
  /** size × size × 4 bytes, rows top to bottom, RGBA. */
  rgba: Buffer;
}

export type IcoEntry = { size: number; png: Buffer } | ({ kind: 'bmp' } & RgbaImage);

/** A 32-bit BMP as stored in an ICO: BITMAPINFOHEADER (height doubled), BGRA rows bottom-up, AND mask. */
export function icoBitmap(image: RgbaImage): Buffer {
  const { size, rgba } = image;
  if (rgba.length !== size * size * 4) throw new Error(`expected ${size * size * 4} bytes of RGBA, got ${rgba.length}`);
  const maskRow = Math.ceil(size / 32) * 4;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0); // biSize
  header.writeInt32LE(size, 4); // biWidth
  header.writeInt32LE(size * 2, 8); // biHeight: the colour bitmap and the mask
  header.writeUInt16LE(1, 12); // biPlanes
  header.writeUInt16LE(32, 14); // biBitCount
  header.writeUInt32LE(0, 16); // BI_RGB
  header.writeUInt32LE(size * size * 4 + maskRow * size, 20); // biSizeImage
  const pixels = Buffer.alloc(size * size * 4);
  const mask = Buffer.alloc(maskRow * size);
  for (let y = 0; y < size; y++) {
    const row = size - 1 - y; // bottom-up
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = (row * size + x) * 4;
      pixels[to] = rgba[from + 2] as number;
      pixels[to + 1] = rgba[from + 1] as number;
      pixels[to + 2] = rgba[from] as number;
      pixels[to + 3] = rgba[from + 3] as number;
      // Fully transparent pixels are also masked out, for readers that ignore alpha.
      if (rgba[from + 3] === 0) {
        const bit = row * maskRow + (x >> 3);
        mask[bit] = (mask[bit] ?? 0) | (0x80 >> (x & 7));
      }
    }
  }
  return Buffer.concat([header, pixels, mask]);
}

/** An .ico file: ICONDIR, one ICONDIRENTRY per image (256 is written as 0), then the images. */
export function icoFile(entries: IcoEntry[]): Buffer {
  const images = entries.map((entry) => ('png' in entry ? entry.png : icoBitmap(entry)));
  const head = Buffer.alloc(6 + 16 * entries.length);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // 1 = icon
  head.writeUInt16LE(entries.length, 4);
  let offset = head.length;
  entries.forEach((entry, i) => {
    if (entry.size < 1 || entry.size > 256) throw new Error(`an ICO image is 1 to 256 px, not ${entry.size}`);
    const at = 6 + 16 * i;
    const image = images[i] as Buffer;
    head.writeUInt8(entry.size === 256 ? 0 : entry.size, at);
    head.writeUInt8(entry.size === 256 ? 0 : entry.size, at + 1);
    head.writeUInt8(0, at + 2); // no palette
    head.writeUInt8(0, at + 3);
    head.writeUInt16LE(1, at + 4); // planes
    head.writeUInt16LE(32, at + 6); // bits per pixel
    head.writeUInt32LE(image.length, at + 8);
    head.writeUInt32LE(offset, at + 12);
    offset += image.length;
  });
  return Buffer.concat([head, ...images]);
}

/** ICNS types holding a PNG, by pixel size ('ic10'..'ic14' are the @2x ones). */
export const ICNS_PNG_TYPES: readonly { type: string; pixels: number }[] = [
  { type: 'ic07', pixels: 128 },
  { type: 'ic08', pixels: 256 },
  { type: 'ic09', pixels: 512 },
  { type: 'ic10', pixels: 1024 }, // 512@2x
  { type: 'ic11', pixels: 32 }, // 16@2x
  { type: 'ic12', pixels: 64 }, // 32@2x
  { type: 'ic13', pixels: 256 }, // 128@2x
  { type: 'ic14', pixels: 512 }, // 256@2x
];

/** An .icns file: 'icns' + total length, then (type, length including its 8 header bytes, data) chunks. */
export function icnsFile(chunks: { type: string; png: Buffer }[]): Buffer {
  const parts = chunks.map(({ type, png }) => {
    if (!/^[\x20-\x7e]{4}$/.test(type)) throw new Error(`an ICNS type is four characters, not "${type}"`);
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

/** Reads an .ico back: each entry's declared size, bit depth and image bytes. */
export function readIco(file: Buffer): { size: number; bitCount: number; image: Buffer }[] {
  if (file.readUInt16LE(0) !== 0 || file.readUInt16LE(2) !== 1) throw new Error('not an ICO file');
  const count = file.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const at = 6 + 16 * i;
    const length = file.readUInt32LE(at + 8);
    const offset = file.readUInt32LE(at + 12);
    if (offset + length > file.length) throw new Error(`ICO entry ${i} runs past the end of the file`);
    return {
      size: file.readUInt8(at) || 256,
      bitCount: file.readUInt16LE(at + 6),
      image: file.subarray(offset, offset + length),
    };
  });
}

/** Reads an .icns back into its chunks. */
export function readIcns(file: Buffer): { type: string; data: Buffer }[] {
  if (file.toString('latin1', 0, 4) !== 'icns') throw new Error('not an ICNS file');
  if (file.readUInt32BE(4) !== file.length) throw new Error('ICNS length does not match the file');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at + 4);
    if (length < 8 || at + length > file.length) throw new Error(`bad ICNS chunk at ${at}`);
    chunks.push({ type: file.toString('latin1', at, at + 4), data: file.subarray(at + 8, at + length) });
    at += length;
  }
  return chunks;
}
