/**
 * `vendesk phonebook|contacts|template|sms|otp …`: messaging from scripts, through the same
 * operations as the Messaging page. Every paid send prints its recipients and cost first.
 */
import type { MessageView, TemplateView } from '../../shared/contract/messaging';
import { formatNaira } from '../../shared/money';
import { NOT_GIVEN, countText } from '../../shared/notGiven';
import { parseUseCases } from '../../shared/messagingTemplate';
import { createMessagingService } from '../../main/messaging/messagingService';
import { callOrThrow } from '../callOrThrow';
import { textTable as table } from '../textTable';
import { EXIT, UsageError, dateOption, numberOption, requireOption, requirePositional, stringOption, type CliCommand, type ParsedArgs } from '../cliCommand';

function positional(args: ParsedArgs, index: number, what: string): string {
  return requirePositional(args, index, `${what} is required`);
}

function listOption(args: ParsedArgs, name: string): string[] {
  const v = args.options[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [String(v)]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

function integer(args: ParsedArgs, name: string, fallback: number): number {
  const n = numberOption(args, name) ?? fallback;
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number`);
  return n;
}


function messageText(m: MessageView): string {
  const parts = m.smsCostKobo !== null && m.emailCostKobo !== null ? ` (SMS ${formatNaira(m.smsCostKobo)}, email ${formatNaira(m.emailCostKobo)})` : '';
  return [
    `Reference: ${m.reference ?? NOT_GIVEN}`,
    `Status:    ${m.status}`,
    `Sender:    ${m.senderId || NOT_GIVEN}`,
    `To:        ${m.isBulk ? `phonebook ${m.phoneBookId ?? '?'} (${countText(m.recipientCount)} recipients)` : m.recipients.join(', ') || NOT_GIVEN}`,
    `Pages:     ${m.pages ?? NOT_GIVEN}`,
    ...(m.emails.length ? [`Emails:    ${m.emails.join(', ')}`] : []),
    `Cost:      ${m.totalCostKobo === null ? NOT_GIVEN : `${formatNaira(m.totalCostKobo)}${parts}${m.costSource === 'quoted' ? ' — as quoted' : ''}`}`,
    `Sent:      ${m.createdAt ?? NOT_GIVEN}`,
    `Text:      ${m.body || NOT_GIVEN}`,
    ...m.notes.map((n) => `Note:      ${n}`),
  ].join('\n');
}

function templateRow(t: TemplateView): string[] {
  const body = t.body ?? NOT_GIVEN;
  return [t.id, t.name, t.state, t.indexes.length ? t.indexes.map((i) => `{{${i}}}`).join(' ') : '—', body.length > 50 ? `${body.slice(0, 49)}…` : body];
}

export const phonebookCreateCommand: CliCommand = {
  path: ['phonebook', 'create'],
  summary: 'Create a phonebook',
  usage: 'vendesk phonebook create NAME [--description TEXT] [--json]',
  options: [{ name: 'description', kind: 'string', description: 'What the phonebook is for' }],
  async run(ctx) {
    const name = positional(ctx.args, 0, 'The phonebook NAME');
    const app = await ctx.app();
    const pb = await callOrThrow(app, 'messaging.phonebooks.create', { name, description: stringOption(ctx.args, 'description') ?? '' });
    return { json: pb, text: `Created phonebook ${pb.id}: ${pb.name}` };
  },
};

export const phonebookListCommand: CliCommand = {
  path: ['phonebook', 'list'],
  summary: 'List phonebooks with their number of contacts',
  usage: 'vendesk phonebook list [--json]',
  options: [],
  async run(ctx) {
    const app = await ctx.app();
    const list = await callOrThrow(app, 'messaging.phonebooks.list', {});
    const text = list.length
      ? table([['ID', 'NAME', 'CONTACTS', 'DESCRIPTION'], ...list.map((p) => [String(p.id), p.name, countText(p.contactCount), p.description])])
      : 'No phonebooks yet. Create one with: vendesk phonebook create NAME';
    return { json: list, text };
  },
};

export const contactsImportCommand: CliCommand = {
  path: ['contacts', 'import'],
  summary: 'Upload the contacts of a CSV or XLSX file (Name, Phone) into a phonebook',
  usage: 'vendesk contacts import FILE --phonebook ID|NAME [--sheet NAME] [--json]',
  options: [
    { name: 'phonebook', kind: 'string', description: 'Phonebook id or exact name' },
    { name: 'sheet', kind: 'string', description: 'Worksheet of an XLSX file (default: the first)' },
  ],
  async run(ctx) {
    const file = positional(ctx.args, 0, 'The FILE to import');
    const phonebookArg = requireOption(ctx.args, 'phonebook');
    const sheet = stringOption(ctx.args, 'sheet');
    const app = await ctx.app();
    const pb = await app.service(createMessagingService).resolvePhonebook(phonebookArg);
    let lastShown = -1;
    const unsubscribe = app.events.subscribe((event) => {
      if (event.name !== 'contacts.progress') return;
      const p = event.payload as { phoneBookId: number; done: number; total: number | null; message?: string };
      if (p.phoneBookId !== pb.id || p.done === lastShown) return;
      lastShown = p.done;
      if (p.message) ctx.progress(p.message);
    });
    const cancel = () => void callOrThrow(app, 'messaging.contacts.cancel', { phoneBookId: pb.id });
    void ctx.interrupted.then(cancel);
    try {
      const r = await callOrThrow(app, 'messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id, ...(sheet ? { sheet } : {}) });
      const lines = [
        `${r.fileName} → phonebook ${pb.id} (${pb.name})${r.cancelled ? ' — CANCELLED, part uploaded' : ''}`,
        `Rows read:             ${r.rows.toLocaleString('en-NG')}`,
        `Valid contacts:        ${r.valid.toLocaleString('en-NG')}`,
        `Added:                 ${r.added.toLocaleString('en-NG')}`,
        `Already in phonebook:  ${r.skipped.toLocaleString('en-NG')} (not added again)`,
        `Repeated in the file:  ${r.duplicateCount.toLocaleString('en-NG')} (added once)`,
        `Invalid rows:          ${r.invalidCount.toLocaleString('en-NG')}${r.invalidCount ? ' (not imported):' : ''}`,
        ...r.invalid.slice(0, 20).map((p) => `  ${p.message}`),
        ...(r.invalidCount > 20 ? [`  … and ${r.invalidCount - 20} more (use --json for the first 200)`] : []),
        `Time:                  ${(r.durationMs / 1000).toFixed(1)} s`,
      ];
      return { json: r, text: lines.join('\n'), exitCode: r.invalidCount > 0 ? EXIT.invalidRows : r.cancelled ? EXIT.failed : EXIT.ok };
    } finally {
      unsubscribe();
    }
  },
};

export const templateCreateCommand: CliCommand = {
  path: ['template', 'create'],
  summary: 'Create a message template ({{1}}…{{n}} placeholders); it is usable once approved',
  usage: 'vendesk template create --name NAME --body TEXT --use-case CASE[,CASE] [--slug SLUG] [--json]',
  options: [
    { name: 'name', kind: 'string', description: 'Template name' },
    { name: 'body', kind: 'string', description: 'Text with placeholders {{1}}, {{2}}, … numbered from 1, none skipped' },
    { name: 'use-case', kind: 'string', description: 'Use cases, separated by commas (payroll,alerts)' },
    { name: 'slug', kind: 'string', description: 'Short id (default: made from the name)' },
  ],
  async run(ctx) {
    const app = await ctx.app();
    const slug = stringOption(ctx.args, 'slug');
    const t = await callOrThrow(app, 'messaging.templates.create', {
      name: requireOption(ctx.args, 'name'),
      body: requireOption(ctx.args, 'body'),
      useCases: parseUseCases(requireOption(ctx.args, 'use-case')),
      ...(slug ? { slug } : {}),
    });
    return {
      json: t,
      text: `Created template ${t.id} (${t.name}), ${t.state}. Placeholders: ${t.indexes.length ? t.indexes.map((i) => `{{${i}}}`).join(', ') : 'none'}.${t.approved ? '' : '\nIt can be used once it is APPROVED: check with vendesk template list.'}`,
    };
  },
};

export const templateListCommand: CliCommand = {
  path: ['template', 'list'],
  summary: 'List templates with their approval state',
  usage: 'vendesk template list [--json]',
  options: [],
  async run(ctx) {
    const app = await ctx.app();
    const list = await callOrThrow(app, 'messaging.templates.list', {});
    return {
      json: list,
      text: list.length ? table([['ID', 'NAME', 'STATE (NG)', 'PLACEHOLDERS', 'TEXT'], ...list.map(templateRow)]) : 'No templates yet. Create one with: vendesk template create',
    };
  },
};

export const smsSendCommand: CliCommand = {
  path: ['sms', 'send'],
  summary: 'Send an SMS to one number or a phonebook (prints recipients and cost first)',
  usage: 'vendesk sms send (--to NUMBER | --phonebook ID|NAME) --sender ID (--message TEXT | --template ID --values A,B) [--email ADDR ...] [--subject S] [--dry-run] [--json]',
  options: [
    { name: 'to', kind: 'string', description: 'One phone number' },
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
  async run(ctx) {
    const a = ctx.args;
    const to = stringOption(a, 'to');
    const phonebookArg = stringOption(a, 'phonebook');
    if (!to === !phonebookArg) throw new UsageError('Give either --to NUMBER or --phonebook ID');
    const message = stringOption(a, 'message');
    const templateId = stringOption(a, 'template');
    if (!message === !templateId) throw new UsageError('Give either --message TEXT or --template ID');
    const dryRun = a.options['dry-run'] === true;
    const sender = dryRun ? (stringOption(a, 'sender') ?? '') : requireOption(a, 'sender');
    const app = await ctx.app();
    const target = to
      ? { kind: 'number' as const, to }
      : { kind: 'phonebook' as const, phoneBookId: (await app.service(createMessagingService).resolvePhonebook(phonebookArg ?? '')).id };
    const values = a.options.value !== undefined ? (a.options.value as string[]) : (stringOption(a, 'values') ?? '').split(',').map((v) => v.trim()).filter((v, i, all) => v !== '' || all.length > 1);
    const content = templateId ? { kind: 'template' as const, templateId, values } : { kind: 'text' as const, text: message ?? '' };
    const emails = listOption(a, 'email');
    const quote = await callOrThrow(app, 'messaging.quote', { target, content, emails });
    const costLine = `${quote.recipientsLabel}: ${quote.recipients.toLocaleString('en-NG')} recipient(s) × ${quote.pages} page(s) × ₦4${quote.emails ? ` + ${quote.emails} email cop${quote.emails === 1 ? 'y' : 'ies'} × ₦1` : ''} = ${formatNaira(quote.totalKobo)}`;
    if (dryRun) return { json: { dryRun: true, quote }, text: `Would send (nothing sent):\n${costLine}\nText: ${quote.body}` };
    ctx.progress(`Sending: ${costLine}`);
    const subject = stringOption(a, 'subject');
    const sent = await callOrThrow(app, 'messaging.send', { target, content, emails, senderId: sender, confirmedTotalKobo: quote.totalKobo, ...(subject ? { subject } : {}) });
    return { json: sent, text: `Sent.\n${messageText(sent)}` };
  },
};

export const smsSendersCommand: CliCommand = {
  path: ['sms', 'senders'],
  summary: 'List sender IDs and whether they are approved',
  usage: 'vendesk sms senders [--json]',
  options: [],
  async run(ctx) {
    const app = await ctx.app();
    const list = await callOrThrow(app, 'messaging.senderIds', {});
    return { json: list, text: table([['SENDER ID', 'STATE (NG)', 'USABLE'], ...list.map((s) => [s.senderId, s.state, s.approved ? 'yes' : 'no'])]) };
  },
};

export const smsStatusCommand: CliCommand = {
  path: ['sms', 'status'],
  summary: 'Status of a message by its reference',
  usage: 'vendesk sms status REF [--json]',
  options: [],
  async run(ctx) {
    const reference = positional(ctx.args, 0, 'The message REF');
    const app = await ctx.app();
    const m = await callOrThrow(app, 'messaging.status', { reference });
    return { json: m, text: messageText(m) };
  },
};

export const smsHistoryCommand: CliCommand = {
  path: ['sms', 'history'],
  summary: 'Messages sent, newest first',
  usage: 'vendesk sms history [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--search TEXT] [--page N] [--per-page N] [--json]',
  options: [
    { name: 'from', kind: 'string', description: 'First day (UTC), inclusive' },
    { name: 'to', kind: 'string', description: 'Last day (UTC), inclusive' },
    { name: 'search', kind: 'string', description: 'Reference, phone number, sender ID or words of the text' },
    { name: 'page', kind: 'string', description: 'Page number (from 1)' },
    { name: 'per-page', kind: 'string', description: 'Messages per page (at most 100, default 20)' },
  ],
  async run(ctx) {
    const a = ctx.args;
    const app = await ctx.app();
    const startDate = dateOption(a, 'from');
    const endDate = dateOption(a, 'to');
    const search = stringOption(a, 'search');
    const h = await callOrThrow(app, 'messaging.history', {
      page: integer(a, 'page', 1),
      perPage: integer(a, 'per-page', 20),
      ...(startDate ? { startDate } : {}),
      ...(endDate ? { endDate } : {}),
      ...(search ? { search } : {}),
    });
    const rows = h.items.map((m) => [
      m.createdAt?.slice(0, 16).replace('T', ' ') ?? '—',
      m.reference ?? '—',
      m.status,
      m.isBulk ? `${countText(m.recipientCount)} (bulk)` : (m.recipients[0] ?? '—'),
      m.totalCostKobo === null ? '—' : formatNaira(m.totalCostKobo),
      m.body.length > 40 ? `${m.body.slice(0, 39)}…` : m.body || '—',
    ]);
    const of = h.totalPages !== null ? ` of ${Math.max(1, h.totalPages)}` : '';
    const total = h.totalRecords !== null ? ` (${h.totalRecords} messages)` : ' (the service does not say how many in all)';
    const text = h.items.length
      ? `${table([['SENT (UTC)', 'REFERENCE', 'STATUS', 'TO', 'COST', 'TEXT'], ...rows])}\nPage ${h.page}${of}${total}${h.hasMore ? `; next: --page ${h.page + 1}` : ''}`
      : 'No messages match.';
    return { json: h, text };
  },
};

export const otpSendCommand: CliCommand = {
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
  async run(ctx) {
    const a = ctx.args;
    const app = await ctx.app();
    const sent = await callOrThrow(app, 'messaging.otp.send', {
      receiverNumber: requireOption(a, 'to'),
      senderId: requireOption(a, 'sender'),
      numberOfDigits: integer(a, 'digits', 6),
      seconds: integer(a, 'seconds', 300),
      emails: listOption(a, 'email'),
    });
    return {
      json: sent,
      text: [
        `Code sent to ${sent.receiverNumber} (${sent.numberOfDigits} digits), valid until ${sent.expiresAt}. Cost ${formatNaira(sent.costKobo)}${sent.costSource === 'quoted' ? ' (as quoted)' : ''}.`,
        `Reference: ${sent.reference ?? NOT_GIVEN}`,
        ...sent.notes.map((n) => `Note: ${n}`),
        ...(sent.reference ? [`Confirm with: vendesk otp confirm ${sent.reference} CODE`] : []),
      ].join('\n'),
    };
  },
};

export const otpConfirmCommand: CliCommand = {
  path: ['otp', 'confirm'],
  summary: 'Confirm a one-time code',
  usage: 'vendesk otp confirm REFERENCE CODE [--json]',
  options: [],
  async run(ctx) {
    const reference = positional(ctx.args, 0, 'The REFERENCE of the code');
    const code = positional(ctx.args, 1, 'The CODE');
    const app = await ctx.app();
    const r = await callOrThrow(app, 'messaging.otp.confirm', { reference, code });
    return { json: r, text: `Confirmed: ${r.reference} at ${r.confirmedAt}.` };
  },
};

export const MESSAGING_COMMANDS: CliCommand[] = [
  phonebookCreateCommand,
  phonebookListCommand,
  contactsImportCommand,
  templateCreateCommand,
  templateListCommand,
  smsSendCommand,
  smsSendersCommand,
  smsStatusCommand,
  smsHistoryCommand,
  otpSendCommand,
  otpConfirmCommand,
];
