// Whether the service can be reached, as the renderer shows it, against a fake core: unknown until the
// core's first check (never an unmeasured "Online"), the core's measure and its service:reach events,
// a failed call for lack of a connection shown at once and checked again, and the sentence a paid
// button gives as its reason.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServiceReachInfo } from '@contract/ipc/sync.ts';
import { fakeCore, installFakeCore, ok, settle } from '../test-support/fake-core.ts';

let measured: ServiceReachInfo = { reachable: null };
const core = fakeCore({
  'service:status': () => ok(measured),
  'service:check': () => ok(measured),
  'sync:status': () => ok({ running: false, scope: null, lastSyncedAt: '2026-11-27T10:00:00.000Z', lastError: null }),
});
installFakeCore(core);
const { serviceReach, isUnreachableError } = await import('./service-reach.svelte.ts');
const { connection } = await import('./connection.svelte.ts');

beforeEach(() => {
  measured = { reachable: null };
  serviceReach.reachable = null;
  connection.online = true;
});

describe('service reach', () => {
  it('is unknown until the core has measured, then what the core measured', async () => {
    await serviceReach.load();
    expect(serviceReach.reachable).toBeNull();
    expect(serviceReach.unreachable).toBe(false);
    expect(serviceReach.lastSyncedAt).toBe('2026-11-27T10:00:00.000Z');
    measured = { reachable: false };
    await serviceReach.load();
    expect(serviceReach.unreachable).toBe(true);
    expect(serviceReach.offline).toBe(true);
  });

  it("follows the core's service:reach events", () => {
    const stop = serviceReach.listen();
    core.emit('service:reach', { reachable: false });
    expect(serviceReach.unreachable).toBe(true);
    core.emit('service:reach', { reachable: true });
    expect(serviceReach.unreachable).toBe(false);
    expect(serviceReach.needsService('Generating')).toBeNull();
    stop();
  });

  it('shows a call failed for lack of a connection at once and asks the core to check', async () => {
    measured = { reachable: false };
    const checks = core.argsOf('service:check').length;
    serviceReach.noteError({ code: 'network', message: 'connection refused' });
    expect(serviceReach.reachable).toBe(false);
    await settle();
    expect(core.argsOf('service:check')).toHaveLength(checks + 1);
    expect(serviceReach.needsService('Upscaling')).toBe(
      'Upscaling needs the service, which cannot be reached right now. Atelier keeps trying on its own.',
    );
  });

  it('leaves the measure alone for a refusal that is not about the connection', async () => {
    serviceReach.reachable = true;
    const checks = core.argsOf('service:check').length;
    serviceReach.noteError({ code: 'invalid_argument', message: 'prompt is required' });
    await settle();
    expect(serviceReach.reachable).toBe(true);
    expect(core.argsOf('service:check')).toHaveLength(checks);
    expect(isUnreachableError({ code: 'offline', message: '' })).toBe(true);
  });

  it("says offline first when the computer has no network, whatever the service's measure", () => {
    serviceReach.reachable = true;
    connection.online = false;
    expect(serviceReach.offline).toBe(true);
    expect(serviceReach.needsService('Training')).toBe(
      'Training needs the service, and this computer is offline. Try again when the network is back.',
    );
    expect(serviceReach.waitReason).toMatch(/^You are offline/);
  });
});
