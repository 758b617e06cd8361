// The ONE typed map of renderer→main invoke channels and main→renderer events.
// Preload, the ipcMain binding, the browser-mode bridge and the renderer are all typed
// from here. Each domain declares its channels in ./ipc/<domain>.ts; this file merges them.
import type * as v from 'valibot';
import type { Phantom } from './ipc/channel.ts';
import type { Result } from './errors.ts';
import { appEvents, appInvoke } from './ipc/app.ts';
import { accountEvents, accountInvoke } from './ipc/account.ts';
import { settingsEvents, settingsInvoke } from './ipc/settings.ts';
import { shellEvents, shellInvoke } from './ipc/shell.ts';
import { assetsEvents, assetsInvoke } from './ipc/assets.ts';
import { modelsEvents, modelsInvoke } from './ipc/models.ts';
import { presetsEvents, presetsInvoke } from './ipc/presets.ts';
import { syncEvents, syncInvoke } from './ipc/sync.ts';
import { jobsEvents, jobsInvoke } from './ipc/jobs.ts';
import { trainingEvents, trainingInvoke } from './ipc/training.ts';
import { uploadsEvents, uploadsInvoke } from './ipc/uploads.ts';
import { libraryEvents, libraryInvoke } from './ipc/library.ts';
import { collectionsEvents, collectionsInvoke } from './ipc/collections.ts';
import { marksInvoke } from './ipc/marks.ts';
import { trashEvents, trashInvoke } from './ipc/trash.ts';
import { familyEvents, familyInvoke } from './ipc/family.ts';
import { budgetEvents, budgetInvoke } from './ipc/budget.ts';
import { batchesEvents, batchesInvoke } from './ipc/batches.ts';
import { experimentsEvents, experimentsInvoke } from './ipc/experiments.ts';

export const invokeChannels = {
  ...appInvoke,
  ...accountInvoke,
  ...settingsInvoke,
  ...shellInvoke,
  ...modelsInvoke,
  ...assetsInvoke,
  ...presetsInvoke,
  ...syncInvoke,
  ...jobsInvoke,
  ...trainingInvoke,
  ...uploadsInvoke,
  ...libraryInvoke,
  ...collectionsInvoke,
  ...marksInvoke,
  ...trashInvoke,
  ...familyInvoke,
  ...budgetInvoke,
  ...batchesInvoke,
  ...experimentsInvoke,
};

export const eventChannels = {
  ...appEvents,
  ...accountEvents,
  ...settingsEvents,
  ...shellEvents,
  ...modelsEvents,
  ...assetsEvents,
  ...presetsEvents,
  ...syncEvents,
  ...jobsEvents,
  ...trainingEvents,
  ...uploadsEvents,
  ...libraryEvents,
  ...collectionsEvents,
  ...trashEvents,
  ...familyEvents,
  ...budgetEvents,
  ...batchesEvents,
  ...experimentsEvents,
};

export type InvokeChannel = keyof typeof invokeChannels;
export type EventChannel = keyof typeof eventChannels;

export type InvokeArgs<C extends InvokeChannel> = v.InferInput<(typeof invokeChannels)[C]['args']>;
export type InvokeResult<C extends InvokeChannel> =
  (typeof invokeChannels)[C]['result'] extends Phantom<infer R> ? R : never;
export type EventPayload<E extends EventChannel> = (typeof eventChannels)[E] extends Phantom<infer P> ? P : never;

/** What the renderer sees as `window.atelier` (preload) or the WebSocket bridge (browser mode). */
export interface AtelierBridge {
  invoke<C extends InvokeChannel>(channel: C, args: InvokeArgs<C>): Promise<Result<InvokeResult<C>>>;
  /** Subscribe to an event; returns the unsubscribe function. */
  on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export const isInvokeChannel = (name: unknown): name is InvokeChannel =>
  typeof name === 'string' && Object.hasOwn(invokeChannels, name);
export const isEventChannel = (name: unknown): name is EventChannel =>
  typeof name === 'string' && Object.hasOwn(eventChannels, name);
