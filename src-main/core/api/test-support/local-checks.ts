// Helpers of the client's tests: the info of a local refusal, and an address that refuses connections.
import { createServer } from 'node:net';
import { AppError } from '../../../contract/errors.ts';

/** The ErrorInfo of the AppError `run` throws (fails the test if it throws anything else or nothing). */
export function infoOf(run: () => unknown): AppError['info'] {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.info;
    throw error;
  }
  throw new Error('expected an AppError');
}

/** A loopback port with nothing listening: connections are refused before anything is sent. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
