// Connectivity judged from real request outcomes: every attempt of the API client reports whether
// the service answered; this turns those reports into 'service:reach' events, one per change.
import type { EventBus } from '../events.ts';

export type ReachReport = (reached: boolean) => void;

export function reportServiceReach(events: Pick<EventBus, 'emit'>): ReachReport {
  let last: boolean | null = null;
  return (reached) => {
    if (reached === last) return;
    last = reached;
    events.emit('service:reach', { reachable: reached });
  };
}
