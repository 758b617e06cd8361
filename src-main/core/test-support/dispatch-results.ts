// What a channel answered through a dispatcher, for tests that call channels by name: the value, or
// an error naming the refusal's code and words; and the words of a refusal, or an error if accepted.
import type { Dispatch } from '../dispatch.ts';

export async function answered<T>(dispatch: Dispatch, channel: string, args?: unknown): Promise<T> {
  const result = await dispatch(channel, args);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

export async function refusedWith(dispatch: Dispatch, channel: string, args?: unknown): Promise<string> {
  const result = await dispatch(channel, args);
  if (result.ok) throw new Error(`${channel} was accepted`);
  return result.error.message;
}
