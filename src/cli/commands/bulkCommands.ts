/**
 * `vendesk bulk validate|submit|resume|status|cancel|list`: bulk airtime, data, electricity and
 * cable TV from a spreadsheet, through the same operations as the Purchases page, on the
 * connection in use (the jobs of another connection are not shown). Amounts in the JSON are Naira.
 */
import { FORCE_OPTION, outTarget, writeExportTo } from '../outFile';
import path from 'node:path';
import { z } from 'zod';
import { walletCostKobo, walletCostText } from '../../shared/bulkMoney';
import { BULK_JOB_STATES, TEMPLATE_COLUMNS, TEMPLATE_KINDS, type BulkJobView, type BulkKind, type BulkMoney } from '../../shared/contract/bulk';
import { AppError } from '../../shared/appError';
import type { AwaitingApprovalDetails } from '../../shared/contract/team';
import { localTimesIn } from '../../shared/localDates';
import { formatNaira } from '../../shared/money';
import type { App } from '../../main/app';
import { cliText } from '../cliHints';
import {
  EXIT,
  UsageError,
  command,
  nairaOption,
  numberOption,
  requireOption,
  requirePositional,
  stringOption,
  type CliContext,
  type CliFailure,
  type CliResult,
} from '../cliCommand';
import { errorDocument, isoTime, naira, nairaOrNull } from '../jsonShape';
import { lines, quoted, textTable, tt, type TerminalText } from '../terminal';

const KINDS: readonly BulkKind[] = ['airtime', 'data', 'electricity', 'cable'];

/** Which sheet of a workbook is read: the one named, else the first that has a header row (docs/imports.md). */
export const SHEET_HELP = 'Worksheet of an XLSX file (default: the first sheet with a header row)';

function kindOption(ctx: CliContext): BulkKind {
  const kind = requireOption(ctx.args, 'kind');
  const found = KINDS.find((k) => k === kind);
  if (!found) throw new UsageError(`--kind must be airtime, data, electricity or cable, got "${kind}"`);
  return found;
}

function fileArg(ctx: CliContext): string {
  return requirePositional(ctx.args, 0, 'Name the spreadsheet: vendesk bulk … FILE');
}

function jobIdArg(ctx: CliContext): string {
  return requirePositional(ctx.args, 0, 'Name the job: vendesk bulk … JOB_ID');
}

/**
 * Money of some items in the JSON: face value, and the wallet cost — null until it is known for
 * every item (`walletCostKnownFor` says for how many it is, `walletCostOfKnown` what those cost).
 */
function moneyJson(m: BulkMoney) {
  const cost = walletCostKobo(m);
  return { items: m.count, faceValue: m.faceKobo / 100, walletCost: cost === null ? null : cost / 100, walletCostKnownFor: m.costKnown, walletCostOfKnown: m.costKobo / 100 };
}

const moneyShape = z.strictObject({ items: z.number(), faceValue: naira, walletCost: nairaOrNull, walletCostKnownFor: z.number(), walletCostOfKnown: naira });

/** A job's state as scripts read it: `interrupted` when it was left running by a vendesk that stopped. */
export const JOB_STATES_IN_JSON = [...BULK_JOB_STATES, 'interrupted'] as const;

/** A job that waits for someone: paused, interrupted, or with items to check by hand. Status and resume exit 1 for it. */
export function jobNeedsYou(job: BulkJobView): boolean {
  return job.interrupted || job.state === 'paused' || job.state === 'needs_attention';
}

export const jobSummaryShape = z.strictObject({
  jobId: z.string(),
  state: z.enum(JOB_STATES_IN_JSON),
  items: z.number(),
  answered: z.number(),
  accepted: z.number(),
  rejected: z.number(),
  success: z.number(),
  failed: z.number(),
  pending: z.number(),
  uncertain: z.number(),
  notSent: z.number(),
  bought: moneyShape.describe('known bought: accepted, pending and successful items (never an uncertain one)'),
  maybeBought: moneyShape.describe('maybe bought: sent, no usable answer yet (uncertain or still sending); every limit counts them'),
  refunded: moneyShape,
  notBought: z.strictObject({ items: z.number(), faceValue: naira }),
  totalCharged: naira.describe('Naira: the face value of what was bought (bought.faceValue), kept for scripts'),
  message: z.string().optional(),
});

/** The JSON of submit, resume, status and cancel. */
export function jobSummary(job: BulkJobView): z.infer<typeof jobSummaryShape> {
  const c = job.counts;
  return {
    jobId: job.id,
    state: job.interrupted ? 'interrupted' : job.state,
    items: job.items,
    answered: job.done,
    accepted: c.accepted + c.success + c.failed + c.pending,
    rejected: c.rejected,
    success: c.success,
    failed: c.failed,
    pending: c.pending + c.accepted,
    uncertain: c.uncertain + c.sending,
    notSent: c.queued + c.held + c.cancelled,
    bought: moneyJson(job.bought),
    maybeBought: moneyJson(job.maybeBought),
    refunded: moneyJson(job.refunded),
    notBought: { items: job.notBought.count, faceValue: job.notBought.faceKobo / 100 },
    /** Kept for scripts: the face value of what was bought (`bought.faceValue`), not the wallet cost. */
    totalCharged: job.bought.faceKobo / 100,
    ...(job.message ? { message: cliText(job.message) } : {}),
  };
}

function moneyText(m: BulkMoney): string {
  return `${formatNaira(m.faceKobo)} face value, wallet cost ${walletCostText(m)}`;
}

/** A job as a person reads it: its figures first, the file's name (free text) last. */
function jobText(job: BulkJobView): TerminalText {
  const s = jobSummary(job);
  const said = [
    tt`Job ${job.id} (${job.kind}): ${s.state}`,
    tt`  ${s.items} item(s), ${s.answered} answered: ${s.success} successful, ${s.failed} failed (refunded), ${s.pending} pending, ${s.rejected} rejected, ${s.uncertain} uncertain, ${s.notSent} not sent`,
    tt`  Bought: ${job.bought.count} item(s), ${moneyText(job.bought)}`,
  ];
  if (job.maybeBought.count > 0)
    said.push(
      tt`  Maybe bought: ${job.maybeBought.count} item(s), ${formatNaira(job.maybeBought.faceKobo)} face value (no answer yet; checked against the service's log, never sent again blindly)`,
    );
  if (job.refunded.count > 0) said.push(tt`  Failed and refunded: ${job.refunded.count} item(s), ${moneyText(job.refunded)}`);
  if (job.notBought.count > 0) said.push(tt`  Not bought: ${job.notBought.count} item(s), ${formatNaira(job.notBought.faceKobo)} (nothing charged)`);
  said.push(tt`  File: ${quoted(job.fileName)}`);
  if (s.message) said.push(tt`  ${s.message}`);
  return lines(said);
}

/** Why a job that waits for someone makes the command fail, and what to run (stderr, with and without --json). */
function jobFailure(job: BulkJobView): CliFailure | undefined {
  const said = job.message ? ` ${cliText(job.message)}` : '';
  if (job.state === 'awaiting_approval') {
    return {
      exitCode: EXIT.awaitingApproval,
      message: `Bulk job ${job.id} waits for approval by another team member; nothing was bought.`,
      ...(job.teamJobId ? { hint: `An approver runs \`vendesk approve ${job.teamJobId}\`; then resume it with \`vendesk bulk resume ${job.id}\`.` } : {}),
    };
  }
  if (job.interrupted) {
    return {
      exitCode: EXIT.failed,
      message: `Bulk job ${job.id} was left running by a vendesk that stopped.`,
      hint: `Finish it with \`vendesk bulk resume ${job.id}\`: what may have been sent is checked in the log first, so nothing is bought twice.`,
    };
  }
  if (job.state === 'paused') return { exitCode: EXIT.failed, message: `Bulk job ${job.id} is paused.${said}`, hint: `Continue it with \`vendesk bulk resume ${job.id}\`.` };
  if (job.state === 'needs_attention') {
    return { exitCode: EXIT.failed, message: `Bulk job ${job.id} needs attention.${said}`, hint: `See where it stands with \`vendesk bulk status ${job.id}\`.` };
  }
  return undefined;
}

/** What status and resume answer: exit 1 when the job waits for someone (paused, interrupted, needs attention), 4 for an approval. */
export function jobResult(job: BulkJobView): CliResult<z.infer<typeof jobSummaryShape>> {
  const failure = jobFailure(job);
  return { json: jobSummary(job), text: jobText(job), ...(failure ? { failure } : {}) };
}

/**
 * Submitting or resuming a job that waits for another member's approval answers as it always has:
 * the `awaiting_approval` answer (exit 4), naming the team job and what to run once it is approved.
 */
function unlessAwaitingApproval(job: BulkJobView): BulkJobView {
  if (job.state !== 'awaiting_approval' || !job.teamJobId) return job;
  throw new AppError('awaiting_approval', job.message ?? `Bulk job ${job.id} waits for approval by another team member. Nothing was bought.`, undefined, {
    teamJobId: job.teamJobId,
    next: 'bulk',
    jobId: job.id,
  } satisfies AwaitingApprovalDetails);
}

export const JOB_EXIT_CODES = {
  0: 'the job completed or was cancelled (or runs in another vendesk)',
  1: 'the job is paused, interrupted or needs attention, or the command failed',
  4: 'team workspace, LIVE: the job waits for approval by another member (nothing bought)',
} as const;

/**
 * The progress lines of a running job, for stderr: a line when what it says changed, at most one
 * a second unless the job has something to say (a message). A job waiting for its outcomes says
 * nothing new, so it prints nothing new.
 */
export function jobProgressPrinter(ctx: Pick<CliContext, 'progress'>): (p: { done: number; total: number | null; message?: string }) => void {
  let lastAt = 0;
  let lastLine = '';
  return (p) => {
    const line = `${p.done}/${p.total ?? '?'} item(s) answered${p.message ? ` — ${p.message}` : ''}`;
    const now = Date.now();
    if (line === lastLine || (now - lastAt < 1000 && !p.message)) return;
    lastAt = now;
    lastLine = line;
    ctx.progress(line);
  };
}

/** Prints progress to stderr while a job runs; pauses the job on Ctrl-C. */
async function follow(ctx: CliContext, app: App, jobId: string, run: () => Promise<BulkJobView>): Promise<BulkJobView> {
  const print = jobProgressPrinter(ctx);
  const unsubscribe = app.events.on('job.progress', (p) => {
    if (p.jobId === jobId) print(p);
  });
  const onInterrupt = ctx.interrupted.then(() => {
    ctx.progress('Pausing: items in flight finish, nothing new is sent. Resume with: vendesk bulk resume ' + jobId);
    void ctx.call('bulk.pause', { jobId });
  });
  void onInterrupt;
  try {
    return await run();
  } finally {
    unsubscribe();
  }
}

const rowIssueShape = z.strictObject({ row: z.number(), field: z.string(), message: z.string() });

const leftOutShape = z.strictObject({
  row: z.number(),
  phone: z.string(),
  account: z.string().nullable().describe('meter or smartcard number (electricity, cable); null for airtime and data'),
  amount: naira,
  sameAsRow: z.number().nullable().describe('the earlier row of the file that buys the same thing (that one is bought)'),
  boughtRecently: z.strictObject({ at: isoTime, reference: z.string().nullable() }).nullable().describe('the purchase of the last 24 hours it repeats'),
  reason: z.string(),
});

/** A row left out as a duplicate, laid out from its fields: `  Row 12: 08031000101, ₦1,000.00 — left out: same purchase as row 5 of this file`. */
function leftOutLine(r: { row: number; phone: string; account: string | null; amountKobo: number; reason: string }): TerminalText {
  const why = localTimesIn(r.reason);
  return tt`  Row ${r.row}: ${r.account ?? r.phone}, ${formatNaira(r.amountKobo)} — left out: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
}

export const bulkValidateCommand = command({
  path: ['bulk', 'validate'],
  summary: 'Check every row of a bulk airtime, data, electricity or cable spreadsheet, counted as `bulk submit` and the window would buy it; nothing is bought',
  usage: 'vendesk bulk validate FILE --kind airtime|data|electricity|cable [--sheet NAME] [--json]',
  options: [
    { name: 'kind', kind: 'string', description: 'airtime, data, electricity or cable' },
    { name: 'sheet', kind: 'string', description: SHEET_HELP },
  ],
  output: z.strictObject({
    rows: z.number(),
    valid: z.number(),
    invalid: z.number(),
    duplicates: z.number().describe('valid rows left out as duplicates (listed in `leftOut`)'),
    toBuy: z.number().describe('valid rows that would be bought: valid less duplicates'),
    totalAmount: naira.describe('Naira: the face value of the rows to buy'),
    leftOut: z.array(leftOutShape),
    errors: z.array(rowIssueShape),
    notes: z.array(z.string()).describe('what else the check says of the sheet, such as a total row it skipped'),
  }),
  exitCodes: { 0: 'every row is valid', 3: 'some rows are invalid (each is listed in `errors`)' },
  async run(ctx) {
    const file = fileArg(ctx);
    const kind = kindOption(ctx);
    const sheet = stringOption(ctx.args, 'sheet');
    const v = await ctx.call('bulk.validate', { file: { path: file }, kind, ...(sheet ? { sheet } : {}) });
    const json = {
      rows: v.rows,
      valid: v.valid,
      invalid: v.invalid,
      duplicates: v.duplicates,
      toBuy: v.toBuy,
      totalAmount: v.totalKobo / 100,
      leftOut: v.leftOut.map((l) => ({
        row: l.row,
        phone: l.phone,
        account: l.account,
        amount: l.amountKobo / 100,
        sameAsRow: l.sameAsRow,
        boughtRecently: l.boughtRecently,
        reason: l.reason,
      })),
      errors: v.errors,
      notes: v.notes,
    };
    const text = lines([
      tt`${v.rows} row(s): ${v.valid} valid, ${v.invalid} invalid. To buy: ${v.toBuy} for ${formatNaira(v.totalKobo)}${v.duplicates > 0 ? `; ${v.duplicates} left out as duplicates (bulk submit --keep-duplicates buys them)` : ''}.`,
      ...(v.leftOut.length > 0 ? ['Left out:', ...v.leftOut.map(leftOutLine)] : []),
      ...(v.errors.length > 0 ? ['Invalid:', ...v.errors.map((e) => tt`  ${e.message}`)] : []),
      ...v.notes.map((n) => tt`${n}`),
    ]);
    if (v.invalid === 0) return { json, text };
    return {
      json,
      text,
      failure: {
        exitCode: EXIT.invalidRows,
        message: `${v.invalid} of ${v.rows} row(s) are invalid (each is listed).`,
        hint: 'Correct them in the file and check it again, or buy the valid rows only with bulk submit --skip-invalid.',
      },
    };
  },
});

export const bulkSubmitCommand = command({
  path: ['bulk', 'submit'],
  summary: 'Buy airtime, data, electricity or cable TV for every valid row of a spreadsheet and wait for the outcomes',
  usage:
    'vendesk bulk submit FILE --kind airtime|data|electricity|cable --yes [--max-total NAIRA] [--confirm-total NAIRA] [--sheet NAME] [--skip-invalid] [--keep-duplicates] [--json]',
  options: [
    { name: 'kind', kind: 'string', description: 'airtime, data, electricity or cable' },
    { name: 'sheet', kind: 'string', description: SHEET_HELP },
    { name: 'yes', kind: 'boolean', description: 'Confirm the purchase (required)' },
    { name: 'max-total', kind: 'string', description: 'Refuse when the job total is above this many Naira' },
    { name: 'confirm-total', kind: 'string', description: 'LIVE connections: the job total in Naira, typed as deliberate confirmation' },
    { name: 'skip-invalid', kind: 'boolean', description: 'Buy the valid rows even when some rows are invalid' },
    { name: 'keep-duplicates', kind: 'boolean', description: 'Also buy rows that repeat another row or a purchase of the last 24 hours' },
  ],
  output: z.union([jobSummaryShape, errorDocument.extend({ errors: z.array(rowIssueShape) })]),
  exitCodes: {
    0: 'the job completed',
    1: 'refused (nothing bought), or the job paused or needs attention',
    3: 'some rows are invalid: nothing was bought (`error` and `errors`)',
    4: 'team workspace, LIVE: sent for approval by another member; nothing bought yet (`vendesk bulk resume JOB_ID` once approved)',
  },
  async run(ctx) {
    const file = fileArg(ctx);
    const kind = kindOption(ctx);
    if (ctx.args.options.yes !== true) throw new UsageError('Add --yes to confirm: this spends money from the wallet.');
    const maxTotalKobo = nairaOption(ctx.args, 'max-total');
    // Read here so a mistyped total is a usage error; the typed text itself is what bulk.confirm checks.
    const confirmTotal = nairaOption(ctx.args, 'confirm-total') === undefined ? undefined : stringOption(ctx.args, 'confirm-total');
    const sheet = stringOption(ctx.args, 'sheet');
    const app = await ctx.app();
    const preview = await ctx.call('bulk.prepare', {
      file: { path: file },
      kind,
      ...(sheet ? { sheet } : {}),
      keepDuplicates: ctx.args.options['keep-duplicates'] === true,
    });
    const jobId = preview.job.id;
    if (preview.job.invalidRows > 0 && ctx.args.options['skip-invalid'] !== true) {
      const invalid = await ctx.call('bulk.invalidRows', { jobId, limit: 5000 });
      await ctx.call('bulk.discard', { jobId });
      const error = {
        code: 'invalid_rows',
        message: `${preview.job.invalidRows} row(s) are invalid; nothing was bought.`,
        hint: 'Fix them, or add --skip-invalid to buy only the valid rows.',
      };
      return {
        json: { error, errors: invalid.rows.map((r) => ({ row: r.row, field: r.field, message: r.message })) },
        text: lines([tt`${error.message} ${error.hint}`, ...invalid.rows.map((r) => tt`  ${r.message}`)]),
        failure: { exitCode: EXIT.invalidRows, message: error.message, hint: error.hint },
      };
    }
    const left = preview.job.counts.excluded;
    ctx.progress(
      `Job ${jobId}: ${preview.includedItems} item(s), face value ${formatNaira(preview.includedKobo)}, expected wallet cost ${formatNaira(preview.expectedCostKobo)} (an estimate)${preview.remainingKobo !== null ? `, wallet after about ${formatNaira(preview.remainingKobo)}` : ''}${left ? `; ${left} duplicate row(s) left out (--keep-duplicates buys them)` : ''}.`,
    );
    for (const d of preview.duplicates) if (d.state === 'excluded') ctx.progress(leftOutLine({ ...d, reason: d.duplicateOf ?? '' }));
    const job = await follow(ctx, app, jobId, async () => {
      try {
        return await ctx.call('bulk.confirm', { jobId, wait: true, ...(maxTotalKobo ? { maxTotalKobo } : {}), ...(confirmTotal ? { typedTotal: confirmTotal } : {}) });
      } catch (error) {
        // Refused before anything was sent: no draft is left behind (one sent for approval is kept to resume).
        const status = await ctx.call('bulk.status', { jobId }).catch(() => null);
        if (status?.state === 'draft') await ctx.call('bulk.discard', { jobId });
        throw error;
      }
    });
    return jobResult(unlessAwaitingApproval(job));
  },
});

export const bulkResumeCommand = command({
  path: ['bulk', 'resume'],
  summary: 'Continue a paused or interrupted bulk job (what may have been sent is checked first); for a finished or cancelled one, ask the service about its pending items',
  usage: 'vendesk bulk resume JOB_ID [--json]',
  options: [],
  output: jobSummaryShape,
  exitCodes: JOB_EXIT_CODES,
  async run(ctx) {
    const jobId = jobIdArg(ctx);
    const app = await ctx.app();
    const job = await follow(ctx, app, jobId, () => ctx.call('bulk.resume', { jobId, wait: true }));
    return jobResult(unlessAwaitingApproval(job));
  },
});

/** A command on one job that prints where it stands after `op` (the same shape as submit). */
function jobCommand(path: string[], summary: string, op: 'bulk.checkAgain' | 'bulk.cancel', exitCodes?: typeof JOB_EXIT_CODES) {
  return command({
    path,
    summary,
    usage: `vendesk ${path.join(' ')} JOB_ID [--json]`,
    options: [],
    output: jobSummaryShape,
    ...(exitCodes ? { exitCodes } : {}),
    async run(ctx) {
      const jobId = jobIdArg(ctx);
      const job = await ctx.call(op, { jobId });
      // Status says with its exit code whether the job waits for someone; a cancel that worked is done.
      return exitCodes ? jobResult(job) : { json: jobSummary(job), text: jobText(job) };
    },
  });
}

export const bulkStatusCommand = jobCommand(
  ['bulk', 'status'],
  "Where a bulk job stands; its pending items and unknown wallet costs are asked about first (the service's log, then requery)",
  'bulk.checkAgain',
  JOB_EXIT_CODES,
);

export const bulkCancelCommand = jobCommand(
  ['bulk', 'cancel'],
  'Cancel a bulk job: rows not yet sent are not bought; what the service accepted is still followed to its outcome',
  'bulk.cancel',
);

export const bulkListCommand = command({
  path: ['bulk', 'list'],
  summary: 'The recent bulk jobs of the connection in use, newest first',
  usage: 'vendesk bulk list [--limit N] [--json]',
  options: [{ name: 'limit', kind: 'string', description: 'How many jobs (1–500, default 20)' }],
  output: z.array(jobSummaryShape.extend({ kind: z.enum(['airtime', 'data', 'electricity', 'cable']), fileName: z.string(), confirmedAt: isoTime.nullable() })),
  async run(ctx) {
    const limit = numberOption(ctx.args, 'limit') ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${limit}"`);
    const app = await ctx.app();
    const jobs = (await ctx.call('bulk.list', { limit })).filter((j) => j.state !== 'draft');
    // The figures first; the file's name (free text from the spreadsheet's name) last, escaped.
    const text =
      jobs.length === 0
        ? tt`No bulk jobs on this connection (${app.connection.kind.toUpperCase()} ${app.connection.profileName}).`
        : textTable([
            ['Job', 'Confirmed', 'Kind', 'State', 'Items', 'Successful', 'Bought', 'Maybe bought', 'File'],
            ...jobs.map((j) => [
              j.id,
              j.confirmedAt ?? j.createdAt,
              j.kind,
              jobSummary(j).state,
              j.items,
              j.counts.success,
              moneyText(j.bought),
              j.maybeBought.count > 0 ? `${formatNaira(j.maybeBought.faceKobo)} (${j.maybeBought.count} item(s))` : '—',
              j.fileName,
            ]),
          ]);
    return { json: jobs.map((j) => ({ ...jobSummary(j), kind: j.kind, fileName: j.fileName, confirmedAt: j.confirmedAt })), text };
  },
});

export const bulkExportCommand = command({
  path: ['bulk', 'export'],
  summary: "A bulk job's results, one row per spreadsheet row with its outcome, reference and wallet cost, as XLSX or CSV",
  usage: 'vendesk bulk export JOB_ID --out FILE.xlsx|FILE.csv [--json]',
  options: [{ name: 'out', kind: 'string', description: 'File to write; .xlsx (with a Summary sheet) or .csv' }, FORCE_OPTION],
  output: z.strictObject({ jobId: z.string(), path: z.string(), format: z.enum(['xlsx', 'csv']), rows: z.number(), bytes: z.number() }),
  async run(ctx) {
    const jobId = jobIdArg(ctx);
    const out = requireOption(ctx.args, 'out');
    outTarget(ctx.args, out, 'job results.xlsx');
    const ext = path.extname(out).toLowerCase();
    if (ext !== '.xlsx' && ext !== '.csv') throw new UsageError(`--out must end in .xlsx or .csv, got "${out}"`);
    const format = ext === '.xlsx' ? 'xlsx' : 'csv';
    const written = await ctx.call('bulk.export', { jobId, format });
    const file = writeExportTo(written.path, out, ctx.args);
    return { json: { jobId, path: file, format, rows: written.rows, bytes: written.bytes }, text: tt`Wrote the results of job ${jobId} (${written.rows} row(s)) to ${file}.` };
  },
});

export const bulkTemplateCommand = command({
  path: ['bulk', 'template'],
  summary: 'A spreadsheet template to fill in: the columns vendesk reads for airtime, data, electricity, cable or contacts, with two example rows',
  usage: 'vendesk bulk template airtime|data|electricity|cable|contacts --out FILE.xlsx|FILE.csv [--json]',
  options: [{ name: 'out', kind: 'string', description: 'File to write; .xlsx (phone and account columns formatted as text, a sheet of notes) or .csv' }, FORCE_OPTION],
  output: z.strictObject({ kind: z.enum(TEMPLATE_KINDS), path: z.string(), format: z.enum(['xlsx', 'csv']), columns: z.array(z.string()) }),
  async run(ctx) {
    const kind = requirePositional(ctx.args, 0, `Name the kind: vendesk bulk template ${TEMPLATE_KINDS.join('|')} --out FILE`);
    if (!(TEMPLATE_KINDS as readonly string[]).includes(kind)) throw new UsageError(`The kind must be one of ${TEMPLATE_KINDS.join(', ')}, got "${kind}"`);
    const out = requireOption(ctx.args, 'out');
    outTarget(ctx.args, out, `${kind} template.xlsx`);
    const ext = path.extname(out).toLowerCase();
    if (ext !== '.xlsx' && ext !== '.csv') throw new UsageError(`--out must end in .xlsx or .csv, got "${out}"`);
    const format = ext === '.xlsx' ? 'xlsx' : 'csv';
    const templateKind = kind as (typeof TEMPLATE_KINDS)[number];
    const written = await ctx.call('bulk.template', { kind: templateKind, format });
    const file = writeExportTo(written.path, out, ctx.args);
    const columns = [...TEMPLATE_COLUMNS[templateKind]];
    return { json: { kind: templateKind, path: file, format, columns }, text: tt`Wrote the ${kind} template to ${file}: ${columns.join(', ')}, with two example rows to replace.` };
  },
});

function capText(kobo: number | null): string {
  return kobo === null ? 'no cap' : formatNaira(kobo);
}

/** `off` (no cap) or an amount of Naira. */
function capOption(ctx: CliContext, name: string): number | null | undefined {
  const text = stringOption(ctx.args, name);
  if (text === undefined) return undefined;
  if (/^(off|none)$/i.test(text.trim())) return null;
  try {
    return nairaOption(ctx.args, name);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${error.message.replace(/\.$/, '')}, or off for no cap.`);
    throw error;
  }
}

export const bulkCapsCommand = command({
  path: ['bulk', 'caps'],
  summary: "Read or set the spending caps of bulk jobs on the connection in use (the window's Limits for bulk jobs)",
  usage: 'vendesk bulk caps [--per-job NAIRA|off] [--per-day NAIRA|off] [--json]',
  options: [
    { name: 'per-job', kind: 'string', description: 'Largest total one bulk job may have, in Naira; off for no cap' },
    {
      name: 'per-day',
      kind: 'string',
      description:
        'Most that may be bought or maybe bought on this connection in one Lagos day (bulk jobs and single purchases; only bulk jobs are refused), in Naira; off for no cap',
    },
  ],
  output: z.strictObject({
    connection: z.string(),
    perJob: nairaOrNull.describe('Naira; null: no cap'),
    perDay: nairaOrNull.describe('Naira; null: no cap'),
    changed: z.boolean(),
  }),
  async run(ctx) {
    const perJob = capOption(ctx, 'per-job');
    const perDay = capOption(ctx, 'per-day');
    const app = await ctx.app();
    const changed = perJob !== undefined || perDay !== undefined;
    const caps = changed
      ? await ctx.call('bulk.settings.set', { ...(perJob !== undefined ? { capPerJobKobo: perJob } : {}), ...(perDay !== undefined ? { capPerDayKobo: perDay } : {}) })
      : await ctx.call('bulk.settings.get', {});
    const connection = `${app.connection.kind.toUpperCase()} ${app.connection.profileName}`;
    return {
      json: { connection, perJob: caps.capPerJobKobo === null ? null : caps.capPerJobKobo / 100, perDay: caps.capPerDayKobo === null ? null : caps.capPerDayKobo / 100, changed },
      text: tt`${changed ? 'Caps set' : 'Caps'} for bulk jobs on ${connection}: per job ${capText(caps.capPerJobKobo)}, per day ${capText(caps.capPerDayKobo)}.`,
    };
  },
});

export const BULK_COMMANDS = [
  bulkValidateCommand,
  bulkSubmitCommand,
  bulkResumeCommand,
  bulkStatusCommand,
  bulkCancelCommand,
  bulkListCommand,
  bulkExportCommand,
  bulkTemplateCommand,
  bulkCapsCommand,
];
