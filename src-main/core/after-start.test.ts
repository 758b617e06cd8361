import { describe, expect, it } from 'vitest';
import { loadAfterStart } from './after-start.ts';

const counter = () => {
  let loads = 0;
  return { load: async () => ++loads, loads: () => loads };
};

describe('code loaded after the start', () => {
  it('is not loaded while the start runs, but one timer turn later, once', async () => {
    const code = counter();
    const later = loadAfterStart(code.load);
    expect(code.loads()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await later.loaded).toBe(1);
    expect(await later.now()).toBe(1);
    expect(code.loads()).toBe(1);
  });

  it('loads at once at a first use during the start, and not again on the timer', async () => {
    const code = counter();
    const later = loadAfterStart(code.load);
    expect(await later.now()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(code.loads()).toBe(1);
  });

  it('hands a failure to whoever waits for the code', async () => {
    const later = loadAfterStart(() => Promise.reject(new Error('no such chunk')));
    await expect(later.now()).rejects.toThrow('no such chunk');
    await expect(later.loaded).rejects.toThrow('no such chunk');
  });
});
