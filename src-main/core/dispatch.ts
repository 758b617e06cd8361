// The one entry for every call from a renderer: checks the channel, validates the untrusted
// arguments against the contract's schema, runs the handler and turns any throw into data.
import * as v from 'valibot';
import { invokeChannels, isInvokeChannel, type InvokeChannel, type InvokeResult } from '../contract/ipc.ts';
import { AppError, fail, ok, type Result } from '../contract/errors.ts';
import { diskFullError, isDiskFull } from './host/disk-full.ts';

type ValidArgs<C extends InvokeChannel> = v.InferOutput<(typeof invokeChannels)[C]['args']>;

export type Handlers = {
  [C in InvokeChannel]: (args: ValidArgs<C>) => Promise<InvokeResult<C>> | InvokeResult<C>;
};

export type Dispatch = (channel: unknown, args: unknown) => Promise<Result<unknown>>;

export function createDispatcher(
  handlers: Handlers,
  onUnexpected: (channel: string, error: unknown) => void,
): Dispatch {
  return async (channel, args) => {
    if (!isInvokeChannel(channel)) {
      const name =
        typeof channel === 'string' ? channel.slice(0, 80) : `a ${channel === null ? 'null' : typeof channel}`;
      return fail({ code: 'invalid_argument', message: `Unknown channel: ${name}` });
    }
    let parsed: ReturnType<typeof v.safeParse>;
    try {
      parsed = v.safeParse(invokeChannels[channel].args, args);
    } catch (error) {
      // Arguments built to break a parser (getters that throw, proxies): refused, never thrown.
      onUnexpected(channel, error);
      return fail({ code: 'invalid_argument', message: `Invalid arguments for ${channel}.` });
    }
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue ? (v.getDotPath(issue) ?? undefined) : undefined;
      return fail({
        code: 'invalid_argument',
        message: `Invalid arguments for ${channel}${field ? ` (${field})` : ''}: ${issue?.message ?? 'rejected'}`,
        ...(field ? { field } : {}),
      });
    }
    try {
      const handler = handlers[channel] as (a: unknown) => unknown;
      return ok(await handler(parsed.output));
    } catch (error) {
      if (error instanceof AppError) return fail(error.info);
      // A full disk fails this one call with words the user can act on; the app goes on.
      if (isDiskFull(error)) return fail(diskFullError().info);
      onUnexpected(channel, error);
      return fail({ code: 'internal', message: `Something went wrong in ${channel}. Details are in the log.` });
    }
  };
}
