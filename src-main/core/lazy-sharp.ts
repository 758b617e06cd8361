// sharp (libvips) takes ~40 ms to load: it is loaded on first use (a thumbnail, an upload check),
// not while the core starts, so a start — the app's, and every CLI command's — does not pay for it.
import type SharpType from 'sharp';

let loading: Promise<typeof SharpType> | null = null;

export const loadSharp = (): Promise<typeof SharpType> => (loading ??= import('sharp').then((m) => m.default));
