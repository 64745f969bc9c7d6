/** `/__sandbox/*`: clock, faults, wallet, outbox and reset — per organisation, sandbox only. */
import { z } from 'zod';
import { nairaToKobo } from '../shared/money';
import { SUCCESS_MESSAGE, type OutboxEntry } from '../shared/wire';
import { parseBody, type Ctx } from './context';
import type { Fault } from './core';
import { HttpError, ok, type Reply } from './httpErrors';
import { accountBalance } from './vending';
import { SHAPE_VARIANTS, type ShapeVariant } from './answerShapes';

const TEN_YEARS_S = 10 * 366 * 86_400;

const clockBody = z.object({ advanceSeconds: z.number().min(0).max(TEN_YEARS_S).default(0), hold: z.boolean().optional() });

export interface ClockState {
  now: string;
  offsetSeconds: number;
  /** True while the clock is held: it moves only when advanced. */
  held: boolean;
}

function clockState(ctx: Ctx): ClockState {
  return { now: new Date(ctx.core.now(ctx.org)).toISOString(), offsetSeconds: ctx.org.clockOffsetMs / 1000, held: ctx.org.heldAtMs !== undefined };
}

export function advanceClock(ctx: Ctx): Reply {
  const body = parseBody(ctx, clockBody, 'a JSON object like {"advanceSeconds": 121} or {"hold": true}');
  if (body.hold !== undefined) ctx.core.holdClock(ctx.org, body.hold);
  ctx.core.advanceClock(ctx.org, body.advanceSeconds);
  ctx.core.settle(ctx.org, ctx.core.now(ctx.org));
  return ok(ctx.ref, clockState(ctx), SUCCESS_MESSAGE);
}

export function readClock(ctx: Ctx): Reply {
  return ok(ctx.ref, clockState(ctx), SUCCESS_MESSAGE);
}

const faultBody = z.object({
  path: z.string().regex(/^\/\S*$/, 'path must start with / (for example /purchaseAirtime)'),
  status: z.number().int().min(400).max(599),
  count: z.number().int().min(1).max(1_000_000).default(1),
  withVoucherOnly: z.boolean().default(false),
  retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
});

export interface FaultView {
  path: string;
  status: number;
  remaining: number;
  withVoucherOnly: boolean;
  retryAfterSeconds?: number;
}

const viewFaults = (faults: Fault[]): FaultView[] => faults.map((f) => ({ ...f }));

export function addFault(ctx: Ctx): Reply {
  const body = parseBody(ctx, faultBody, 'a JSON object like {"path": "/purchaseAirtime", "status": 503, "count": 2}');
  if (body.path.startsWith('/__sandbox')) throw new HttpError(400, 'faults cannot target the /__sandbox control endpoints');
  ctx.org.faults.push({
    path: body.path,
    status: body.status,
    remaining: body.count,
    withVoucherOnly: body.withVoucherOnly,
    ...(body.retryAfterSeconds !== undefined ? { retryAfterSeconds: body.retryAfterSeconds } : {}),
  });
  return ok(ctx.ref, { faults: viewFaults(ctx.org.faults) }, SUCCESS_MESSAGE);
}

export function listFaults(ctx: Ctx): Reply {
  return ok(ctx.ref, { faults: viewFaults(ctx.org.faults) }, SUCCESS_MESSAGE);
}

export function clearFaults(ctx: Ctx): Reply {
  ctx.org.faults = [];
  return ok(ctx.ref, { faults: [] }, SUCCESS_MESSAGE);
}

const latencyBody = z.object({ latencyMs: z.number().int().min(0).max(60_000) });

/** The organisation's added round-trip time: its own answers only, never another organisation's. */
export function setLatency(ctx: Ctx): Reply {
  const body = parseBody(ctx, latencyBody, 'a JSON object like {"latencyMs": 150}');
  ctx.org.latencyMs = body.latencyMs;
  return ok(ctx.ref, { latencyMs: ctx.core.latencyOf(ctx.org) }, SUCCESS_MESSAGE);
}

export function readLatency(ctx: Ctx): Reply {
  return ok(ctx.ref, { latencyMs: ctx.core.latencyOf(ctx.org) }, SUCCESS_MESSAGE);
}

const refundsBody = z.object({ withhold: z.number().int().min(0).max(1_000_000) });

/** The next `withhold` refunds of failed purchases are not paid back, though the log shows them FAILED. */
export function withholdRefunds(ctx: Ctx): Reply {
  const body = parseBody(ctx, refundsBody, 'a JSON object like {"withhold": 1}');
  ctx.org.withheldRefunds = body.withhold;
  return ok(ctx.ref, { withheld: ctx.org.withheldRefunds }, SUCCESS_MESSAGE);
}

const walletBody = z.object({ balance: z.number().min(0).max(1e12) });

export function setWallet(ctx: Ctx): Reply {
  const body = parseBody(ctx, walletBody, 'a JSON object like {"balance": 5000} (Naira)');
  if (!ctx.org.configured) throw new HttpError(422, 'vending account not configured: this organisation has no NGN wallet');
  ctx.core.setBalance(ctx.org, nairaToKobo(body.balance));
  return accountBalance(ctx);
}

interface OutboxRow {
  channel: 'sms' | 'email';
  recipient: string;
  subject: string | null;
  body: string;
  reference: string;
  code: string | null;
  created_ms: number;
}

/** An outbox entry; email copies also carry `subject` (a sandbox addition). */
export type OutboxView = OutboxEntry & { subject?: string };

export function outbox(ctx: Ctx): Reply {
  const rows = ctx.core.stmt<[number], OutboxRow>('SELECT channel, recipient, subject, body, reference, code, created_ms FROM outbox WHERE org_id = ? ORDER BY id').all(ctx.org.id);
  const entries = rows.map((r): OutboxView => {
    const entry: OutboxView = { channel: r.channel, to: r.recipient, body: r.body, reference: r.reference, createdAt: new Date(r.created_ms).toISOString() };
    if (r.code !== null) entry.code = r.code;
    if (r.subject !== null) entry.subject = r.subject;
    return entry;
  });
  return ok(ctx.ref, entries, SUCCESS_MESSAGE);
}

export function reset(ctx: Ctx): Reply {
  ctx.core.reset(ctx.org);
  return ok(ctx.ref, { reset: true }, SUCCESS_MESSAGE);
}

const shapesBody = z.object({ shapes: z.enum(SHAPE_VARIANTS) });

function shapesState(ctx: Ctx): { shapes: ShapeVariant; variants: readonly ShapeVariant[] } {
  return { shapes: ctx.org.shapes ?? ctx.core.options.shapes ?? 'standard', variants: SHAPE_VARIANTS };
}

/** The form of this organisation's messaging answers (answerShapes.ts): `standard`, `alt` or `sparse`. */
export function setShapes(ctx: Ctx): Reply {
  const body = parseBody(ctx, shapesBody, `a JSON object like {"shapes": "alt"} (one of ${SHAPE_VARIANTS.join(', ')})`);
  ctx.org.shapes = body.shapes;
  return ok(ctx.ref, shapesState(ctx), SUCCESS_MESSAGE);
}

export function readShapes(ctx: Ctx): Reply {
  return ok(ctx.ref, shapesState(ctx), SUCCESS_MESSAGE);
}
