import { describe, expect, it, vi } from 'vitest';
import { createAccountDb } from './account-db.ts';
import { openDatabase } from './database.ts';

describe('createAccountDb', () => {
  it('prepares no statement at open; a repository prepares each one at its first use, once', () => {
    const sqlite = openDatabase(':memory:');
    const prepare = vi.spyOn(sqlite, 'prepare');
    const cache = createAccountDb(sqlite, ':memory:');
    try {
      expect(prepare).not.toHaveBeenCalled();
      expect(cache.assets.get('image', 'a1')).toBeUndefined();
      expect(cache.assets.get('image', 'a2')).toBeUndefined();
      expect(cache.presets.list()).toEqual([]);
      expect(cache.syncState.get('last')).toBeUndefined();
      expect(prepare).toHaveBeenCalledTimes(3);
    } finally {
      cache.close();
    }
  });
});
