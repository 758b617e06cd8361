// The request of an asset is read from its JSON text once, and only objects count as a request.
import { describe, expect, it } from 'vitest';
import { assetParams, parseParams } from './asset-params.ts';

describe('assetParams', () => {
  it('parses the request text into the object that was sent', () => {
    expect(assetParams({ paramsJson: '{"modelID":"imagea","aspectRatio":"16:9"}' })).toEqual({
      modelID: 'imagea',
      aspectRatio: '16:9',
    });
  });

  it('reads no request from nothing, damaged text or JSON that is not an object', () => {
    expect(assetParams({ paramsJson: null })).toBeNull();
    expect(parseParams('{"modelID":')).toBeNull();
    expect(parseParams('[1,2]')).toBeNull();
    expect(parseParams('"text"')).toBeNull();
  });

  it('parses once per asset, and again when the asset object now holds another request', () => {
    const asset = { paramsJson: '{"modelID":"imagea"}' };
    const first = assetParams(asset);
    expect(assetParams(asset)).toBe(first);
    asset.paramsJson = '{"modelID":"imageb"}';
    expect(assetParams(asset)).toEqual({ modelID: 'imageb' });
  });
});
