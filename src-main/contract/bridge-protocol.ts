// Messages of the browser-mode WebSocket bridge: the same contract as Electron IPC, as JSON.
import type { Result } from './errors.ts';

export const BRIDGE_PATH = '/bridge';

export interface BridgeRequest {
  id: number;
  channel: string;
  args: unknown;
}

export type BridgeMessage =
  { kind: 'result'; id: number; result: Result<unknown> } | { kind: 'event'; event: string; payload: unknown };
