/**
 * `vendesk phonebook|contacts|template|sms|otp …`: messaging from scripts, through the same
 * operations as the Messaging page. Every paid send prints its recipients and cost first.
 *
 * Longer than 400 lines on purpose: one declaration per command — its options, its JSON and what
 * it prints — in the order `vendesk --help` lists them; each is short, and the area reads as one.
 */
import { z } from 'zod';
import type { ContactsImportResult, MessageQuote, MessageView, OtpSentView, PhonebookView, SenderIdView, TemplateView } from '../../shared/contract/messaging';
import { formatNaira } from '../../shared/money';
import { formatDateTime } from '../../shared/localDates';
import { NOT_GIVEN, countText } from '../../shared/notGiven';
import { parseUseCases } from '../../shared/messagingTemplate';
import { AppError } from '../../shared/appError';
import { lines, textTable as table, tt, type TerminalText } from '../terminal';
import { EXIT, UsageError, command, dateOption, numberOption, requireOption, requirePositional, stringOption, type CliContext, type ParsedArgs } from '../cliCommand';
import { isoTime, naira, nairaOrNull } from '../jsonShape';
import { SHEET_HELP } from './bulkCommands';
import { PERSONALISED_MESSAGE_COMMANDS, SHEET_SEND_OPTIONS, sendFromSheet, sheetSendShapes } from './personalisedMessageCommands';

function positional(args: ParsedArgs, index: number, what: string): string {
  return requirePositional(args, index, `${what} is required`);
}

function listOption(args: ParsedArgs, name: string): string[] {
  const v = args.options[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [String(v)])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The phonebook the user named by its id or its exact name (any case), from the service's list. */
async function phonebookNamed(ctx: CliContext, idOrName: string): Promise<PhonebookView> {
  const list = await ctx.call('messaging.phonebooks.list', {});
  if (/^\d+$/.test(idOrName.trim())) {
    const byId = list.find((p) => p.id === Number(idOrName));
    if (byId) return byId;
  }
  const byName = list.filter((p) => p.name.toLowerCase() === idOrName.trim().toLowerCase());
  if (byName.length === 1) return byName[0];
  if (byName.length > 1) {
    throw new AppError(
      'phonebook_ambiguous',
      `${byName.length} phonebooks are called "${idOrName}" (ids ${byName.map((p) => p.id).join(', ')}).`,
      'Name the phonebook by its id instead.',
    );
  }
  throw new AppError('phonebook_not_found', `There is no phonebook "${idOrName}".`, 'List them with: vendesk phonebook list, or create it with: vendesk phonebook create NAME');
}

function integer(args: ParsedArgs, name: string, fallback: number): number {
  const n = numberOption(args, name) ?? fallback;
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number`);
  return n;
}

// ---------------------------------------------------------------- JSON (amounts in Naira)

const approvalShape = z.record(z.string(), z.enum(['APPROVED', 'PENDING', 'REJECTED'])).describe('approval per coverage area (NG); {} when the service did not say');
const approvalState = z.enum(['APPROVED', 'PENDING', 'REJECTED', 'UNKNOWN']);
const isoTimeOrNull = isoTime.nullable().describe('ISO 8601; null when the service did not say');
const notes = z.array(z.string()).describe("what the service's answer did not say, in sentences");

const phonebookShape = z.strictObject({ id: z.number(), name: z.string(), description: z.string(), contactCount: z.number().nullable(), createdAt: isoTimeOrNull });

const templateShape = z.strictObject({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  body: z.string().nullable().describe('null when the service did not give the text'),
  indexes: z.array(z.string()),
  useCases: z.array(z.string()),
  approval: approvalShape,
  state: approvalState,
  approved: z.boolean(),
  createdAt: isoTimeOrNull,
});

const messageShape = z.strictObject({
  reference: z.string().nullable().describe('null when the service did not give one'),
  requestReference: z.string().nullable().describe("the answer's request reference, for support"),
  senderId: z.string(),
  body: z.string(),
  isBulk: z.boolean(),
  phoneBookId: z.number().nullable(),
  recipientCount: z.number().nullable(),
  recipients: z.array(z.string()).describe('the first 50'),
  pages: z.number().nullable(),
  emails: z.array(z.string()),
  smsCost: nairaOrNull,
  emailCost: nairaOrNull,
  totalCost: nairaOrNull,
  costSource: z.enum(['service', 'quoted']).nullable().describe("the service's figure, or the quote the user confirmed (the answer gave none)"),
  status: z.enum(['DELIVERED', 'SENT', 'FAILED', 'UNKNOWN']),
  templateId: z.string().nullable(),
  createdAt: isoTimeOrNull,
  notes,
});

const toNaira = (kobo: number | null): number | null => (kobo === null ? null : kobo / 100);

function messageJson(m: MessageView): z.infer<typeof messageShape> {
  const { smsCostKobo, emailCostKobo, totalCostKobo, ...rest } = m;
  return { ...rest, smsCost: toNaira(smsCostKobo), emailCost: toNaira(emailCostKobo), totalCost: toNaira(totalCostKobo) };
}

const quoteShape = z.strictObject({
  recipients: z.number(),
  recipientsLabel: z.string(),
  pages: z.number(),
  characters: z.number(),
  emails: z.number(),
  smsCost: naira,
  emailCost: naira,
  totalCost: naira,
  body: z.string(),
});

function quoteJson(q: MessageQuote): z.infer<typeof quoteShape> {
  return {
    recipients: q.recipients,
    recipientsLabel: q.recipientsLabel,
    pages: q.pages,
    characters: q.characters,
    emails: q.emails,
    smsCost: q.smsKobo / 100,
    emailCost: q.emailKobo / 100,
    totalCost: q.totalKobo / 100,
    body: q.body,
  };
}

const otpShape = z.strictObject({
  reference: z.string().nullable().describe("what confirms the code; null when the service's answer gave none"),
  receiverNumber: z.string(),
  numberOfDigits: z.number(),
  seconds: z.number(),
  sentAt: isoTime,
  expiresAt: isoTime,
  cost: naira,
  costSource: z.enum(['service', 'quoted']),
  notes,
});

function otpJson(o: OtpSentView): z.infer<typeof otpShape> {
  const { costKobo, ...rest } = o;
  return { ...rest, cost: costKobo / 100 };
}

const rowProblem = z.strictObject({ row: z.number(), message: z.string() });

const importShape = z.strictObject({
  phoneBookId: z.number(),
  fileName: z.string(),
  rows: z.number(),
  valid: z.number(),
  added: z.number(),
  skipped: z.number().describe('already in the phonebook'),
  invalidCount: z.number(),
  invalid: z.array(rowProblem).describe('the first 200'),
  duplicateCount: z.number(),
  cancelled: z.boolean(),
  chunks: z.number(),
  durationMs: z.number(),
  notes: z.array(z.string()).describe("how the counts were established when the service's answers did not give them"),
});

const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> => Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

const phonebookJson = (p: PhonebookView) => pick(p, ['id', 'name', 'description', 'contactCount', 'createdAt']);
const templateJson = (t: TemplateView) => pick(t, ['id', 'name', 'slug', 'body', 'indexes', 'useCases', 'approval', 'state', 'approved', 'createdAt']);
const senderJson = (s: SenderIdView) => pick(s, ['senderId', 'approval', 'state', 'approved', 'createdAt']);
const importJson = (r: ContactsImportResult) =>
  pick(r, ['phoneBookId', 'fileName', 'rows', 'valid', 'added', 'skipped', 'invalidCount', 'invalid', 'duplicateCount', 'cancelled', 'chunks', 'durationMs', 'notes']);

function messageText(m: MessageView): TerminalText {
  const parts = m.smsCostKobo !== null && m.emailCostKobo !== null ? ` (SMS ${formatNaira(m.smsCostKobo)}, email ${formatNaira(m.emailCostKobo)})` : '';
  return lines([
    tt`Reference: ${m.reference ?? NOT_GIVEN}`,
    tt`Status:    ${m.status}`,
    tt`Sender:    ${m.senderId || NOT_GIVEN}`,
    tt`To:        ${m.isBulk ? `phonebook ${m.phoneBookId ?? '?'} (${countText(m.recipientCount)} recipients)` : m.recipients.join(', ') || NOT_GIVEN}`,
    tt`Pages:     ${m.pages ?? NOT_GIVEN}`,
    ...(m.emails.length ? [tt`Emails:    ${m.emails.join(', ')}`] : []),
    tt`Cost:      ${m.totalCostKobo === null ? NOT_GIVEN : `${formatNaira(m.totalCostKobo)}${parts}${m.costSource === 'quoted' ? ' — as quoted' : ''}`}`,
    tt`Sent:      ${m.createdAt ?? NOT_GIVEN}`,
    tt`Text:      ${m.body || NOT_GIVEN}`,
    ...m.notes.map((n) => tt`Note:      ${n}`),
  ]);
}

function templateRow(t: TemplateView): string[] {
  const body = t.body ?? NOT_GIVEN;
  return [t.id, t.name, t.state, t.indexes.length ? t.indexes.map((i) => `{{${i}}}`).join(' ') : '—', body.length > 50 ? `${body.slice(0, 49)}…` : body];
}

export const phonebookCreateCommand = command({
  path: ['phonebook', 'create'],
  summary: 'Create a phonebook',
  usage: 'vendesk phonebook create NAME [--description TEXT] [--json]',
  options: [{ name: 'description', kind: 'string', description: 'What the phonebook is for' }],
  output: phonebookShape,
  async run(ctx) {
    const name = positional(ctx.args, 0, 'The phonebook NAME');
    const pb = await ctx.call('messaging.phonebooks.create', { name, description: stringOption(ctx.args, 'description') ?? '' });
    return { json: phonebookJson(pb), text: tt`Created phonebook ${pb.id}: ${pb.name}` };
  },
});

export const phonebookListCommand = command({
  path: ['phonebook', 'list'],
  summary: 'List phonebooks with their number of contacts',
  usage: 'vendesk phonebook list [--json]',
  options: [],
  output: z.array(phonebookShape),
  async run(ctx) {
    const list = await ctx.call('messaging.phonebooks.list', {});
    const text = list.length
      ? table([['ID', 'NAME', 'CONTACTS', 'DESCRIPTION'], ...list.map((p) => [String(p.id), p.name, countText(p.contactCount), p.description])])
      : tt`No phonebooks yet. Create one with: vendesk phonebook create NAME`;
    return { json: list.map(phonebookJson), text };
  },
});

export const phonebookContactsCommand = command({
  path: ['phonebook', 'contacts'],
  summary: "List a phonebook's contacts (a page at a time), optionally those matching a search",
  usage: 'vendesk phonebook contacts ID|NAME [--search TEXT] [--limit N] [--offset N] [--json]',
  options: [
    { name: 'search', kind: 'string', description: 'Part of a name or phone number' },
    { name: 'limit', kind: 'string', description: 'Contacts per page (1–1000, default 200)' },
    { name: 'offset', kind: 'string', description: 'Contacts to skip first (default 0)' },
  ],
  output: z.strictObject({
    phonebook: phonebookShape,
    matching: z.number().describe('contacts matching the search, on all pages'),
    offset: z.number(),
    contactsListed: z.boolean().describe("false when the service's answer did not list the phonebook's contacts"),
    contacts: z.array(z.strictObject({ id: z.number(), name: z.string(), phoneNumber: z.string(), createdAt: isoTimeOrNull })),
  }),
  async run(ctx) {
    const which = positional(ctx.args, 0, 'The phonebook ID or NAME');
    const limit = integer(ctx.args, 'limit', 200);
    if (limit < 1 || limit > 1000) throw new UsageError(`--limit must be a whole number from 1 to 1000, got "${limit}"`);
    const offset = integer(ctx.args, 'offset', 0);
    const search = stringOption(ctx.args, 'search') ?? '';
    const pb = await phonebookNamed(ctx, which);
    const page = await ctx.call('messaging.phonebooks.get', { id: pb.id, offset, limit, search });
    const contacts = page.contacts.map((c) => ({ id: c.id, name: c.name, phoneNumber: c.phoneNumber, createdAt: c.createdAt }));
    const shown = contacts.length ? `${offset + 1}–${offset + contacts.length}` : 'none';
    const text = !page.contactsListed
      ? tt`Phonebook ${pb.id} (${pb.name}): the service's answer did not list its contacts, so vendesk cannot show them.`
      : lines([
          tt`Phonebook ${pb.id} (${pb.name}): ${page.matching.toLocaleString('en-NG')} contact(s)${search ? ` matching "${search}"` : ''}; showing ${shown}.`,
          ...(contacts.length ? [table([['PHONE', 'NAME'], ...contacts.map((c) => [c.phoneNumber, c.name])])] : []),
          ...(offset + contacts.length < page.matching ? [`Next: --offset ${offset + contacts.length}`] : []),
        ]);
    return { json: { phonebook: phonebookJson(page.phonebook), matching: page.matching, offset: page.offset, contactsListed: page.contactsListed, contacts }, text };
  },
});

export const contactsImportCommand = command({
  path: ['contacts', 'import'],
  summary: 'Upload the contacts of a CSV or XLSX file (Name, Phone) into a phonebook',
  usage: 'vendesk contacts import FILE --phonebook ID|NAME [--sheet NAME] [--json]',
  options: [
    { name: 'phonebook', kind: 'string', description: 'Phonebook id or exact name' },
    { name: 'sheet', kind: 'string', description: SHEET_HELP },
  ],
  output: importShape,
  exitCodes: { 0: 'every row was imported (or was already there)', 1: 'cancelled part-way (Ctrl-C): part was uploaded', 3: 'some rows are invalid and were not imported' },
  async run(ctx) {
    const file = positional(ctx.args, 0, 'The FILE to import');
    const phonebookArg = requireOption(ctx.args, 'phonebook');
    const sheet = stringOption(ctx.args, 'sheet');
    const app = await ctx.app();
    const pb = await phonebookNamed(ctx, phonebookArg);
    let lastShown = -1;
    const unsubscribe = app.events.on('contacts.progress', (p) => {
      if (p.phoneBookId !== pb.id || p.done === lastShown) return;
      lastShown = p.done;
      if (p.message) ctx.progress(p.message);
    });
    // Ctrl-C cancels the import: the chunks uploaded so far are counted and kept.
    try {
      const r = await ctx.call('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id, ...(sheet ? { sheet } : {}) });
      const text = lines([
        tt`${r.fileName} → phonebook ${pb.id} (${pb.name})${r.cancelled ? ' — CANCELLED, part uploaded' : ''}`,
        `Rows read:             ${r.rows.toLocaleString('en-NG')}`,
        `Valid contacts:        ${r.valid.toLocaleString('en-NG')}`,
        `Added:                 ${r.added.toLocaleString('en-NG')}`,
        `Already in phonebook:  ${r.skipped.toLocaleString('en-NG')} (not added again)`,
        `Repeated in the file:  ${r.duplicateCount.toLocaleString('en-NG')} (added once)`,
        `Invalid rows:          ${r.invalidCount.toLocaleString('en-NG')}${r.invalidCount ? ' (not imported):' : ''}`,
        ...r.invalid.slice(0, 20).map((p) => tt`  ${p.message}`),
        ...(r.invalidCount > 20 ? [`  … and ${r.invalidCount - 20} more (use --json for the first 200)`] : []),
        ...(r.invalidCount > 0 ? ['  Correct them in the file and import it again: the contacts already added are not added twice.'] : []),
        `Time:                  ${(r.durationMs / 1000).toFixed(1)} s`,
      ]);
      if (r.invalidCount > 0) {
        return {
          json: importJson(r),
          text,
          failure: {
            exitCode: EXIT.invalidRows,
            message: `${r.invalidCount} row(s) of the file are invalid and were not imported.`,
            hint: 'Fix them (each is listed) and import the file again: contacts already added are not added twice.',
          },
        };
      }
      if (r.cancelled)
        return {
          json: importJson(r),
          text,
          failure: {
            exitCode: EXIT.failed,
            message: `The import was cancelled part-way: ${r.added} contact(s) were added.`,
            hint: 'Import the file again to add the rest: contacts already added are not added twice.',
          },
        };
      return { json: importJson(r), text };
    } finally {
      unsubscribe();
    }
  },
});

export const templateCreateCommand = command({
  path: ['template', 'create'],
  summary: 'Create a message template ({{1}}…{{n}} placeholders); it is usable once approved',
  usage: 'vendesk template create --name NAME --body TEXT [--use-case CASE[,CASE]] [--slug SLUG] [--json]',
  options: [
    { name: 'name', kind: 'string', description: 'Template name' },
    { name: 'body', kind: 'string', description: 'Text with placeholders {{1}}, {{2}}, … numbered from 1, none skipped' },
    { name: 'use-case', kind: 'string', description: 'What the messages are for, separated by commas (payroll,alerts); optional' },
    { name: 'slug', kind: 'string', description: 'Short id (default: made from the name)' },
  ],
  output: templateShape,
  async run(ctx) {
    const slug = stringOption(ctx.args, 'slug');
    const t = await ctx.call('messaging.templates.create', {
      name: requireOption(ctx.args, 'name'),
      body: requireOption(ctx.args, 'body'),
      useCases: parseUseCases(stringOption(ctx.args, 'use-case') ?? ''),
      ...(slug ? { slug } : {}),
    });
    return {
      json: templateJson(t),
      text: lines([
        tt`Created template ${t.id} (${t.name}), ${t.state}. Placeholders: ${t.indexes.length ? t.indexes.map((i) => `{{${i}}}`).join(', ') : 'none'}.`,
        ...(t.approved ? [] : ['It can be used once it is APPROVED: check with vendesk template list.']),
      ]),
    };
  },
});

export const templateListCommand = command({
  path: ['template', 'list'],
  summary: 'List templates with their approval state',
  usage: 'vendesk template list [--json]',
  options: [],
  output: z.array(templateShape),
  async run(ctx) {
    const list = await ctx.call('messaging.templates.list', {});
    return {
      json: list.map(templateJson),
      text: list.length ? table([['ID', 'NAME', 'STATE (NG)', 'PLACEHOLDERS', 'TEXT'], ...list.map(templateRow)]) : tt`No templates yet. Create one with: vendesk template create`,
    };
  },
});

export const smsSendCommand = command({
  path: ['sms', 'send'],
  summary: 'Send an SMS to one number, a phonebook, or each row of a contacts sheet its own text (prints recipients and cost first)',
  usage:
    'vendesk sms send (--to NUMBER | --phonebook ID|NAME | --contacts FILE [--sheet NAME] [--skip-empty] [--skip-invalid]) --sender ID (--message TEXT | --template ID --values A,B) [--email ADDR ...] [--subject S] [--dry-run] [--json]',
  options: [
    { name: 'to', kind: 'string', description: 'One phone number' },
    ...SHEET_SEND_OPTIONS,
    { name: 'sheet', kind: 'string', description: `With --contacts: ${SHEET_HELP}` },
    { name: 'phonebook', kind: 'string', description: 'Send in bulk to this phonebook (id or exact name)' },
    { name: 'sender', kind: 'string', description: 'An approved sender ID (vendesk sms senders)' },
    { name: 'message', kind: 'string', description: 'The text' },
    { name: 'template', kind: 'string', description: 'An approved template id' },
    { name: 'values', kind: 'string', description: 'Template values in placeholder order, separated by commas' },
    { name: 'value', kind: 'string', description: 'One template value (repeat; use when a value contains a comma)', multiple: true },
    { name: 'email', kind: 'string', description: 'Also email a copy to this address (₦1 each; repeatable)', multiple: true },
    { name: 'subject', kind: 'string', description: 'Subject of the email copies' },
    { name: 'dry-run', kind: 'boolean', description: 'Show recipients and cost, send nothing' },
  ],
  output: z.union([messageShape, z.strictObject({ dryRun: z.literal(true), quote: quoteShape }), ...sheetSendShapes]),
  exitCodes: {
    1: 'with --contacts: the job paused or needs attention (resume it with `vendesk sms resume ID`)',
    3: 'with --contacts: rows have an empty value or cannot be sent, or a placeholder names no column; nothing was sent',
  },
  async run(ctx) {
    const a = ctx.args;
    const to = stringOption(a, 'to');
    const phonebookArg = stringOption(a, 'phonebook');
    const contacts = stringOption(a, 'contacts');
    if ([to, phonebookArg, contacts].filter(Boolean).length !== 1) throw new UsageError('Give one of --to NUMBER, --phonebook ID or --contacts FILE');
    const message = stringOption(a, 'message');
    const templateId = stringOption(a, 'template');
    if (!message === !templateId) throw new UsageError('Give either --message TEXT or --template ID');
    if (!contacts) {
      for (const only of ['sheet', 'skip-empty', 'skip-invalid']) if (a.options[only] !== undefined) throw new UsageError(`--${only} goes with --contacts FILE`);
    }
    const dryRun = a.options['dry-run'] === true;
    const sender = dryRun ? (stringOption(a, 'sender') ?? '') : requireOption(a, 'sender');
    if (contacts) {
      if (!message) throw new UsageError('With --contacts, give the text with --message, its placeholders in braces: --message "Hello {Name}"');
      if (listOption(a, 'email').length || stringOption(a, 'subject') !== undefined) throw new UsageError('--email and --subject do not go with --contacts');
      return sendFromSheet(ctx, { file: contacts, text: message, senderId: sender, dryRun });
    }
    const target = to ? { kind: 'number' as const, to } : { kind: 'phonebook' as const, phoneBookId: (await phonebookNamed(ctx, phonebookArg ?? '')).id };
    const values =
      a.options.value !== undefined
        ? (a.options.value as string[])
        : (stringOption(a, 'values') ?? '')
            .split(',')
            .map((v) => v.trim())
            .filter((v, i, all) => v !== '' || all.length > 1);
    const content = templateId ? { kind: 'template' as const, templateId, values } : { kind: 'text' as const, text: message ?? '' };
    const emails = listOption(a, 'email');
    const quote = await ctx.call('messaging.quote', { target, content, emails });
    const costLine = `${quote.recipientsLabel}: ${quote.recipients.toLocaleString('en-NG')} recipient(s) × ${quote.pages} page(s) × ₦4${quote.emails ? ` + ${quote.emails} email cop${quote.emails === 1 ? 'y' : 'ies'} × ₦1` : ''} = ${formatNaira(quote.totalKobo)}`;
    if (dryRun) return { json: { dryRun: true as const, quote: quoteJson(quote) }, text: tt`Would send (nothing sent):\n${costLine}\nText: ${quote.body}` };
    ctx.progress(`Sending: ${costLine}`);
    const subject = stringOption(a, 'subject');
    const sent = await ctx.call('messaging.send', { target, content, emails, senderId: sender, confirmedTotalKobo: quote.totalKobo, ...(subject ? { subject } : {}) });
    return { json: messageJson(sent), text: tt`Sent.\n${messageText(sent)}` };
  },
});

export const smsSendersCommand = command({
  path: ['sms', 'senders'],
  summary: 'List sender IDs and whether they are approved',
  usage: 'vendesk sms senders [--json]',
  options: [],
  output: z.array(z.strictObject({ senderId: z.string(), approval: approvalShape, state: approvalState, approved: z.boolean(), createdAt: isoTimeOrNull })),
  async run(ctx) {
    const list = await ctx.call('messaging.senderIds', {});
    return { json: list.map(senderJson), text: table([['SENDER ID', 'STATE (NG)', 'USABLE'], ...list.map((s) => [s.senderId, s.state, s.approved ? 'yes' : 'no'])]) };
  },
});

export const smsStatusCommand = command({
  path: ['sms', 'status'],
  summary: 'Status of a message by its reference',
  usage: 'vendesk sms status REF [--json]',
  options: [],
  output: messageShape,
  async run(ctx) {
    const reference = positional(ctx.args, 0, 'The message REF');
    const m = await ctx.call('messaging.status', { reference });
    return { json: messageJson(m), text: messageText(m) };
  },
});

export const smsHistoryCommand = command({
  path: ['sms', 'history'],
  summary: 'Messages sent, newest first',
  usage: 'vendesk sms history [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--search TEXT] [--page N] [--per-page N] [--json]',
  options: [
    { name: 'from', kind: 'string', description: 'First day, inclusive (the service’s UTC day: its message history is paged by the service)' },
    { name: 'to', kind: 'string', description: 'Last day, inclusive (the service’s UTC day)' },
    { name: 'search', kind: 'string', description: 'Reference, phone number, sender ID or words of the text' },
    { name: 'page', kind: 'string', description: 'Page number (from 1)' },
    { name: 'per-page', kind: 'string', description: 'Messages per page (at most 100, default 20)' },
  ],
  output: z.strictObject({
    items: z.array(messageShape),
    page: z.number(),
    perPage: z.number(),
    totalPages: z.number().nullable(),
    totalRecords: z.number().nullable(),
    hasMore: z.boolean(),
  }),
  async run(ctx) {
    const a = ctx.args;
    const startDate = dateOption(a, 'from');
    const endDate = dateOption(a, 'to');
    const search = stringOption(a, 'search');
    const h = await ctx.call('messaging.history', {
      page: integer(a, 'page', 1),
      perPage: integer(a, 'per-page', 20),
      ...(startDate ? { startDate } : {}),
      ...(endDate ? { endDate } : {}),
      ...(search ? { search } : {}),
    });
    const rows = h.items.map((m) => [
      m.createdAt ? formatDateTime(m.createdAt) : '—',
      m.reference ?? '—',
      m.status,
      m.isBulk ? `${countText(m.recipientCount)} (bulk)` : (m.recipients[0] ?? '—'),
      m.totalCostKobo === null ? '—' : formatNaira(m.totalCostKobo),
      m.body.length > 40 ? `${m.body.slice(0, 39)}…` : m.body || '—',
    ]);
    const of = h.totalPages !== null ? ` of ${Math.max(1, h.totalPages)}` : '';
    const total = h.totalRecords !== null ? ` (${h.totalRecords} messages)` : ' (the service does not say how many in all)';
    const text = h.items.length
      ? tt`${table([['SENT (LAGOS)', 'REFERENCE', 'STATUS', 'TO', 'COST', 'TEXT'], ...rows])}\nPage ${h.page}${of}${total}${h.hasMore ? `; next: --page ${h.page + 1}` : ''}`
      : tt`No messages match.`;
    return { json: { ...pick(h, ['page', 'perPage', 'totalPages', 'totalRecords', 'hasMore']), items: h.items.map(messageJson) }, text };
  },
});

export const otpSendCommand = command({
  path: ['otp', 'send'],
  summary: 'Send a one-time code to a phone number',
  usage: 'vendesk otp send --to NUMBER --sender ID [--digits 6] [--seconds 300] [--email ADDR ...] [--json]',
  options: [
    { name: 'to', kind: 'string', description: 'Phone number that receives the code' },
    { name: 'sender', kind: 'string', description: 'An approved sender ID' },
    { name: 'digits', kind: 'string', description: 'Code length, 6 to 100 (default 6)' },
    { name: 'seconds', kind: 'string', description: 'Validity, 30 to 86400 seconds (default 300)' },
    { name: 'email', kind: 'string', description: 'Also email the code to this address (₦1 each; repeatable)', multiple: true },
  ],
  output: otpShape,
  async run(ctx) {
    const a = ctx.args;
    const sent = await ctx.call('messaging.otp.send', {
      receiverNumber: requireOption(a, 'to'),
      senderId: requireOption(a, 'sender'),
      numberOfDigits: integer(a, 'digits', 6),
      seconds: integer(a, 'seconds', 300),
      emails: listOption(a, 'email'),
    });
    return {
      json: otpJson(sent),
      text: lines([
        tt`Code sent to ${sent.receiverNumber} (${sent.numberOfDigits} digits), valid until ${sent.expiresAt}. Cost ${formatNaira(sent.costKobo)}${sent.costSource === 'quoted' ? ' (as quoted)' : ''}.`,
        tt`Reference: ${sent.reference ?? NOT_GIVEN}`,
        ...sent.notes.map((n) => tt`Note: ${n}`),
        ...(sent.reference ? [tt`Confirm with: vendesk otp confirm ${sent.reference} CODE`] : []),
      ]),
    };
  },
});

export const otpConfirmCommand = command({
  path: ['otp', 'confirm'],
  summary: 'Confirm a one-time code',
  usage: 'vendesk otp confirm REFERENCE CODE [--json]',
  options: [],
  output: z.strictObject({ reference: z.string(), confirmedAt: isoTime }),
  async run(ctx) {
    const reference = positional(ctx.args, 0, 'The REFERENCE of the code');
    const code = positional(ctx.args, 1, 'The CODE');
    const r = await ctx.call('messaging.otp.confirm', { reference, code });
    return { json: { reference: r.reference, confirmedAt: r.confirmedAt }, text: tt`Confirmed: ${r.reference} at ${r.confirmedAt}.` };
  },
});

export const MESSAGING_COMMANDS = [
  phonebookCreateCommand,
  phonebookListCommand,
  phonebookContactsCommand,
  contactsImportCommand,
  templateCreateCommand,
  templateListCommand,
  smsSendCommand,
  smsSendersCommand,
  smsStatusCommand,
  smsHistoryCommand,
  otpSendCommand,
  otpConfirmCommand,
  ...PERSONALISED_MESSAGE_COMMANDS,
];
