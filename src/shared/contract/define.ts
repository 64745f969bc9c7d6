/**
 * How an operation of the app contract is declared: a name, a zod schema for its input (parsed
 * at every shell's edge), the type of its output and what it invalidates (the data topics the
 * windows re-read after it succeeds: dispatch emits `data.changed` with them, so no handler
 * writes that event by hand). Every shell dispatches through one table.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errorCodes';
import type { DataTopic } from './topics';

export interface OperationDef<I extends z.ZodType = z.ZodType, O = unknown> {
  readonly input: I;
  readonly summary: string;
  /** Data topics this operation changes: `data.changed` is emitted with them after it succeeds. */
  readonly invalidates?: readonly DataTopic[];
  /** Phantom: carries the output type only. */
  readonly __output?: O;
}

export function op<I extends z.ZodType>(input: I, summary: string, options: { invalidates?: readonly DataTopic[] } = {}) {
  return {
    returns<O>(): OperationDef<I, O> {
      return { input, summary, ...(options.invalidates ? { invalidates: options.invalidates } : {}) };
    },
  };
}

export type OperationTable = Record<string, OperationDef>;
export type InputOf<D> = D extends OperationDef<infer I, unknown> ? z.input<I> : never;
export type ParsedInputOf<D> = D extends OperationDef<infer I, unknown> ? z.output<I> : never;
export type OutputOf<D> = D extends OperationDef<z.ZodType, infer O> ? O : never;

/** A failure the user can act on: `message` says what happened, `hint` what to do. */
export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  hint?: string;
  details?: unknown;
}

/**
 * What a shell hands dispatch besides the input: `signal` aborts the call (the CLI's Ctrl-C, a
 * window's cancel by call id). Handlers pass it to the service; a call that ends after its signal
 * was aborted fails with the code `cancelled`.
 */
export interface CallOptions {
  signal?: AbortSignal;
}

/** What travels over IPC and HTTP for every call: never a thrown error across the boundary. */
export type CallResult<O> = { ok: true; value: O } | { ok: false; error: AppErrorShape };
