/**
 * Calls one operation of the contract: the name is checked, the input parsed with the
 * operation's schema (a malformed input gets a message naming the field), the handler run, and
 * every failure turned into an error shape a user can act on. All shells go through here, each
 * with the call's AbortSignal (Ctrl-C in the CLI, a cancel by call id from a window).
 */
import { z } from 'zod';
import { isOperationName, operationDef, type AppErrorShape, type CallResult, type OperationName } from '../shared/contract';
import type { CallOptions } from '../shared/contract/define';
import { AppError } from '../shared/appError';
import type { App } from './appContext';
import { handlers } from './handlers';
import type { CallContext } from './handlers/handlerTypes';
import { redactSecrets } from './redact';

/**
 * Sentences for zod's own checks, used where the contract gives no message of its own (the
 * contract's messages always win): "Expected a whole number, not 5000.5." rather than
 * "Invalid input: expected int, received number".
 */
export const plainIssueMessages: z.core.$ZodErrorMap = (issue) => {
  const list = (values: readonly unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'This is required.';
      const expected =
        issue.expected === 'int' ? 'a whole number' : issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'a set of fields' : `a ${issue.expected}`;
      const got =
        typeof issue.input === 'number'
          ? String(issue.input)
          : typeof issue.input === 'string'
            ? 'text'
            : Array.isArray(issue.input)
              ? 'a list'
              : issue.input === null
                ? 'nothing'
                : typeof issue.input;
      return `Expected ${expected}, not ${got}.`;
    }
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'This cannot be empty.' : `Use at least ${issue.minimum} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Give at least ${issue.minimum}.`;
      return issue.inclusive ? `Must be ${issue.minimum} or more.` : `Must be more than ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Use at most ${issue.maximum} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Give at most ${issue.maximum}.`;
      return issue.inclusive ? `Must be ${issue.maximum} or less.` : `Must be less than ${issue.maximum}.`;
    case 'invalid_value':
      return `Must be one of: ${list(issue.values)}.`;
    case 'unrecognized_keys':
      return `vendesk does not know ${issue.keys.length === 1 ? 'the field' : 'the fields'} ${list(issue.keys)}.`;
    case 'invalid_format':
      return `Not a valid ${issue.format}.`;
    default:
      return undefined;
  }
};

/** `amountKobo` → "Amount", `filter.from` → "From", `baseUrl` → "Base URL", `values.2` → "Values, item 3". */
function fieldLabel(path: readonly PropertyKey[]): string {
  const named = path.filter((p) => typeof p === 'string');
  const last = named.length ? named[named.length - 1] : '';
  const words = last
    .replace(/Kobo$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\b(url|id|sms)\b/g, (w) => w.toUpperCase());
  const item = typeof path[path.length - 1] === 'number' ? `, item ${Number(path[path.length - 1]) + 1}` : '';
  return words ? `${words[0].toUpperCase()}${words.slice(1)}${item}` : '';
}

/** Whether `message` already names the field: each word of its label starts a word of the message. */
function namesField(message: string, label: string): boolean {
  const words = label.split(',')[0].toLowerCase().split(' ');
  return words.every((w) => new RegExp(`\\b${w.replace(/[^a-z0-9]/g, '')}`, 'i').test(message));
}

/**
 * A refused input as sentences, one per problem, each naming its field ("Limit: Must be 1000 or
 * less.") unless the sentence already does ("The From date 20 Nov 2026 is after…").
 */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const message = /[.!?]$/.test(issue.message) ? issue.message : `${issue.message}.`;
      const label = fieldLabel(issue.path);
      return label === '' || namesField(message, label) ? message : `${label}: ${message}`;
    })
    .join(' ');
}

/**
 * Whether a call failed because its signal was aborted (and not for a reason of its own: a
 * purchase refused after Ctrl-C stays refused).
 */
function stoppedByCancel(error: unknown, signal: AbortSignal): boolean {
  if (!signal.aborted) return false;
  if (error === signal.reason) return true;
  if (error instanceof AppError) return error.code === 'cancelled' || error.code === 'sync_cancelled';
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * A call whose caller cancelled it (its signal aborted) ends as `cancelled`: the service's own
 * words when it said why it stopped (a sync carries on from the last page saved), otherwise what
 * was stopped.
 */
function cancelledError(summary: string, error: unknown): AppError {
  // A call made after the signal was aborted still runs (a CLI's clean-up after Ctrl-C, such as
  // pausing a bulk job, must): only the services that take the signal stop, at their first check.
  if (error instanceof AppError && (error.code === 'cancelled' || error.code === 'sync_cancelled')) {
    return new AppError('cancelled', error.message, error.hint, error.details);
  }
  const what = summary.charAt(0).toLowerCase() + summary.slice(1);
  return new AppError('cancelled', `Cancelled before it finished: ${what}.`, 'Run it again when you are ready.');
}

export async function dispatch(app: App, name: string, rawInput: unknown, options: CallOptions = {}): Promise<CallResult<unknown>> {
  const signal = options.signal ?? new AbortController().signal;
  let summary = name;
  try {
    if (!isOperationName(name)) {
      throw new AppError('unknown_operation', `There is no operation called "${name}".`, 'Update vendesk: the window and the app are out of step.');
    }
    const parsed = operationDef(name).input.safeParse(rawInput ?? {}, { error: plainIssueMessages });
    if (!parsed.success) {
      throw new AppError('invalid_input', describeZodError(parsed.error), 'Correct it and try again.', {
        operation: name,
        issues: parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message })),
      });
    }
    const def = operationDef(name);
    summary = def.summary;
    const handler = handlers[name as OperationName] as (input: unknown, app: App, call: CallContext) => unknown;
    const value = await handler(parsed.data, app, { signal });
    // What the operation changed, as its contract entry declares: the windows re-read it.
    if (def.invalidates) app.invalidate(def.invalidates, name);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: toErrorShape(stoppedByCancel(error, signal) ? cancelledError(summary, error) : error) };
  }
}

export function toErrorShape(error: unknown): AppErrorShape {
  if (error instanceof AppError) return redactShape(error.toShape());
  const message = error instanceof Error ? error.message : String(error);
  return redactShape({
    code: 'internal',
    message: `Something went wrong inside vendesk: ${message}`,
    hint: 'Try again. If it keeps happening, send the log file from Settings to support.',
  });
}

function redactShape<T extends { message: string; hint?: string }>(shape: T): T {
  return { ...shape, message: redactSecrets(shape.message), ...(shape.hint ? { hint: redactSecrets(shape.hint) } : {}) };
}
