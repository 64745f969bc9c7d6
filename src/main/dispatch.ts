/**
 * Calls one operation of the contract: the name is checked, the input parsed with the
 * operation's schema (a malformed input gets a message naming the field), the handler run, and
 * every failure turned into an error shape a user can act on. All shells go through here.
 */
import { z } from 'zod';
import { isOperationName, operationDef, type AppErrorShape, type CallResult, type OperationName } from '../shared/contract';
import { AppError } from '../shared/appError';
import type { App } from './app';
import { handlers } from './handlers';
import { redactSecrets } from './redact';

export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
      return `${where}${issue.message}`;
    })
    .join('; ');
}

export async function dispatch(app: App, name: string, rawInput: unknown): Promise<CallResult<unknown>> {
  try {
    if (!isOperationName(name)) {
      throw new AppError('unknown_operation', `There is no operation called "${name}".`, 'Update vendesk: the window and the app are out of step.');
    }
    const parsed = operationDef(name).input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      throw new AppError('invalid_input', `Invalid input for ${name}: ${describeZodError(parsed.error)}`, 'Correct the highlighted values and try again.');
    }
    const handler = handlers[name as OperationName] as (input: unknown, app: App) => unknown;
    const value = await handler(parsed.data, app);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: toErrorShape(error) };
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
