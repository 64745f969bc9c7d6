/**
 * Personalised SMS from a contacts sheet on the command line (docs/messaging.md, *Personalised
 * messages from a contacts sheet*): `vendesk sms send --contacts FILE --message TEXT` fills
 * `{Column heading}` from each row, prints the preview (each message's pages and charge, the rows
 * left out and why) on stderr first, then sends it as a job; `vendesk sms jobs`, `sms job ID`,
 * `sms resume ID` and `sms cancel ID` follow such jobs. Ctrl-C pauses a job after the message in
 * flight; `sms resume` checks what may have been sent in the service's history before sending more.
 */
import { z } from 'zod';
import type { JobMessageView, MessageJobView, SheetMessagesPreview } from '../../shared/contract/messaging';
import { JOB_MESSAGE_STATES, type JobMessageState } from '../../shared/contract/messaging';
import { AppError } from '../../shared/appError';
import { formatDateTime } from '../../shared/localDates';
import { formatNaira } from '../../shared/money';
import { placeholderText } from '../../shared/messagePlaceholders';
import { lines, textTable as table, tt, type TerminalText } from '../terminal';
import { EXIT, UsageError, command, numberOption, requirePositional, stringOption, type CliContext, type CliFailure, type CliResult } from '../cliCommand';
import { isoTime, naira } from '../jsonShape';

// ---------------------------------------------------------------- JSON (amounts in Naira)

const countsShape = z.strictObject(Object.fromEntries(JOB_MESSAGE_STATES.map((s) => [s, z.number()])) as Record<JobMessageState, z.ZodNumber>);

export const messageJobShape = z.strictObject({
  id: z.number(),
  origin: z.enum(['sheet', 'service']).describe('sheet: a contacts sheet; service: another part of vendesk (a standing order)'),
  label: z.string().describe("the file's name, or what made the job"),
  senderId: z.string(),
  text: z.string().nullable().describe('the text with its placeholders'),
  state: z.enum(['running', 'paused', 'cancelled', 'completed', 'needs_attention']),
  interrupted: z.boolean().describe('left running by a vendesk that stopped: resume it'),
  note: z.string().nullable().describe('why it is paused or needs attention'),
  messages: z.number(),
  counts: countsShape,
  estimatedCost: naira.describe('all its messages at ₦4 a page'),
  charged: naira.describe("what the sent messages were charged: the service's figure, else the estimate"),
  chargedAsQuoted: z.number().describe('sent messages whose answer gave no cost (charged at the estimate)'),
  uncertainCost: naira.describe('the estimate of messages whose answer was lost: it may have left the wallet'),
  createdAt: isoTime,
  finishedAt: isoTime.nullable(),
});

export function messageJobJson(j: MessageJobView): z.infer<typeof messageJobShape> {
  const { estimatedKobo, chargedKobo, uncertainKobo, ...rest } = j;
  return { ...rest, estimatedCost: estimatedKobo / 100, charged: chargedKobo / 100, uncertainCost: uncertainKobo / 100 };
}

const rowProblem = z.strictObject({ row: z.number(), message: z.string() });

export const sheetPreviewShape = z.strictObject({
  fileName: z.string(),
  sheet: z.string().nullable(),
  rows: z.number().describe('data rows read'),
  placeholders: z.array(z.strictObject({ name: z.string(), column: z.string().nullable().describe('null: the sheet has no such column') })),
  sample: z.array(z.strictObject({ row: z.number(), phone: z.string(), text: z.string(), pages: z.number() })).describe('the first messages, as they will be sent'),
  messages: z.number().describe('rows that get a message'),
  cost: naira.describe('₦4 a page, each message priced on its own text'),
  pages: z.strictObject({ fewest: z.number(), most: z.number(), total: z.number() }),
  incompleteCount: z.number(),
  incomplete: z.array(z.strictObject({ row: z.number(), phone: z.string(), empty: z.array(z.string()) })).describe('the first 200'),
  invalidCount: z.number(),
  invalid: z.array(rowProblem).describe('the first 200'),
  duplicateCount: z.number(),
  duplicates: z.array(rowProblem).describe('the first 200'),
});

function previewJson(p: SheetMessagesPreview): z.infer<typeof sheetPreviewShape> {
  return {
    fileName: p.fileName,
    sheet: p.sheet,
    rows: p.rows,
    placeholders: p.placeholders,
    sample: p.sample,
    messages: p.messages,
    cost: p.smsKobo / 100,
    pages: p.pages,
    incompleteCount: p.incompleteCount,
    incomplete: p.incomplete,
    invalidCount: p.invalidCount,
    invalid: p.invalid,
    duplicateCount: p.duplicateCount,
    duplicates: p.duplicates,
  };
}

const jobMessageShape = z.strictObject({
  seq: z.number(),
  row: z.number().nullable().describe('its row of the sheet'),
  phone: z.string(),
  body: z.string(),
  state: z.enum(JOB_MESSAGE_STATES),
  pages: z.number(),
  estimatedCost: naira,
  charged: naira.nullable().describe('sent only'),
  costSource: z.enum(['service', 'quoted']).nullable(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  attempts: z.number(),
});

function jobMessageJson(m: JobMessageView): z.infer<typeof jobMessageShape> {
  const { estimatedKobo, chargedKobo, ...rest } = m;
  return { ...rest, estimatedCost: estimatedKobo / 100, charged: chargedKobo === null ? null : chargedKobo / 100 };
}

// ---------------------------------------------------------------- text

const n = (x: number) => x.toLocaleString('en-NG');

function previewText(p: SheetMessagesPreview): TerminalText {
  const unknown = p.placeholders.filter((x) => x.column === null);
  return lines([
    tt`${p.fileName}${p.sheet ? ` (sheet ${p.sheet})` : ''}: ${n(p.rows)} row(s)`,
    ...(p.textProblems.length ? [tt`The text cannot be sent: ${p.textProblems.join(' ')}`] : []),
    ...p.placeholders.map((x) => (x.column === null ? tt`  ${placeholderText(x.name)} → NO COLUMN of that heading` : tt`  ${placeholderText(x.name)} → column ${x.column}`)),
    ...(unknown.length ? [tt`Columns of the sheet: ${p.headers.join(', ')}`] : []),
    ...p.sample.flatMap((s) => [tt`Row ${s.row} → ${s.phone} (${s.pages} page${s.pages === 1 ? '' : 's'}, ${formatNaira(s.pages * 400)}):`, tt`  ${s.text}`]),
    ...(p.messages > p.sample.length ? [tt`… and ${n(p.messages - p.sample.length)} more message(s)`] : []),
    tt`Messages: ${n(p.messages)} · pages ${p.pages.fewest === p.pages.most ? p.pages.most : `${p.pages.fewest}–${p.pages.most}`} each, ${n(p.pages.total)} in all · charge ${formatNaira(p.smsKobo)} (₦4 a page)`,
    ...(p.incompleteCount
      ? [
          tt`Rows with an empty value (no message unless --skip-empty leaves them out): ${n(p.incompleteCount)}`,
          ...p.incomplete.slice(0, 10).map((r) => tt`  Row ${r.row} (${r.phone}): ${r.empty.map(placeholderText).join(', ')} empty`),
        ]
      : []),
    ...(p.invalidCount ? [tt`Rows that cannot be sent (left out only with --skip-invalid): ${n(p.invalidCount)}`, ...p.invalid.slice(0, 10).map((r) => tt`  ${r.message}`)] : []),
    ...(p.duplicateCount ? [tt`Repeated numbers (one message each, the first row's): ${n(p.duplicateCount)}`] : []),
  ]);
}

function jobText(j: MessageJobView): TerminalText {
  const c = j.counts;
  return lines([
    tt`Job of messages ${j.id} — ${j.label} — ${j.state.replace('_', ' ')}${j.interrupted ? ' (interrupted: resume it)' : ''}`,
    tt`Sender:    ${j.senderId}`,
    tt`Messages:  ${n(j.messages)}: ${n(c.sent)} sent, ${n(c.queued)} not sent yet, ${n(c.failed)} refused, ${n(c.uncertain + c.sending)} may have been sent, ${n(c.cancelled)} cancelled`,
    tt`Charged:   ${formatNaira(j.chargedKobo)}${j.chargedAsQuoted ? ` (${n(j.chargedAsQuoted)} at the estimate: the service gave no cost)` : ''} of ${formatNaira(j.estimatedKobo)} estimated`,
    ...(j.uncertainKobo ? [tt`May have left the wallet: ${formatNaira(j.uncertainKobo)} (messages whose answer was lost; checked in the service's history)`] : []),
    ...(j.note ? [tt`Note:      ${j.note}`] : []),
  ]);
}

/** The exit a job's state gives: 0 when every message has its answer, 1 when it waits for someone. */
function jobFailure(j: MessageJobView): CliFailure | undefined {
  if (j.state === 'completed' || j.state === 'cancelled') return undefined;
  if (j.state === 'needs_attention') {
    return {
      exitCode: EXIT.failed,
      message: `Job of messages ${j.id} needs attention: ${j.note ?? 'some messages may have been sent'}`,
      hint: `See them with \`vendesk sms job ${j.id}\`.`,
    };
  }
  return {
    exitCode: EXIT.failed,
    message: `Job of messages ${j.id} is ${j.state === 'running' ? 'interrupted' : 'paused'}.${j.note ? ` ${j.note}` : ''}`,
    hint: `Continue it with \`vendesk sms resume ${j.id}\`: what may have been sent is checked in the service's history first, so nobody gets a message twice.`,
  };
}

function jobResult(j: MessageJobView): CliResult<z.infer<typeof messageJobShape>> {
  const failure = jobFailure(j);
  return { json: messageJobJson(j), text: jobText(j), ...(failure ? { failure } : {}) };
}

/** Prints a job's progress on stderr as it sends (its number first, so it can be resumed). */
async function watchingJob<T>(ctx: CliContext, run: () => Promise<T>): Promise<T> {
  const app = await ctx.app();
  const named = new Set<number>();
  let lastDone = -1;
  const unsubscribe = app.events.on('messaging.job.progress', (p) => {
    if (!named.has(p.jobId)) {
      named.add(p.jobId);
      ctx.progress(`Job of messages ${p.jobId}: sending (Ctrl-C pauses it after the message in flight; resume with vendesk sms resume ${p.jobId})`);
    }
    if (p.done === lastDone && p.state === 'running') return;
    lastDone = p.done;
    if (p.done % 50 === 0 || p.done === p.total || p.state !== 'running') ctx.progress(`${p.message ?? `${n(p.done)} of ${p.total === null ? '?' : n(p.total)}`}`);
  });
  try {
    return await run();
  } finally {
    unsubscribe();
  }
}

/** Refusals of a sheet's rows exit 3, as any input with invalid rows does. */
const ROW_REFUSALS = new Set(['rows_incomplete', 'invalid_rows', 'placeholder_unknown']);

/** `vendesk sms send --contacts FILE --message TEXT …`: the preview on stderr, then the job. */
export async function sendFromSheet(ctx: CliContext, input: { file: string; text: string; senderId: string; dryRun: boolean }): Promise<CliResult> {
  const a = ctx.args;
  const sheet = stringOption(a, 'sheet');
  const base = { file: { path: input.file }, text: input.text, ...(sheet ? { sheet } : {}) };
  const preview = await ctx.call('messaging.sheet.preview', base);
  if (input.dryRun) return { json: { dryRun: true as const, preview: previewJson(preview) }, text: tt`Would send (nothing sent):\n${previewText(preview)}` };
  ctx.progress(previewText(preview));
  try {
    const job = await watchingJob(ctx, () =>
      ctx.call('messaging.sheet.send', {
        ...base,
        senderId: input.senderId,
        skipEmpty: a.options['skip-empty'] === true,
        skipInvalid: a.options['skip-invalid'] === true,
        confirmedTotalKobo: preview.smsKobo,
        wait: true,
      }),
    );
    return jobResult(job);
  } catch (error) {
    if (error instanceof AppError && ROW_REFUSALS.has(error.code)) {
      return {
        json: { dryRun: true as const, preview: previewJson(preview) },
        text: previewText(preview),
        failure: { exitCode: EXIT.invalidRows, message: error.message, hint: error.hint },
      };
    }
    throw error;
  }
}

export const SHEET_SEND_OPTIONS = [
  { name: 'contacts', kind: 'string', description: 'Send each row of this contacts sheet (CSV or XLSX) its own message: {Column heading} in --message is filled from the row' },
  { name: 'skip-empty', kind: 'boolean', description: 'With --contacts: leave out rows with an empty value for a placeholder (else nothing is sent)' },
  { name: 'skip-invalid', kind: 'boolean', description: 'With --contacts: leave out rows that cannot be sent (else nothing is sent)' },
] as const;

export const sheetSendShapes = [messageJobShape, z.strictObject({ dryRun: z.literal(true), preview: sheetPreviewShape })] as const;

function jobId(ctx: CliContext): number {
  const raw = requirePositional(ctx.args, 0, 'The job number (vendesk sms jobs) is required');
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new UsageError(`The job number must be a whole number, like 12; got "${raw}"`);
  return Number(raw);
}

export const smsJobsCommand = command({
  path: ['sms', 'jobs'],
  summary: 'Jobs of personalised messages (from contacts sheets, standing orders), newest first',
  usage: 'vendesk sms jobs [--limit N] [--json]',
  options: [{ name: 'limit', kind: 'string', description: 'How many (1–200, default 20)' }],
  output: z.array(messageJobShape),
  async run(ctx) {
    const limit = numberOption(ctx.args, 'limit') ?? 20;
    if (!Number.isInteger(limit)) throw new UsageError('--limit must be a whole number');
    const list = await ctx.call('messaging.jobs.list', { limit });
    const rows = list.map((j) => [
      String(j.id),
      formatDateTime(j.createdAt),
      j.state.replace('_', ' ') + (j.interrupted ? ' (interrupted)' : ''),
      `${n(j.counts.sent)}/${n(j.messages)}`,
      formatNaira(j.chargedKobo),
      j.label,
    ]);
    return { json: list.map(messageJobJson), text: list.length ? table([['JOB', 'CREATED (LAGOS)', 'STATE', 'SENT', 'CHARGED', 'FROM'], ...rows]) : tt`No jobs of messages yet.` };
  },
});

export const smsJobCommand = command({
  path: ['sms', 'job'],
  summary: 'One job of personalised messages and its messages, each with its outcome and charge',
  usage: 'vendesk sms job ID [--state sent|queued|failed|uncertain|cancelled] [--limit N] [--offset N] [--json]',
  options: [
    { name: 'state', kind: 'string', description: 'Only messages in these states, separated by commas' },
    { name: 'limit', kind: 'string', description: 'Messages listed (1–1000, default 100)' },
    { name: 'offset', kind: 'string', description: 'Messages to skip first (default 0)' },
  ],
  output: z.strictObject({ job: messageJobShape, matching: z.number(), offset: z.number(), messages: z.array(jobMessageShape) }),
  async run(ctx) {
    const id = jobId(ctx);
    const states = stringOption(ctx.args, 'state')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const s of states ?? [])
      if (!(JOB_MESSAGE_STATES as readonly string[]).includes(s)) throw new UsageError(`--state: "${s}" is not a state; use ${JOB_MESSAGE_STATES.join(', ')}`);
    const limit = numberOption(ctx.args, 'limit') ?? 100;
    const offset = numberOption(ctx.args, 'offset') ?? 0;
    const page = await ctx.call('messaging.jobs.get', { id, limit, offset, ...(states ? { states: states as JobMessageState[] } : {}) });
    const rows = page.messages.map((m) => [
      m.row === null ? '—' : String(m.row),
      m.phone,
      m.state,
      String(m.pages),
      m.chargedKobo === null ? '—' : formatNaira(m.chargedKobo) + (m.costSource === 'quoted' ? ' (est.)' : ''),
      m.body.length > 50 ? `${m.body.slice(0, 49)}…` : m.body,
    ]);
    return {
      json: { job: messageJobJson(page.job), matching: page.matching, offset: page.offset, messages: page.messages.map(jobMessageJson) },
      text: lines([
        jobText(page.job),
        '',
        table([['ROW', 'TO', 'STATE', 'PAGES', 'CHARGED', 'TEXT'], ...rows]),
        tt`${n(page.matching)} message(s) match; listed from ${page.offset + 1}.`,
      ]),
    };
  },
});

export const smsResumeCommand = command({
  path: ['sms', 'resume'],
  summary: 'Continue a paused or interrupted job of messages (what may have been sent is checked in the service’s history first)',
  usage: 'vendesk sms resume ID [--json]',
  options: [],
  output: messageJobShape,
  exitCodes: { 0: 'every message has its answer', 1: 'the job paused again or needs attention (the message says why)' },
  async run(ctx) {
    const id = jobId(ctx);
    return jobResult(await watchingJob(ctx, () => ctx.call('messaging.jobs.resume', { id, wait: true })));
  },
});

export const smsCancelCommand = command({
  path: ['sms', 'cancel'],
  summary: 'Cancel a job of messages: messages not sent yet are not sent',
  usage: 'vendesk sms cancel ID [--json]',
  options: [],
  output: messageJobShape,
  async run(ctx) {
    const job = await ctx.call('messaging.jobs.cancel', { id: jobId(ctx) });
    return { json: messageJobJson(job), text: jobText(job) };
  },
});

/** `none` clears a setting; absent leaves it. */
function settingOption(ctx: CliContext, name: string): string | null | undefined {
  const v = stringOption(ctx.args, name);
  if (v === undefined) return undefined;
  return v.trim().toLowerCase() === 'none' ? null : v;
}

export const smsNotificationsCommand = command({
  path: ['sms', 'notifications'],
  summary: 'Show or set who notifications go to (the finance contact, told when a standing order fails or waits) and the sender ID they go from',
  usage: 'vendesk sms notifications [--finance-contact NUMBER|none] [--sender ID|none] [--json]',
  options: [
    { name: 'finance-contact', kind: 'string', description: 'The finance contact’s phone number (none: nobody)' },
    { name: 'sender', kind: 'string', description: 'An approved sender ID (none: the organisation’s first approved one)' },
  ],
  output: z.strictObject({
    senderId: z.string().nullable().describe("null: the organisation's first approved sender ID"),
    financeContact: z.string().nullable().describe('null: nobody'),
  }),
  async run(ctx) {
    const financeContact = settingOption(ctx, 'finance-contact');
    const senderId = settingOption(ctx, 'sender');
    const settings =
      financeContact === undefined && senderId === undefined
        ? await ctx.call('messaging.notifications.get', {})
        : await ctx.call('messaging.notifications.set', { ...(financeContact !== undefined ? { financeContact } : {}), ...(senderId !== undefined ? { senderId } : {}) });
    return {
      json: settings,
      text: lines([
        tt`Finance contact: ${settings.financeContact ?? 'nobody (set one with --finance-contact NUMBER)'}`,
        tt`Sender ID:       ${settings.senderId ?? "the organisation's first approved one"}`,
        tt`Each notification is an SMS charged ₦4 a page, counted in the spend like any message.`,
      ]),
    };
  },
});

export const PERSONALISED_MESSAGE_COMMANDS = [smsJobsCommand, smsJobCommand, smsResumeCommand, smsCancelCommand, smsNotificationsCommand];
