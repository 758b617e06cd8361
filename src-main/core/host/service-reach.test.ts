import { describe, expect, it } from 'vitest';
import { createEventBus } from '../events.ts';
import { reportServiceReach } from './service-reach.ts';

describe('reportServiceReach', () => {
  it('emits service:reach once per change, starting with the first outcome', () => {
    const events = createEventBus();
    const seen: unknown[] = [];
    events.subscribe((event, payload) => {
      if (event === 'service:reach') seen.push(payload);
    });
    const report = reportServiceReach(events);
    for (const reached of [true, true, false, false, true]) report(reached);
    expect(seen).toEqual([{ reachable: true }, { reachable: false }, { reachable: true }]);
  });
});
