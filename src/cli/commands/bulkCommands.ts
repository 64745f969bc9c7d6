/**
 * `vendesk bulk validate|submit|resume|status|cancel|list`: bulk airtime, data, electricity and
 * cable TV from a spreadsheet, through the same operations as the Purchases page, on the
 * connection in use (the jobs of another connection are not shown). Amounts in the JSON are Naira.
 */
import { walletCostKobo, walletCostText } from '../../shared/bulkMoney';
import type { BulkJobView, BulkKind, BulkMoney } from '../../shared/contract/bulk';
import { formatNaira } from '../../shared/money';
import type { App } from '../../main/app';
import { callOrThrow } from '../callOrThrow';
import { EXIT, UsageError, nairaOption, numberOption, requireOption, requirePositional, stringOption, type CliCommand, type CliContext, type CliResult } from '../cliCommand';

const KINDS: readonly BulkKind[] = ['airtime', 'data', 'electricity', 'cable'];

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

/** The JSON of submit, resume, status and cancel. */
export function jobSummary(job: BulkJobView) {
  const c = job.counts;
  return {
    jobId: job.id,
    state: job.state,
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
    refunded: moneyJson(job.refunded),
    notBought: { items: job.notBought.count, faceValue: job.notBought.faceKobo / 100 },
    /** Kept for scripts: the face value of what was bought (`bought.faceValue`), not the wallet cost. */
    totalCharged: job.bought.faceKobo / 100,
    ...(job.message ? { message: job.message } : {}),
  };
}

function moneyText(m: BulkMoney): string {
  return `${formatNaira(m.faceKobo)} face value, wallet cost ${walletCostText(m)}`;
}

function jobText(job: BulkJobView): string {
  const s = jobSummary(job);
  const lines = [
    `Job ${job.id} (${job.kind}, ${job.fileName}): ${job.state}`,
    `  ${s.items} item(s), ${s.answered} answered: ${s.success} successful, ${s.failed} failed (refunded), ${s.pending} pending, ${s.rejected} rejected, ${s.uncertain} uncertain, ${s.notSent} not sent`,
    `  Bought: ${job.bought.count} item(s), ${moneyText(job.bought)}`,
  ];
  if (job.refunded.count > 0) lines.push(`  Failed and refunded: ${job.refunded.count} item(s), ${moneyText(job.refunded)}`);
  if (job.notBought.count > 0) lines.push(`  Not bought: ${job.notBought.count} item(s), ${formatNaira(job.notBought.faceKobo)} (nothing charged)`);
  if (job.message) lines.push(`  ${job.message}`);
  return lines.join('\n');
}

/** What submit and resume answer: done only when the job completed. */
function finishedJobResult(job: BulkJobView): CliResult {
  return { exitCode: job.state === 'completed' ? EXIT.ok : EXIT.failed, json: jobSummary(job), text: jobText(job) };
}

/** Prints progress to stderr while a job runs; pauses the job on Ctrl-C. */
async function follow(ctx: CliContext, app: App, jobId: string, run: () => Promise<BulkJobView>): Promise<BulkJobView> {
  let last = 0;
  const unsubscribe = app.events.subscribe((event) => {
    if (event.name !== 'job.progress') return;
    const p = event.payload as { jobId: string; done: number; total: number | null; message?: string };
    if (p.jobId !== jobId) return;
    const now = Date.now();
    if (now - last < 1000 && !p.message) return;
    last = now;
    ctx.progress(`${p.done}/${p.total ?? '?'} item(s) answered${p.message ? ` — ${p.message}` : ''}`);
  });
  const onInterrupt = ctx.interrupted.then(() => {
    ctx.progress('Pausing: items in flight finish, nothing new is sent. Resume with: vendesk bulk resume ' + jobId);
    void callOrThrow(app, 'bulk.pause', { jobId });
  });
  void onInterrupt;
  try {
    return await run();
  } finally {
    unsubscribe();
  }
}

export const bulkValidateCommand: CliCommand = {
  path: ['bulk', 'validate'],
  summary: 'Check every row of a bulk airtime, data, electricity or cable spreadsheet; nothing is bought',
  usage: 'vendesk bulk validate FILE --kind airtime|data|electricity|cable [--sheet NAME] [--json]',
  options: [
    { name: 'kind', kind: 'string', description: 'airtime, data, electricity or cable' },
    { name: 'sheet', kind: 'string', description: 'Worksheet of an XLSX file (default: the first)' },
  ],
  async run(ctx) {
    const file = fileArg(ctx);
    const kind = kindOption(ctx);
    const app = await ctx.app();
    const sheet = stringOption(ctx.args, 'sheet');
    const v = await callOrThrow(app, 'bulk.validate', { file: { path: file }, kind, ...(sheet ? { sheet } : {}) });
    const json = { rows: v.rows, valid: v.valid, invalid: v.invalid, duplicates: v.duplicates, totalAmount: v.totalKobo / 100, errors: v.errors };
    const text = [
      `${v.rows} row(s): ${v.valid} valid, ${v.invalid} invalid, ${v.duplicates} duplicate(s). Total of valid rows: ${formatNaira(v.totalKobo)}.`,
      ...v.errors.map((e) => `  ${e.message}`),
    ].join('\n');
    return { exitCode: v.invalid > 0 ? EXIT.invalidRows : EXIT.ok, json, text };
  },
};

export const bulkSubmitCommand: CliCommand = {
  path: ['bulk', 'submit'],
  summary: 'Buy airtime, data, electricity or cable TV for every valid row of a spreadsheet and wait for the outcomes',
  usage: 'vendesk bulk submit FILE --kind airtime|data|electricity|cable --yes [--max-total NAIRA] [--confirm-total NAIRA] [--sheet NAME] [--skip-invalid] [--keep-duplicates] [--json]',
  options: [
    { name: 'kind', kind: 'string', description: 'airtime, data, electricity or cable' },
    { name: 'sheet', kind: 'string', description: 'Worksheet of an XLSX file (default: the first)' },
    { name: 'yes', kind: 'boolean', description: 'Confirm the purchase (required)' },
    { name: 'max-total', kind: 'string', description: 'Refuse when the job total is above this many Naira' },
    { name: 'confirm-total', kind: 'string', description: 'LIVE connections: the job total in Naira, typed as deliberate confirmation' },
    { name: 'skip-invalid', kind: 'boolean', description: 'Buy the valid rows even when some rows are invalid' },
    { name: 'keep-duplicates', kind: 'boolean', description: 'Also buy rows that repeat another row or a purchase of the last 24 hours' },
  ],
  async run(ctx) {
    const file = fileArg(ctx);
    const kind = kindOption(ctx);
    if (ctx.args.options.yes !== true) throw new UsageError('Add --yes to confirm: this spends money from the wallet.');
    const maxTotalKobo = nairaOption(ctx.args, 'max-total');
    // Read here so a mistyped total is a usage error; the typed text itself is what bulk.confirm checks.
    const confirmTotal = nairaOption(ctx.args, 'confirm-total') === undefined ? undefined : stringOption(ctx.args, 'confirm-total');
    const sheet = stringOption(ctx.args, 'sheet');
    const app = await ctx.app();
    const preview = await callOrThrow(app, 'bulk.prepare', {
      file: { path: file },
      kind,
      ...(sheet ? { sheet } : {}),
      keepDuplicates: ctx.args.options['keep-duplicates'] === true,
    });
    const jobId = preview.job.id;
    if (preview.job.invalidRows > 0 && ctx.args.options['skip-invalid'] !== true) {
      const invalid = await callOrThrow(app, 'bulk.invalidRows', { jobId, limit: 5000 });
      await callOrThrow(app, 'bulk.discard', { jobId });
      return {
        exitCode: EXIT.invalidRows,
        json: { error: { code: 'invalid_rows', message: `${preview.job.invalidRows} row(s) are invalid; nothing was bought.`, hint: 'Fix them, or add --skip-invalid to buy only the valid rows.' }, errors: invalid.rows },
        text: [`${preview.job.invalidRows} row(s) are invalid; nothing was bought. Fix them, or add --skip-invalid to buy only the valid rows.`, ...invalid.rows.map((r) => `  ${r.message}`)].join('\n'),
      };
    }
    const left = preview.job.counts.excluded;
    ctx.progress(
      `Job ${jobId}: ${preview.includedItems} item(s), ${formatNaira(preview.includedKobo)}${left ? `; ${left} duplicate row(s) left out (--keep-duplicates buys them)` : ''}.`,
    );
    const job = await follow(ctx, app, jobId, async () => {
      try {
        return await callOrThrow(app, 'bulk.confirm', { jobId, wait: true, ...(maxTotalKobo ? { maxTotalKobo } : {}), ...(confirmTotal ? { typedTotal: confirmTotal } : {}) });
      } catch (error) {
        // Refused before anything was sent: no draft is left behind.
        const status = await callOrThrow(app, 'bulk.status', { jobId }).catch(() => null);
        if (status?.state === 'draft') await callOrThrow(app, 'bulk.discard', { jobId });
        throw error;
      }
    });
    return finishedJobResult(job);
  },
};

export const bulkResumeCommand: CliCommand = {
  path: ['bulk', 'resume'],
  summary: 'Continue a paused or interrupted bulk job (what may have been sent is checked first); for a finished or cancelled one, ask the service about its pending items',
  usage: 'vendesk bulk resume JOB_ID [--json]',
  options: [],
  async run(ctx) {
    const jobId = jobIdArg(ctx);
    const app = await ctx.app();
    const job = await follow(ctx, app, jobId, () => callOrThrow(app, 'bulk.resume', { jobId, wait: true }));
    return finishedJobResult(job);
  },
};

/** A command on one job that prints where it stands after `op` (the same shape as submit). */
function jobCommand(path: string[], summary: string, op: 'bulk.checkAgain' | 'bulk.cancel'): CliCommand {
  return {
    path,
    summary,
    usage: `vendesk ${path.join(' ')} JOB_ID [--json]`,
    options: [],
    async run(ctx) {
      const jobId = jobIdArg(ctx);
      const app = await ctx.app();
      const job = await callOrThrow(app, op, { jobId });
      return { exitCode: EXIT.ok, json: jobSummary(job), text: jobText(job) };
    },
  };
}

export const bulkStatusCommand = jobCommand(
  ['bulk', 'status'],
  "Where a bulk job stands; its pending items and unknown wallet costs are asked about first (the service's log, then requery)",
  'bulk.checkAgain',
);

export const bulkCancelCommand = jobCommand(
  ['bulk', 'cancel'],
  'Cancel a bulk job: rows not yet sent are not bought; what the service accepted is still followed to its outcome',
  'bulk.cancel',
);

export const bulkListCommand: CliCommand = {
  path: ['bulk', 'list'],
  summary: 'The recent bulk jobs of the connection in use, newest first',
  usage: 'vendesk bulk list [--limit N] [--json]',
  options: [{ name: 'limit', kind: 'string', description: 'How many jobs (1–500, default 20)' }],
  async run(ctx) {
    const limit = numberOption(ctx.args, 'limit') ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500, got "${limit}"`);
    const app = await ctx.app();
    const jobs = (await callOrThrow(app, 'bulk.list', { limit })).filter((j) => j.state !== 'draft');
    const text = jobs.length === 0
      ? `No bulk jobs on this connection (${app.connection.kind.toUpperCase()} ${app.connection.profileName}).`
      : jobs
          .map((j) => `${j.id}  ${j.confirmedAt ?? j.createdAt}  ${j.kind}  ${j.state}  ${j.items} item(s), ${j.counts.success} successful, bought ${moneyText(j.bought)}  ${j.fileName}`)
          .join('\n');
    return { exitCode: EXIT.ok, json: jobs.map((j) => ({ ...jobSummary(j), kind: j.kind, fileName: j.fileName, confirmedAt: j.confirmedAt })), text };
  },
};

export const BULK_COMMANDS: CliCommand[] = [bulkValidateCommand, bulkSubmitCommand, bulkResumeCommand, bulkStatusCommand, bulkCancelCommand, bulkListCommand];
