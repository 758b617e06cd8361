import { describe, expect, it } from 'vitest';
import {
  ASSET_DRAG_TYPE,
  downloadUrlOf,
  carriesAsset,
  readAssetDrag,
  writeAssetDrag,
  type DragData,
} from './asset-drag.ts';

function fakeData(initial: Record<string, string> = {}): DragData & { store: Map<string, string> } {
  const store = new Map(Object.entries(initial));
  return {
    store,
    effectAllowed: 'uninitialized',
    get types() {
      return [...store.keys()];
    },
    getData: (type: string) => store.get(type) ?? '',
    setData: (type: string, value: string) => void store.set(type, value),
  };
}

describe('library drag data', () => {
  it('carries kind, id and URL under our type, and the URL as a link for anyone else', () => {
    const data = fakeData();
    writeAssetDrag(data, { kind: 'image', id: 'img_1', url: 'https://media.example.com/a.png' });
    expect(data.effectAllowed).toBe('copy');
    expect(JSON.parse(data.store.get(ASSET_DRAG_TYPE) ?? '')).toEqual({
      kind: 'image',
      id: 'img_1',
      url: 'https://media.example.com/a.png',
    });
    expect(data.store.get('text/uri-list')).toBe('https://media.example.com/a.png');
    expect(readAssetDrag(data)).toEqual({ kind: 'image', id: 'img_1', url: 'https://media.example.com/a.png' });
    expect(carriesAsset(data)).toBe(true);
  });

  it('an item without a URL still says what it is, so a drop can say why it is refused', () => {
    const data = fakeData();
    writeAssetDrag(data, { kind: 'video', id: 'vid_1', url: null });
    expect(data.types).toEqual([ASSET_DRAG_TYPE]);
    expect(readAssetDrag(data)).toEqual({ kind: 'video', id: 'vid_1', url: null });
  });

  it('reads a plain link dragged in from elsewhere, kind unknown', () => {
    const data = fakeData({ 'text/uri-list': '# a comment\r\nhttps://images.example.com/x.jpg\r\nhttps://b' });
    expect(readAssetDrag(data)).toEqual({ kind: null, id: null, url: 'https://images.example.com/x.jpg' });
  });

  it('refuses what is neither: other text, bad JSON, non-http links', () => {
    expect(readAssetDrag(fakeData({ 'text/plain': 'hello' }))).toBeNull();
    expect(carriesAsset(fakeData({ 'text/plain': 'hello' }))).toBe(false);
    expect(readAssetDrag(fakeData({ 'text/uri-list': 'file:///etc/passwd' }))).toBeNull();
    expect(readAssetDrag(fakeData({ [ASSET_DRAG_TYPE]: '{not json' }))).toBeNull();
    expect(readAssetDrag(fakeData({ [ASSET_DRAG_TYPE]: JSON.stringify({ kind: 'model', id: 'm' }) }))).toBeNull();
    const sneaky = fakeData({ [ASSET_DRAG_TYPE]: JSON.stringify({ kind: 'image', id: 'i', url: 'javascript:x' }) });
    expect(readAssetDrag(sneaky)).toEqual({ kind: 'image', id: 'i', url: null });
  });
});

describe('downloadUrlOf', () => {
  const file = (path: string | null, state = 'downloaded') =>
    ({ id: 'img_1', file: { path, state, thumbPath: null, localUrl: null, thumbUrl: null, bytes: 1 } }) as Parameters<
      typeof downloadUrlOf
    >[0];

  it('names a downloaded file by its type, name and absolute URL', () => {
    expect(downloadUrlOf(file('images/img_1.png'), '/media/images/img_1.png', 'http://127.0.0.1:5000')).toBe(
      'image/png:img_1.png:http://127.0.0.1:5000/media/images/img_1.png',
    );
    expect(downloadUrlOf(file('videos/v.mp4'), 'atelier-media://library/videos/v.mp4', 'atelier://app')).toBe(
      'video/mp4:v.mp4:atelier-media://library/videos/v.mp4',
    );
  });

  it('offers nothing for a stream copy, a file not downloaded or without a URL', () => {
    expect(downloadUrlOf(file('videos/v/index.m3u8'), '/media/videos/v/index.m3u8', 'http://x')).toBeNull();
    expect(downloadUrlOf(file('images/a.png', 'remote'), '/media/images/a.png', 'http://x')).toBeNull();
    expect(downloadUrlOf(file(null), null, 'http://x')).toBeNull();
  });
});
