/** What a route handler receives: the organisation, its clock reading and the parsed request. */
import type { z } from 'zod';
import type { OrgState, SandboxCore } from './core';
import { HttpError } from './httpErrors';

export interface Ctx {
  core: SandboxCore;
  org: OrgState;
  /** This organisation's sandbox clock, epoch ms, read once per request. */
  now: number;
  /** The envelope's requestReference for this request. */
  ref: string;
  url: URL;
  /** `http://host:port` as the request addressed us (Host header). */
  origin: string;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** Decoded path parameter for `/requeryTransaction/{orderId}` and `/MSQ/{reference}`. */
  param: string;
}

/** Turns zod issues into one reason a person can act on. */
export function describeIssues(error: z.ZodError, itemWord = 'item'): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map((p) => (typeof p === 'number' ? `${itemWord} ${p + 1}` : String(p))).join(': ');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Parses a body with a schema, or throws 400 `invalid payload: …` (or `empty body`). */
export function parseBody<S extends z.ZodType>(ctx: Ctx, schema: S, expected: string, maxItems?: number): z.infer<S> {
  if (ctx.body === undefined) throw new HttpError(400, `empty body: send ${expected}`);
  if (maxItems !== undefined && Array.isArray(ctx.body) && ctx.body.length > maxItems) {
    throw new HttpError(400, `invalid payload: at most ${maxItems} items per request, got ${ctx.body.length}; split the list`);
  }
  const result = schema.safeParse(ctx.body);
  if (!result.success) throw new HttpError(400, `invalid payload: ${describeIssues(result.error)}`);
  return result.data;
}

/** Largest airtime or data batch one request may carry (the spec leaves it open). */
export const MAX_BATCH_ITEMS = 1000;
/** Largest contact list one `/createContact` request may carry. */
export const MAX_CONTACTS_PER_REQUEST = 10_000;

/** Kobo of a wire Naira amount, refusing fractions of a kobo. */
export function amountKobo(naira: number, where: string): number {
  const kobo = Math.round(naira * 100);
  if (Math.abs(kobo - naira * 100) > 1e-6) throw new HttpError(400, `invalid payload: ${where}amount ${naira} has more than 2 decimal places`);
  if (!Number.isSafeInteger(kobo)) throw new HttpError(400, `invalid payload: ${where}amount ${naira} is too large`);
  return kobo;
}
