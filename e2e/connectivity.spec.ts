// Connectivity judged from real requests: with a job in flight, stopping the service turns the status
// bar from "Online" to "Can't reach the service" within seconds (the job checks fail); once the service
// answers again on the same address, Atelier's own retries turn it back with no click, and the job is
// checked again.
import { startEmulator } from '../emulator/index.ts';
import { expect, SERVICE_KEY, serviceTest as test } from './fixtures/service-account.ts';
import { AppShellPage } from './pages/app-shell-page.ts';
import { FirstRunPage } from './pages/first-run-page.ts';
import { CreateImagePage } from './pages/create-image-page.ts';
import { screenshotBothSchemes } from './pages/screenshots.ts';
import { submitJob } from './pages/contract-client.ts';

test('stopping the service turns the status bar to "Can\'t reach the service", and back when it answers', async ({
  page,
  freshApp,
}) => {
  test.setTimeout(90_000);
  // A service of its own to stop: the file's shared emulator serves the next spec in this worker.
  const emulator = await startEmulator({ port: 0 });
  const shell = new AppShellPage(page);
  await page.goto(freshApp.url);
  await new FirstRunPage(page).enterKey(emulator.url, SERVICE_KEY);
  await expect(new CreateImagePage(page).root).toBeVisible();
  await expect(shell.connection).toHaveText('Online');
  // A video runs for minutes and is checked every few seconds: real requests keep going.
  await submitJob(page, 'video', { modelID: 'videoa-3.1', prompt: 'a lantern drifting on a river' });
  await expect(shell.jobsInFlight).toContainText(/queued|running/);

  const port = Number(new URL(emulator.url).port);
  await emulator.close();
  await expect(shell.connection).toHaveText("Can't reach the service", { timeout: 20_000 });
  await screenshotBothSchemes(page, 'status-bar-unreachable');

  // The service answers again on the same address: Atelier's own retries find it, no click needed
  // (they run at most 30 s apart), and the job it was following is checked again.
  const again = await startEmulator({ port });
  try {
    await expect(shell.connection).toHaveText('Online', { timeout: 45_000 });
    await expect
      .poll(() => again.control.stats().byRoute['GET /jobs/:id'] ?? 0, { timeout: 30_000 })
      .toBeGreaterThan(0);
  } finally {
    await again.close();
  }
});
