// Building blocks for the channel maps: each channel is declared once, with a valibot
// schema for its (untrusted) arguments and a phantom type for its result.
import type * as v from 'valibot';

declare const phantom: unique symbol;
/** A type-only marker: carries T at compile time, is an empty object at run time. */
export interface Phantom<T> {
  readonly [phantom]?: T;
}
export const type = <T>(): Phantom<T> => ({});

export type ArgsSchema = v.GenericSchema<unknown, unknown>;

export interface InvokeSpec<S extends ArgsSchema = ArgsSchema, R = unknown> {
  args: S;
  result: Phantom<R>;
}

export const invoke = <S extends ArgsSchema, R>(args: S, _result: Phantom<R>): InvokeSpec<S, R> => ({
  args,
  result: _result,
});
