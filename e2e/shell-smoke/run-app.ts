// The child process of the shell smoke test: loads the built main bundle with `electron`
// resolved to the stand-in, fires 'ready' the way Electron does (once the entry has run), and
// answers the test's requests over the IPC channel of child_process.fork.
import './stand-in-hooks.ts';
import { standIn } from './electron-stand-in.ts';

const entry = process.env.ATELIER_SMOKE_ENTRY;
if (!entry) throw new Error('ATELIER_SMOKE_ENTRY must name the bundle to run');
if (process.env.ATELIER_SMOKE_RESOURCES) {
  // Electron sets this in every process; packaged, it holds app.asar and the extra resources.
  Object.defineProperty(process, 'resourcesPath', { value: process.env.ATELIER_SMOKE_RESOURCES });
}

type Request = { id: number; op: string; args: unknown[] };

const ops: Record<string, (...args: never[]) => unknown> = {
  state: () => standIn.state(),
  invokeFromPage: (channel: string, args: unknown) => standIn.invokeFromPage(channel, args),
  listenOnPage: (event: string) => void (listened[event] = standIn.listenOnPage(event)),
  heard: (event: string) => listened[event] ?? [],
  invokeFromElsewhere: (kind: 'foreign-contents' | 'sub-frame' | 'foreign-page', channel: string, args: unknown[]) =>
    standIn.invokeFromElsewhere(kind, channel, args),
  fetch: (url: string, init?: RequestInit) => standIn.fetch(url, init),
  pageHtml: () => standIn.pageHtml(),
  clickTray: (label: string) => standIn.clickTray(label),
  closeWindow: () => standIn.closeWindow(),
  crashRenderer: () => standIn.crashRenderer(),
};
const listened: Record<string, unknown[]> = {};

process.on('message', (message: Request) => {
  void (async () => {
    try {
      const op = ops[message.op];
      if (!op) throw new Error(`unknown op ${message.op}`);
      const result = await (op as (...args: unknown[]) => unknown)(...message.args);
      process.send?.({ id: message.id, ok: true, result: result ?? null });
    } catch (error) {
      process.send?.({
        id: message.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  })();
});

await import(entry);
standIn.fireReady();
