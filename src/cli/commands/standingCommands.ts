/**
 * `vendesk standing …`: standing orders (issue 40) — the same rows bought on a schedule, once per
 * occurrence — made, changed, paused and ended here; their due occurrences run by `standing
 * run-due` (a server's cron or systemd timer; the open desktop runs them itself). Through the same
 * operations as the window, on the connection in use. Amounts in the JSON are Naira; days are Lagos
 * days.
 *
 * Longer than 400 lines on purpose: one declaration per command — its options, its JSON and what
 * it prints — in the order `vendesk --help` lists them; each is short, and the area reads as one.
 */
import { z } from 'zod';
import { AppError } from '../../shared/appError';
import type { BulkKind } from '../../shared/contract/bulk';
import {
  OCCURRENCE_OUTCOMES,
  OCCURRENCE_STATES,
  STANDING_ORDER_STATES,
  WAITING_REASONS,
  WEEKDAY_NAMES,
  type OccurrenceView,
  type RunDueReport,
  type StandingApprovalView,
  type StandingOrderSummary,
  type StandingOrderView,
  type StandingRecurrence,
  type Weekday,
} from '../../shared/contract/standing';
import { formatDay, lagosDayOf } from '../../shared/localDates';
import { formatNaira } from '../../shared/money';
import { cliText } from '../cliHints';
import {
  EXIT,
  UsageError,
  command,
  dateOption,
  nairaOption,
  numberOption,
  requireOption,
  requirePositional,
  stringOption,
  type CliContext,
  type CliFailure,
  type CliResult,
  type OptionSpec,
} from '../cliCommand';
import { errorDocument, isoTime, naira, nairaOrNull } from '../jsonShape';
import { lines, quoted, textTable, tt, type TerminalText } from '../terminal';
import { SHEET_HELP } from './bulkCommands';

const KINDS: readonly BulkKind[] = ['airtime', 'data', 'electricity', 'cable'];
const dayShape = z.string().describe('a Lagos day, YYYY-MM-DD');

// ------------------------------------------------------------------ options

const SCHEDULE_OPTIONS: OptionSpec[] = [
  { name: 'monthly-on', kind: 'string', description: "Monthly on this day (1–31; 29–31 mean the month's last day when it is shorter)" },
  { name: 'last-working-day', kind: 'boolean', description: 'Monthly on the last working day (Monday to Friday)' },
  { name: 'weekly-on', kind: 'string', description: 'Weekly on this weekday (monday … sunday)' },
  { name: 'start', kind: 'string', description: 'The first day it may fall on, YYYY-MM-DD (default: today)' },
  { name: 'end', kind: 'string', description: 'The last day it may fall on, YYYY-MM-DD' },
  { name: 'runs', kind: 'string', description: 'How many occurrences in all' },
  { name: 'grace-days', kind: 'string', description: 'Days after its day an occurrence nobody ran still runs by itself (default 3)' },
  { name: 'weekend', kind: 'string', description: 'A day on a Saturday or Sunday moves to the next or previous working day, or none (default none)' },
];

const ROWS_OPTIONS: OptionSpec[] = [
  { name: 'kind', kind: 'string', description: 'airtime, data, electricity or cable' },
  { name: 'sheet', kind: 'string', description: SHEET_HELP },
  { name: 'from-job', kind: 'string', description: 'Take the rows of this finished bulk job instead of a file' },
  { name: 'skip-invalid', kind: 'boolean', description: 'Keep the valid rows when some rows are invalid' },
  { name: 'keep-duplicates', kind: 'boolean', description: 'Keep rows that repeat an earlier row of the file' },
];

const CONFIRM_OPTIONS: OptionSpec[] = [
  { name: 'yes', kind: 'boolean', description: 'Confirm the order: its rows are bought on every occurrence (required)' },
  { name: 'confirm-total', kind: 'string', description: 'LIVE connections: the per-run total in Naira, typed as deliberate confirmation' },
];

function weekdayOf(text: string): Weekday {
  const t = text.trim().toLowerCase();
  const found = WEEKDAY_NAMES.find((w) => w === t || (t.length >= 3 && w.startsWith(t)));
  if (!found) throw new UsageError(`--weekly-on must be a weekday, monday to sunday; got "${text}"`);
  return found;
}

/** The recurrence the options give (one of three), or undefined when none is given. */
function recurrenceOption(ctx: CliContext): StandingRecurrence | undefined {
  const monthly = stringOption(ctx.args, 'monthly-on');
  const last = ctx.args.options['last-working-day'] === true;
  const weekly = stringOption(ctx.args, 'weekly-on');
  const given = [monthly !== undefined, last, weekly !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('Give one recurrence: --monthly-on DAY, --last-working-day or --weekly-on WEEKDAY.');
  if (monthly !== undefined) {
    const day = numberOption(ctx.args, 'monthly-on') as number;
    if (!Number.isInteger(day) || day < 1 || day > 31) throw new UsageError(`--monthly-on must be a day from 1 to 31, got "${monthly}"`);
    return { kind: 'monthly', day };
  }
  if (last) return { kind: 'last_working_day' };
  if (weekly !== undefined) return { kind: 'weekly', weekday: weekdayOf(weekly) };
  return undefined;
}

function wholeOption(ctx: CliContext, name: string, min: number, max: number): number | undefined {
  const v = numberOption(ctx.args, name);
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < min || v > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${stringOption(ctx.args, name)}"`);
  return v;
}

/** The schedule options given (what is not given is the order's, for an edit). */
function scheduleOptions(ctx: CliContext) {
  const weekend = stringOption(ctx.args, 'weekend');
  if (weekend !== undefined && !['next', 'previous', 'none'].includes(weekend)) throw new UsageError(`--weekend must be next, previous or none, got "${weekend}"`);
  const start = dateOption(ctx.args, 'start');
  const end = dateOption(ctx.args, 'end');
  const runs = wholeOption(ctx, 'runs', 1, 1000);
  if (end !== undefined && runs !== undefined) throw new UsageError('Give --end or --runs, not both.');
  if (start && end && start > end) throw new UsageError(`--start ${start} is after --end ${end}.`);
  const graceDays = wholeOption(ctx, 'grace-days', 0, 60);
  return {
    ...(recurrenceOption(ctx) ? { recurrence: recurrenceOption(ctx) } : {}),
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    ...(runs !== undefined ? { runs } : {}),
    ...(graceDays !== undefined ? { graceDays } : {}),
    ...(weekend ? { weekend: weekend as 'next' | 'previous' | 'none' } : {}),
  };
}

function orderIdArg(ctx: CliContext, usage: string): string {
  return requirePositional(ctx.args, 0, `Name the standing order: ${usage} (see \`vendesk standing list\`)`);
}

function occurrenceOption(ctx: CliContext): string {
  requireOption(ctx.args, 'occurrence');
  return dateOption(ctx.args, 'occurrence') as string;
}

// ------------------------------------------------------------------ JSON and text

const waitingRowShape = z.strictObject({ row: z.number(), phone: z.string(), account: z.string().nullable(), amount: naira, reason: z.string() });

const occurrenceShape = z.strictObject({
  orderId: z.string(),
  order: z.string().describe("the order's name"),
  occurrence: dayShape.describe('its scheduled day (the rule’s date: the key)'),
  due: dayShape.describe('the day it is due (after a weekend move)'),
  state: z.enum(OCCURRENCE_OUTCOMES).describe('how it went: waiting, skipped, or its job’s (bought, failed, running, awaiting_approval, …)'),
  occurrenceState: z.enum(OCCURRENCE_STATES),
  jobId: z.string().nullable().describe('its one bulk job here (`vendesk bulk status JOB_ID`)'),
  teamJobId: z.string().nullable(),
  reason: z
    .enum([...WAITING_REASONS, 'skipped'])
    .nullable()
    .describe('why it waits (or skipped)'),
  why: z.string().nullable(),
  missing: nairaOrNull.describe('Naira: how much more the wallet needs (wallet_short)'),
  version: z.number().nullable(),
  job: z
    .strictObject({
      state: z.string(),
      items: z.number(),
      success: z.number(),
      failed: z.number(),
      pending: z.number(),
      rejected: z.number(),
      uncertain: z.number(),
      notSent: z.number(),
      bought: naira.describe('Naira: face value of what was bought'),
    })
    .nullable(),
  waitingRows: z.array(waitingRowShape),
});

function occurrenceJson(o: OccurrenceView): z.infer<typeof occurrenceShape> {
  return {
    orderId: o.orderId,
    order: o.orderName,
    occurrence: o.scheduledDay,
    due: o.dueDay,
    state: o.outcome,
    occurrenceState: o.state,
    jobId: o.jobId,
    teamJobId: o.teamJobId,
    reason: o.reasonCode,
    why: o.reason === null ? null : cliText(o.reason),
    missing: o.missingKobo === null ? null : o.missingKobo / 100,
    version: o.version,
    job: o.job
      ? {
          state: o.job.interrupted ? 'interrupted' : o.job.state,
          items: o.job.items,
          success: o.job.success,
          failed: o.job.failed,
          pending: o.job.pending,
          rejected: o.job.rejected,
          uncertain: o.job.uncertain,
          notSent: o.job.notSent,
          bought: o.job.boughtKobo / 100,
        }
      : null,
    waitingRows: o.waitingRows.map((w) => ({ row: w.row, phone: w.phone, account: w.account, amount: w.amountKobo / 100, reason: w.reason })),
  };
}

/** An occurrence in one line, its figures first and the order's name (free text) quoted. */
function occurrenceLine(o: OccurrenceView): TerminalText {
  const when = o.dueDay === o.scheduledDay ? formatDay(o.dueDay) : `${formatDay(o.dueDay)} (scheduled ${formatDay(o.scheduledDay)})`;
  const job = o.jobId
    ? ` — job ${o.jobId}${o.job ? `: ${o.job.success}/${o.job.items} successful, ${formatNaira(o.job.boughtKobo)} bought` : ''}`
    : o.teamJobId
      ? ` — team job ${o.teamJobId}`
      : '';
  return tt`  ${when}: ${o.outcome.replace('_', ' ')}${job}, order ${quoted(o.orderName)}`;
}

/** Why an occurrence waits, and its rows that wait, each on its own line. */
function occurrenceWhy(o: OccurrenceView): TerminalText[] {
  const out: TerminalText[] = [];
  if (o.reason) out.push(tt`      ${cliText(o.reason)}`);
  for (const w of o.waitingRows) out.push(tt`      Row ${w.row}: ${w.account ?? w.phone}, ${formatNaira(w.amountKobo)} — waits: ${w.reason}`);
  return out;
}

const approvalShape = z
  .strictObject({
    id: z.string(),
    version: z.number(),
    rowsDigest: z.string(),
    ceiling: naira,
    runs: z.number().nullable(),
    until: dayShape.nullable(),
    state: z.enum(['pending', 'granted']),
    approvedBy: z.array(z.string()),
    approvalsNeeded: z.number(),
    runsUsed: z.number(),
    stops: z.string().nullable(),
  })
  .nullable();

function approvalJson(a: StandingApprovalView | null): z.infer<typeof approvalShape> {
  return a
    ? {
        id: a.id,
        version: a.version,
        rowsDigest: a.rowsDigest,
        ceiling: a.ceilingKobo / 100,
        runs: a.runs,
        until: a.until,
        state: a.state,
        approvedBy: a.approvedBy,
        approvalsNeeded: a.approvalsNeeded,
        runsUsed: a.runsUsed,
        stops: a.stops,
      }
    : null;
}

const nextShape = z.strictObject({ occurrence: dayShape, due: dayShape }).nullable();

const summaryShape = z.strictObject({
  orderId: z.string(),
  name: z.string(),
  kind: z.enum(['airtime', 'data', 'electricity', 'cable']),
  state: z.enum(STANDING_ORDER_STATES),
  team: z.boolean(),
  version: z.number().nullable(),
  schedule: z.string().describe('the recurrence in words'),
  graceDays: z.number(),
  weekend: z.enum(['next', 'previous', 'none']),
  items: z.number(),
  perRun: naira.describe('Naira: the face value each occurrence buys'),
  next: nextShape,
  lastRun: occurrenceShape.nullable(),
  waiting: z.number().describe('occurrences that wait'),
  standingApproval: approvalShape,
});

function summaryJson(s: StandingOrderSummary): z.infer<typeof summaryShape> {
  return {
    orderId: s.id,
    name: s.name,
    kind: s.kind,
    state: s.state,
    team: s.team,
    version: s.version,
    schedule: s.schedule,
    graceDays: s.graceDays,
    weekend: s.weekend,
    items: s.items,
    perRun: s.perRunKobo / 100,
    next: s.next ? { occurrence: s.next.scheduledDay, due: s.next.dueDay } : null,
    lastRun: s.lastRun ? occurrenceJson(s.lastRun) : null,
    waiting: s.waiting,
    standingApproval: approvalJson(s.standingApproval),
  };
}

const versionShape = z.strictObject({
  version: z.number(),
  schedule: z.string(),
  rule: z.string().describe('the RFC 5545 rule as stored'),
  graceDays: z.number(),
  weekend: z.enum(['next', 'previous', 'none']),
  effectiveFrom: dayShape,
  items: z.number(),
  perRun: naira,
  rowsDigest: z.string().nullable(),
  source: z.string(),
  change: z.string(),
  changedBy: z.string(),
  changedAt: isoTime,
  confirmedBy: z.string().nullable(),
  confirmedAt: isoTime.nullable(),
});

const rowShape = z.strictObject({
  row: z.number(),
  phone: z.string(),
  account: z.string().nullable(),
  network: z.string(),
  productCode: z.string(),
  amount: naira,
  name: z.string(),
});

const orderShape = summaryShape.extend({
  versions: z.array(versionShape),
  pendingVersion: versionShape.nullable(),
  occurrences: z.array(occurrenceShape),
  upcoming: z.array(z.strictObject({ occurrence: dayShape, due: dayShape })),
  rows: z.array(rowShape),
  rowCount: z.number(),
});

function versionJson(v: StandingOrderView['versions'][number]): z.infer<typeof versionShape> {
  return {
    version: v.version,
    schedule: v.schedule,
    rule: v.rule,
    graceDays: v.graceDays,
    weekend: v.weekend,
    effectiveFrom: v.effectiveFrom,
    items: v.items,
    perRun: v.totalKobo / 100,
    rowsDigest: v.rowsDigest,
    source: v.source,
    change: v.change,
    changedBy: v.changedBy,
    changedAt: v.changedAt,
    confirmedBy: v.confirmedBy,
    confirmedAt: v.confirmedAt,
  };
}

function orderJson(o: StandingOrderView): z.infer<typeof orderShape> {
  return {
    ...summaryJson(o),
    versions: o.versions.map(versionJson),
    pendingVersion: o.pendingVersion ? versionJson(o.pendingVersion) : null,
    occurrences: o.occurrences.map(occurrenceJson),
    upcoming: o.upcoming.map((u) => ({ occurrence: u.scheduledDay, due: u.dueDay })),
    rows: o.rows.map((r) => ({ row: r.row, phone: r.phone, account: r.account, network: r.network, productCode: r.productCode, amount: r.amountKobo / 100, name: r.name })),
    rowCount: o.rowCount,
  };
}

/** An order as a person reads it: its figures and schedule first, its name (free text) quoted. */
function orderText(o: StandingOrderView): TerminalText {
  const said: TerminalText[] = [
    tt`Standing order ${o.id} (${o.kind}, ${o.team ? 'team' : o.connectionKind.toUpperCase()}): ${o.state}, version ${o.version ?? 'none confirmed'}`,
    tt`  Name: ${quoted(o.name)}`,
    tt`  ${o.items} row(s), ${formatNaira(o.perRunKobo)} per run. ${o.schedule}. Grace: ${o.graceDays} day(s).`,
    o.next ? tt`  Next: ${formatDay(o.next.dueDay)}${o.next.dueDay !== o.next.scheduledDay ? ` (scheduled ${formatDay(o.next.scheduledDay)})` : ''}` : tt`  Next: none`,
  ];
  if (o.upcoming.length > 1)
    said.push(
      tt`  Then: ${o.upcoming
        .slice(1)
        .map((u) => formatDay(u.dueDay))
        .join(', ')}`,
    );
  if (o.standingApproval) {
    const a = o.standingApproval;
    said.push(
      tt`  Standing approval: ${a.state}, ceiling ${formatNaira(a.ceilingKobo)} per run, ${a.runs !== null ? `${a.runsUsed} of ${a.runs} run(s) used` : `until ${formatDay(a.until ?? '')}`}, by ${a.approvedBy.join(' and ')}${a.stops ? ` — ${a.stops}` : ''}`,
    );
  }
  if (o.pendingVersion) said.push(tt`  Version ${o.pendingVersion.version} waits for its confirmation: ${o.pendingVersion.change}`);
  if (o.occurrences.length > 0) {
    said.push(tt`Occurrences (newest first):`);
    for (const occ of o.occurrences) said.push(occurrenceLine(occ), ...occurrenceWhy(occ));
  }
  said.push(tt`Versions:`);
  for (const v of o.versions) said.push(tt`  ${v.version}: ${v.change} — by ${v.changedBy}, ${v.changedAt}; from ${formatDay(v.effectiveFrom)}; rows from ${quoted(v.source)}`);
  if (o.rows.length > 0) {
    said.push(tt`Rows${o.rowCount > o.rows.length ? ` (the first ${o.rows.length} of ${o.rowCount})` : ''}:`);
    said.push(
      textTable([
        ['Row', 'Recipient', 'Network', 'Product', 'Amount', 'Name'],
        ...o.rows.map((r) => [r.row, r.account ?? r.phone, r.network, r.productCode, formatNaira(r.amountKobo), r.name]),
      ]),
    );
  }
  return lines(said);
}

/** How a run's occurrences make the command end: 1 when one failed (it could not be bought, or its job did not buy every row), 4 when one waits for approval. */
function runFailure(ran: readonly OccurrenceView[], waiting: readonly OccurrenceView[]): CliFailure | undefined {
  const failedRuns = ran.filter((o) => ['failed', 'paused', 'needs_attention', 'interrupted', 'cancelled'].includes(o.outcome));
  const stuck = waiting.filter((o) => o.reasonCode !== 'missed' && o.reasonCode !== 'another_due');
  if (failedRuns.length + stuck.length > 0) {
    const first = failedRuns[0] ?? stuck[0];
    return {
      exitCode: EXIT.failed,
      message: `${failedRuns.length + stuck.length} occurrence(s) did not buy everything: ${first.orderName} (${formatDay(first.dueDay)}) is ${first.outcome.replace('_', ' ')}${first.reason ? `: ${cliText(first.reason)}` : '.'}`,
      hint: first.jobId ? `See its job with \`vendesk bulk status ${first.jobId}\`.` : `See the order with \`vendesk standing show ${first.orderId}\`.`,
    };
  }
  const approval = ran.find((o) => o.outcome === 'awaiting_approval');
  if (approval) {
    return {
      exitCode: EXIT.awaitingApproval,
      message: `${approval.orderName} (${formatDay(approval.dueDay)}) waits for approval by another team member${approval.teamJobId ? ` (team job ${approval.teamJobId})` : ''}; nothing of it was bought.`,
      hint: approval.teamJobId ? `An approver runs \`vendesk approve ${approval.teamJobId}\`; the next \`vendesk standing run-due\` then buys it.` : undefined,
    };
  }
  return undefined;
}

/** Progress of the jobs a command runs, on stderr. */
async function followingJobs<T>(ctx: CliContext, run: () => Promise<T>): Promise<T> {
  const app = await ctx.app();
  let last = '';
  const off = app.events.on('job.progress', (p) => {
    const line = `Job ${p.jobId}: ${p.done}/${p.total ?? '?'} item(s) answered${p.message ? ` — ${p.message}` : ''}`;
    if (line !== last && (p.message || p.done === p.total)) ctx.progress(line);
    last = line;
  });
  try {
    return await run();
  } finally {
    off();
  }
}

// ------------------------------------------------------------------ making and changing an order

const invalidShape = errorDocument.extend({ errors: z.array(z.strictObject({ row: z.number(), field: z.string(), message: z.string() })) });

/** Prepares (a new order, or a new version) and confirms; a draft the confirmation refused is discarded. */
async function prepareAndConfirm(ctx: CliContext, input: Parameters<CliContext['call']>[1] & object): Promise<CliResult> {
  if (ctx.args.options.yes !== true) throw new UsageError('Add --yes to confirm: the order buys its rows from the wallet on every occurrence.');
  const confirmTotal = nairaOption(ctx.args, 'confirm-total') === undefined ? undefined : stringOption(ctx.args, 'confirm-total');
  let draft;
  try {
    draft = await ctx.call('standing.prepare', input as never);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_rows') {
      const errors = ((error.details as { errors?: { row: number; field: string; message: string }[] } | undefined)?.errors ?? []).map((e) => ({
        row: e.row,
        field: e.field,
        message: e.message,
      }));
      return {
        json: { error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) }, errors },
        text: lines([tt`${error.message}`, ...errors.map((e) => tt`  ${e.message}`)]),
        failure: { exitCode: EXIT.invalidRows, message: error.message, hint: error.hint },
      };
    }
    throw error;
  }
  const orderId = draft.order.id;
  const pending = draft.order.pendingVersion;
  for (const l of draft.leftOut) ctx.progress(tt`  Row ${l.row}: ${l.account ?? l.phone}, ${formatNaira(l.amountKobo)} — left out: ${l.reason}`);
  for (const i of draft.invalid) ctx.progress(tt`  Left out: ${i.message}`);
  ctx.progress(
    tt`Standing order ${orderId}: ${pending?.items ?? 0} row(s), ${formatNaira(pending?.totalKobo ?? 0)} per run; ${pending?.schedule ?? ''}.${draft.team ? ' In the team, each occurrence waits for approval unless a standing approval covers it.' : ''}`,
  );
  try {
    const order = await ctx.call('standing.confirm', { orderId, ...(confirmTotal ? { typedTotal: confirmTotal } : {}) });
    return { json: orderJson(order), text: orderText(order) };
  } catch (error) {
    // Not confirmed: nothing of it is left behind (an order's confirmed versions stay as they were).
    await ctx.call('standing.discard', { orderId }).catch(() => undefined);
    throw error;
  }
}

function rowsInput(ctx: CliContext, fileIndex: number) {
  const file = ctx.args.positionals[fileIndex];
  const fromJob = stringOption(ctx.args, 'from-job');
  if (file && fromJob) throw new UsageError('Give the spreadsheet or --from-job, not both.');
  const kind = stringOption(ctx.args, 'kind');
  if (kind !== undefined && !KINDS.includes(kind as BulkKind)) throw new UsageError(`--kind must be airtime, data, electricity or cable, got "${kind}"`);
  const sheet = stringOption(ctx.args, 'sheet');
  return {
    ...(file ? { file: { path: file } } : {}),
    ...(fromJob ? { fromJobId: fromJob } : {}),
    ...(kind ? { kind: kind as BulkKind } : {}),
    ...(sheet ? { sheet } : {}),
    keepDuplicates: ctx.args.options['keep-duplicates'] === true,
    skipInvalid: ctx.args.options['skip-invalid'] === true,
  };
}

const ADD_USAGE =
  'vendesk standing add FILE --kind airtime|data|electricity|cable --name NAME (--monthly-on DAY | --last-working-day | --weekly-on WEEKDAY) --yes [--confirm-total NAIRA] [--start YYYY-MM-DD] [--end YYYY-MM-DD | --runs N] [--grace-days N] [--weekend next|previous|none] [--sheet NAME] [--from-job JOB_ID] [--skip-invalid] [--keep-duplicates] [--json]';

export const standingAddCommand = command({
  path: ['standing', 'add'],
  summary: 'Make a standing order: the rows of a spreadsheet (or a finished job) bought on a schedule, once per occurrence, from its first due day',
  usage: ADD_USAGE,
  options: [{ name: 'name', kind: 'string', description: 'What the order is called ("Staff airtime")' }, ...ROWS_OPTIONS, ...SCHEDULE_OPTIONS, ...CONFIRM_OPTIONS],
  output: z.union([orderShape, invalidShape, errorDocument]),
  exitCodes: {
    0: 'the order is confirmed',
    1: 'refused (nothing is kept): on a LIVE connection, the per-run total was not typed',
    3: 'some rows are invalid: no order was made (`errors`)',
  },
  async run(ctx) {
    const rows = rowsInput(ctx, 0);
    if (!rows.file && !rows.fromJobId) throw new UsageError(`Name the spreadsheet (or --from-job JOB_ID): ${ADD_USAGE.split(' [')[0]}`);
    if (rows.file && !rows.kind) throw new UsageError('--kind is required: airtime, data, electricity or cable');
    const name = requireOption(ctx.args, 'name');
    const schedule = scheduleOptions(ctx);
    if (!schedule.recurrence) throw new UsageError('Give the recurrence: --monthly-on DAY, --last-working-day or --weekly-on WEEKDAY.');
    return prepareAndConfirm(ctx, { name, ...rows, ...schedule });
  },
});

export const standingEditCommand = command({
  path: ['standing', 'edit'],
  summary: 'Change a standing order: a new version (its rows, name, schedule or grace) confirmed as the order was; the next occurrence uses it, its history is kept',
  usage:
    'vendesk standing edit ORDER_ID [FILE | --from-job JOB_ID] [--name NAME] [--monthly-on DAY | --last-working-day | --weekly-on WEEKDAY] [--start YYYY-MM-DD] [--end YYYY-MM-DD | --runs N] [--grace-days N] [--weekend next|previous|none] --yes [--confirm-total NAIRA] [--json]',
  options: [{ name: 'name', kind: 'string', description: 'A new name' }, ...ROWS_OPTIONS, ...SCHEDULE_OPTIONS, ...CONFIRM_OPTIONS],
  output: z.union([orderShape, invalidShape, errorDocument]),
  exitCodes: { 0: 'the new version is confirmed', 1: 'refused (the order is unchanged)', 3: 'some rows are invalid: the order is unchanged (`errors`)' },
  async run(ctx) {
    const orderId = orderIdArg(ctx, 'vendesk standing edit ORDER_ID …');
    const name = stringOption(ctx.args, 'name');
    return prepareAndConfirm(ctx, { orderId, ...(name ? { name } : {}), ...rowsInput(ctx, 1), ...scheduleOptions(ctx) });
  },
});

// ------------------------------------------------------------------ reading

export const standingListCommand = command({
  path: ['standing', 'list'],
  summary: 'The standing orders of the connection in use: their schedule, next date, last run and what waits',
  usage: 'vendesk standing list [--json]',
  options: [],
  output: z.union([z.array(summaryShape), errorDocument]),
  async run(ctx) {
    const app = await ctx.app();
    const orders = await ctx.call('standing.list', {});
    const text =
      orders.length === 0
        ? tt`No standing orders on this connection (${app.connection.kind.toUpperCase()} ${app.connection.profileName}).`
        : textTable([
            ['Order', 'State', 'Kind', 'Per run', 'Next', 'Last run', 'Waiting', 'Name'],
            ...orders.map((o) => [
              o.id,
              o.state,
              o.kind,
              formatNaira(o.perRunKobo),
              o.next ? o.next.dueDay : '—',
              o.lastRun ? `${o.lastRun.dueDay} ${o.lastRun.outcome}` : '—',
              o.waiting,
              o.name,
            ]),
          ]);
    return { json: orders.map(summaryJson), text };
  },
});

export const standingShowCommand = command({
  path: ['standing', 'show'],
  summary: 'One standing order: its schedule and next dates, its recent occurrences with their jobs, what waits and why, its versions and rows',
  usage: 'vendesk standing show ORDER_ID [--json]',
  options: [],
  output: z.union([orderShape, errorDocument]),
  async run(ctx) {
    const order = await ctx.call('standing.show', { orderId: orderIdArg(ctx, 'vendesk standing show ORDER_ID') });
    return { json: orderJson(order), text: orderText(order) };
  },
});

// ------------------------------------------------------------------ running

const runDueShape = z.strictObject({
  today: dayShape.describe("today on the service's clock"),
  dryRun: z.boolean(),
  ran: z.array(occurrenceShape).describe('occurrences started or resumed by this run (with --dry-run: those that would be)'),
  waiting: z.array(occurrenceShape).describe('occurrences that wait, and why'),
  elsewhere: z.array(occurrenceShape).describe('occurrences another runner claimed first'),
  nextDueAt: isoTime.nullable(),
});

function reportText(r: RunDueReport): TerminalText {
  const said: TerminalText[] = [tt`Today is ${formatDay(r.today)}${r.dryRun ? ' (dry run: nothing is bought)' : ''}.`];
  said.push(r.ran.length === 0 ? tt`Nothing ${r.dryRun ? 'would run' : 'ran'}.` : tt`${r.dryRun ? 'Would run' : 'Ran'}:`);
  for (const o of r.ran) said.push(occurrenceLine(o), ...occurrenceWhy(o));
  if (r.waiting.length > 0) said.push(tt`Waiting:`);
  for (const o of r.waiting) said.push(occurrenceLine(o), ...occurrenceWhy(o));
  if (r.elsewhere.length > 0) said.push(tt`Claimed by another runner:`);
  for (const o of r.elsewhere) said.push(occurrenceLine(o));
  said.push(r.nextDueAt ? tt`Next due: ${formatDay(lagosDayOf(r.nextDueAt))}.` : tt`No occurrence is due later.`);
  return lines(said);
}

export const standingRunDueCommand = command({
  path: ['standing', 'run-due'],
  summary: "Run every standing order occurrence due now on the connection in use (for a server's cron or systemd timer); each is bought once, whoever else runs them",
  usage: 'vendesk standing run-due [--dry-run] [--json]',
  options: [{ name: 'dry-run', kind: 'boolean', description: 'Say what would run and why others wait; buy and record nothing' }],
  output: z.union([runDueShape, errorDocument]),
  exitCodes: {
    0: 'nothing failed (what waits for a person — missed beyond its grace — is listed in `waiting`)',
    1: 'an occurrence failed: it could not be bought (short of money, a cap, rows that wait, the service or team unreachable) or its job did not buy every row',
    4: 'team workspace: an occurrence waits for approval (nothing of it bought)',
  },
  async run(ctx) {
    const dryRun = ctx.args.options['dry-run'] === true;
    const report = await followingJobs(ctx, () => ctx.call('standing.runDue', { dryRun, wait: true }));
    const json = {
      today: report.today,
      dryRun: report.dryRun,
      ran: report.ran.map(occurrenceJson),
      waiting: report.waiting.map(occurrenceJson),
      elsewhere: report.elsewhere.map(occurrenceJson),
      nextDueAt: report.nextDueAt,
    };
    const failure = dryRun ? undefined : runFailure(report.ran, report.waiting);
    return { json, text: reportText(report), ...(failure ? { failure } : {}) };
  },
});

export const standingRunCommand = command({
  path: ['standing', 'run'],
  summary: 'Run one waiting occurrence now (missed beyond its grace, or short of money when it was due); bought once, whoever else runs it',
  usage: 'vendesk standing run ORDER_ID --occurrence YYYY-MM-DD [--json]',
  options: [{ name: 'occurrence', kind: 'string', description: 'The occurrence, by its day (scheduled or due), YYYY-MM-DD' }],
  output: z.union([occurrenceShape, errorDocument]),
  exitCodes: { 0: 'bought', 1: 'it could not be bought now (why is said), or its job did not buy every row', 4: 'team workspace: it waits for approval' },
  async run(ctx) {
    const orderId = orderIdArg(ctx, 'vendesk standing run ORDER_ID --occurrence YYYY-MM-DD');
    const occurrence = occurrenceOption(ctx);
    const o = await followingJobs(ctx, () => ctx.call('standing.runOccurrence', { orderId, occurrence, wait: true }));
    const failure = o.state === 'waiting' ? runFailure([], [{ ...o, reasonCode: o.reasonCode === 'missed' ? 'error' : o.reasonCode }]) : runFailure([o], []);
    return { json: occurrenceJson(o), text: lines([occurrenceLine(o), ...occurrenceWhy(o)]), ...(failure ? { failure } : {}) };
  },
});

export const standingSkipCommand = command({
  path: ['standing', 'skip'],
  summary: 'Skip one occurrence (nothing is bought for it; the next one is unchanged)',
  usage: 'vendesk standing skip ORDER_ID --occurrence YYYY-MM-DD [--json]',
  options: [{ name: 'occurrence', kind: 'string', description: 'The occurrence, by its day (scheduled or due), YYYY-MM-DD' }],
  output: z.union([occurrenceShape, errorDocument]),
  async run(ctx) {
    const orderId = orderIdArg(ctx, 'vendesk standing skip ORDER_ID --occurrence YYYY-MM-DD');
    const o = await ctx.call('standing.skip', { orderId, occurrence: occurrenceOption(ctx) });
    return { json: occurrenceJson(o), text: lines([occurrenceLine(o), ...occurrenceWhy(o)]) };
  },
});

function stateCommand(word: 'pause' | 'resume' | 'end', summary: string) {
  return command({
    path: ['standing', word],
    summary,
    usage: `vendesk standing ${word} ORDER_ID [--json]`,
    options: [],
    output: z.union([orderShape, errorDocument]),
    async run(ctx) {
      const order = await ctx.call(`standing.${word}`, { orderId: orderIdArg(ctx, `vendesk standing ${word} ORDER_ID`) });
      return { json: orderJson(order), text: orderText(order) };
    },
  });
}

export const standingPauseCommand = stateCommand('pause', 'Pause a standing order: nothing is bought until it is resumed');
export const standingResumeCommand = stateCommand('resume', 'Resume a paused standing order; the occurrences due while it was paused are skipped');
export const standingEndCommand = stateCommand('end', 'End a standing order: nothing more is bought; its history is kept');

export const standingApproveCommand = command({
  path: ['standing', 'approve'],
  summary: "Team workspace: approve a standing order's rows once for its next occurrences (a ceiling per run; a number of runs or an end date)",
  usage: 'vendesk standing approve ORDER_ID --ceiling NAIRA (--runs N | --until YYYY-MM-DD) [--note TEXT] [--json]',
  options: [
    { name: 'ceiling', kind: 'string', description: 'The most one occurrence may buy under this approval, in Naira' },
    { name: 'runs', kind: 'string', description: 'How many occurrences it covers' },
    { name: 'until', kind: 'string', description: 'The last day an occurrence it covers may fall on, YYYY-MM-DD' },
    { name: 'note', kind: 'string', description: 'Why (kept in the audit trail)' },
  ],
  output: z.union([approvalShape.unwrap(), errorDocument]),
  async run(ctx) {
    const orderId = orderIdArg(ctx, 'vendesk standing approve ORDER_ID --ceiling NAIRA (--runs N | --until YYYY-MM-DD)');
    const ceilingKobo = nairaOption(ctx.args, 'ceiling');
    if (ceilingKobo === undefined) throw new UsageError('--ceiling is required: the most one occurrence may buy, in Naira');
    const runs = wholeOption(ctx, 'runs', 1, 1000) ?? null;
    const until = dateOption(ctx.args, 'until') ?? null;
    if ((runs === null) === (until === null)) throw new UsageError('Give --runs N or --until YYYY-MM-DD (one of them).');
    const note = stringOption(ctx.args, 'note');
    const a = await ctx.call('standing.approve', { orderId, ceilingKobo, runs, until, ...(note ? { note } : {}) });
    const json = approvalJson(a) as NonNullable<z.infer<typeof approvalShape>>;
    return {
      json,
      text: tt`Standing approval ${a.id}: ${a.state === 'granted' ? 'granted' : `${a.approvedBy.length} of ${a.approvalsNeeded} approvals`} for version ${a.version} (rows digest ${a.rowsDigest.slice(0, 12)}), ceiling ${formatNaira(a.ceilingKobo)} per run, ${a.runs !== null ? `${a.runs} run(s)` : `until ${formatDay(a.until ?? '')}`}.`,
    };
  },
});

export const STANDING_COMMANDS = [
  standingAddCommand,
  standingEditCommand,
  standingListCommand,
  standingShowCommand,
  standingRunDueCommand,
  standingRunCommand,
  standingSkipCommand,
  standingPauseCommand,
  standingResumeCommand,
  standingEndCommand,
  standingApproveCommand,
];
