import { describe, expect, it } from 'vitest';
import { sameRequest, takesSeed, variedRequest } from './request-again.ts';

describe('generate again and vary seed', () => {
  it('sends the same request again', () => {
    const job = { kind: 'image' as const, request: { modelID: 'imagea', prompt: 'x', numImages: 2 } };
    expect(sameRequest(job)).toEqual({ kind: 'image', body: { modelID: 'imagea', prompt: 'x', numImages: 2 } });
    expect(takesSeed(job)).toBe(false);
  });

  it('puts a new seed where the model keeps it', () => {
    const trained = { kind: 'image' as const, request: { modelID: 'mdl_1', prompt: 'x', seed: 1 } };
    expect(takesSeed(trained)).toBe(true);
    expect(variedRequest(trained, 42).body).toEqual({ modelID: 'mdl_1', prompt: 'x', seed: 42 });
    const video = {
      kind: 'video' as const,
      request: { modelID: 'videoa-3.1', prompt: 'x', options: { videoa: { duration: 8, seed: 7 } } },
    };
    expect(variedRequest(video, 9).body).toEqual({
      modelID: 'videoa-3.1',
      prompt: 'x',
      options: { videoa: { duration: 8, seed: 9 } },
    });
    expect(video.request.options.videoa.seed).toBe(7);
    expect(takesSeed({ kind: 'video', request: { modelID: 'videoc-motion-pro' } })).toBe(false);
  });
});
