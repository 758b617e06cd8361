// Test/demo control surface: the in-process object and the loopback-only HTTP routes under /__emulator/ mirror each other.
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from './context.ts';
import { userIdForApiKey } from './context.ts';
import { badRequest, okEnvelope } from './envelope.ts';
import { FaultConfigError, type FaultConfig } from './faults.ts';
import type { StatsReport } from './stats.ts';

export interface ClockReading {
  now: string;
  nowMs: number;
  timeScale: number;
}

export interface EmulatorControl {
  /** Virtual now, in epoch milliseconds. */
  now(): number;
  clock(): ClockReading;
  /** Moves virtual time forward; returns the new virtual now (ms). */
  advanceClock(ms: number): number;
  /** Replaces every fault knob (throws FaultConfigError naming the bad field). */
  setFaults(config: FaultConfig): void;
  clearFaults(): void;
  /** Current knobs, with counts as they have run down. */
  faults(): FaultConfig;
  stats(): StatsReport;
  resetStats(): void;
  /** Forgets every model, image, video, job and download (and faults and stats); the clock keeps running. */
  reset(): Promise<void>;
  /** Changes the content (and validators) behind every /media/blob URL. Returns the new generation. */
  rotateBlobs(): number;
  /** The id stats use for a key (keys themselves never appear anywhere). */
  userIdForApiKey(apiKey: string): string;
}

export function createControl(ctx: EmulatorContext): EmulatorControl {
  const clock = (): ClockReading => {
    const nowMs = ctx.clock.now();
    return { now: new Date(nowMs).toISOString(), nowMs, timeScale: ctx.clock.timeScale };
  };
  return {
    now: () => ctx.clock.now(),
    clock,
    advanceClock(ms) {
      const now = ctx.clock.advance(ms);
      ctx.store.changed();
      return now;
    },
    setFaults: (config) => ctx.faults.set(config),
    clearFaults: () => ctx.faults.clear(),
    faults: () => ctx.faults.current(),
    stats: () => ctx.stats.report(),
    resetStats: () => ctx.stats.reset(),
    async reset() {
      ctx.store.clear();
      await ctx.uploads.clear();
      ctx.faults.clear();
      ctx.stats.reset();
    },
    rotateBlobs() {
      ctx.media.blobGeneration += 1;
      return ctx.media.blobGeneration;
    },
    userIdForApiKey,
  };
}

export function registerControlRoutes(app: FastifyInstance, control: EmulatorControl): void {
  app.get('/__emulator/clock', async () => okEnvelope(control.clock()));
  app.post('/__emulator/clock/advance', async (request) => {
    const ms = (request.body as { ms?: unknown } | undefined)?.ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
      throw badRequest('ms: send {"ms": <non-negative number of virtual milliseconds>}');
    control.advanceClock(ms);
    return okEnvelope(control.clock());
  });
  app.get('/__emulator/faults', async () => okEnvelope(control.faults()));
  app.put('/__emulator/faults', async (request) => {
    try {
      control.setFaults((request.body ?? {}) as FaultConfig);
    } catch (error) {
      if (error instanceof FaultConfigError) throw badRequest(error.message);
      throw error;
    }
    return okEnvelope(control.faults());
  });
  app.delete('/__emulator/faults', async () => {
    control.clearFaults();
    return okEnvelope(control.faults());
  });
  app.get('/__emulator/stats', async () => okEnvelope(control.stats()));
  app.delete('/__emulator/stats', async () => {
    control.resetStats();
    return okEnvelope(control.stats());
  });
  app.post('/__emulator/reset', async () => {
    await control.reset();
    return okEnvelope('reset');
  });
  app.post('/__emulator/media/rotate', async () => okEnvelope({ blobGeneration: control.rotateBlobs() }));
}
