/**
 * Messaging: sender IDs, templates, SMS (single and bulk to a phonebook) with email copies,
 * one-time codes (evidence), phonebooks and contacts, message status and history. Shapes are
 * those of src/shared/wire.ts inside the envelope; approval and delivery follow the sandbox clock.
 *
 * Longer than 400 lines on purpose: one short handler per messaging endpoint of the interface,
 * sharing the sandbox's clock and stores; read as one list, the service's messaging half is seen
 * together, as the spec lists it.
 */
import { z } from 'zod';
import { koboToNaira, koboToWireText } from '../shared/money';
import { normalizePhone } from '../shared/phone';
import {
  SUCCESS_MESSAGE,
  type ApprovalByArea,
  type ApprovalState,
  type ContactRecord,
  type ContactsCreated,
  type EvidenceConfirmed,
  type EvidenceSent,
  type MessageRecord,
  type PhonebookRecord,
  type PhonebookWithContacts,
  type SenderIdRecord,
  type TemplateRecord,
} from '../shared/wire';
import { MAX_CONTACTS_PER_REQUEST, parseBody, type Ctx } from './context';
import { HttpError, ok, type Reply } from './httpErrors';
import { intParam, pageObject, pageWindow, parseDay } from './logEntries';
import { newReference, randomDigits } from './references';
import { NOT_CONFIGURED_REASON } from './vending';

export const COVERAGE_AREA = 'NG';
export const SMS_PAGE_CHARS = 160;
export const SMS_PAGE_KOBO = 400;
export const EMAIL_COPY_KOBO = 100;
export const TEMPLATE_APPROVAL_MS = 60_000;
export const DELIVERY_MS = 5_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** SMS pages: 160 characters each, at least one. */
export function smsPages(text: string): number {
  return Math.max(1, Math.ceil([...text].length / SMS_PAGE_CHARS));
}

function phoneOrThrow(input: string, where: string): string {
  const r = normalizePhone(input);
  if (!r.ok) throw new HttpError(400, `${where}${r.reason}`);
  return r.phone;
}

function requireConfigured(ctx: Ctx): void {
  if (!ctx.org.configured) throw new HttpError(422, NOT_CONFIGURED_REASON);
}

// ---------------------------------------------------------------- sender IDs

interface SenderRow {
  sender_id: string;
  approval: string;
  created_ms: number;
}

function toSender(row: SenderRow): SenderIdRecord {
  return { senderId: row.sender_id, approval: JSON.parse(row.approval) as ApprovalByArea, createdAt: iso(row.created_ms) };
}

export function getSenderIds(ctx: Ctx): Reply {
  const rows = ctx.core.stmt<[number], SenderRow>('SELECT sender_id, approval, created_ms FROM sender_ids WHERE org_id = ? ORDER BY sender_id').all(ctx.org.id);
  return ok(ctx.ref, rows.map(toSender), SUCCESS_MESSAGE);
}

function requireApprovedSender(ctx: Ctx, senderId: string): void {
  const row = ctx.core.stmt<[number, string], SenderRow>('SELECT sender_id, approval, created_ms FROM sender_ids WHERE org_id = ? AND sender_id = ?').get(ctx.org.id, senderId);
  if (!row) throw new HttpError(400, `sender ID "${senderId}" is not registered for this account; see /getSenderIds`);
  const state = toSender(row).approval[COVERAGE_AREA] ?? 'PENDING';
  if (state !== 'APPROVED') {
    throw new HttpError(400, `sender ID ${senderId} is not approved for ${COVERAGE_AREA} (it is ${state}); send with an approved sender ID such as VENDESK`);
  }
}

// ---------------------------------------------------------------- templates

interface TemplateRow {
  id: string;
  name: string;
  slug: string;
  body: string;
  indexes: string;
  use_case: string;
  outcome: 'APPROVED' | 'REJECTED';
  created_ms: number;
}

function templateState(row: TemplateRow, now: number): ApprovalState {
  return now >= row.created_ms + TEMPLATE_APPROVAL_MS ? row.outcome : 'PENDING';
}

function toTemplate(row: TemplateRow, now: number): TemplateRecord {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    body: row.body,
    indexes: JSON.parse(row.indexes) as string[],
    useCase: row.use_case,
    approval: { [COVERAGE_AREA]: templateState(row, now) },
    createdAt: iso(row.created_ms),
  };
}

/** The placeholder numbers used in a template body, validated: {{1}}…{{n}}, none skipped. */
export function placeholdersOf(body: string): number[] {
  const used = new Set<number>();
  for (const m of body.matchAll(/\{\{([^{}]*)\}\}/g)) {
    const inner = m[1].trim();
    if (!/^\d+$/.test(inner)) throw new HttpError(400, `invalid placeholder {{${m[1]}}}: placeholders are numbers written {{1}}, {{2}}, …`);
    used.add(Number(inner));
  }
  const sorted = [...used].sort((a, b) => a - b);
  sorted.forEach((n, i) => {
    if (n !== i + 1) {
      const found = sorted.map((x) => `{{${x}}}`).join(', ');
      throw new HttpError(400, `placeholders must be sequential integers starting at 1 with none skipped: found ${found}, missing {{${i + 1}}}`);
    }
  });
  return sorted;
}

const templateBody = z.object({
  body: z.string().min(1, 'body must not be empty'),
  indexes: z.array(z.string()),
  name: z.string().trim().min(1, 'name must not be empty'),
  slug: z.string().default(''),
  useCase: z.string().default(''),
});

export function createTemplate(ctx: Ctx): Reply {
  const input = parseBody(ctx, templateBody, 'a JSON object with body, indexes, name, slug and useCase');
  const used = placeholdersOf(input.body);
  const given = input.indexes.map((s) => s.trim());
  const expected = used.map(String);
  const sameSet = given.length === expected.length && new Set(given).size === given.length && given.every((g) => expected.includes(g));
  if (!sameSet) {
    throw new HttpError(
      400,
      `indexes must list exactly the placeholders used in body: expected [${expected.map((e) => `"${e}"`).join(', ')}], got [${given.map((g) => `"${g}"`).join(', ')}]`,
    );
  }
  const row: TemplateRow = {
    id: newReference('TPL', ctx.now),
    name: input.name,
    slug: input.slug,
    body: input.body,
    indexes: JSON.stringify(given),
    use_case: input.useCase,
    outcome: input.name.toLowerCase().startsWith('reject') ? 'REJECTED' : 'APPROVED',
    created_ms: ctx.now,
  };
  ctx.core
    .stmt<[string, number, string, string, string, string, string, string, number]>(
      'INSERT INTO templates (id, org_id, name, slug, body, indexes, use_case, outcome, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(row.id, ctx.org.id, row.name, row.slug, row.body, row.indexes, row.use_case, row.outcome, row.created_ms);
  return ok(ctx.ref, toTemplate(row, ctx.now), SUCCESS_MESSAGE);
}

export function getTemplates(ctx: Ctx): Reply {
  const rows = ctx.core.stmt<[number], TemplateRow>('SELECT * FROM templates WHERE org_id = ? ORDER BY created_ms, id').all(ctx.org.id);
  return ok(
    ctx.ref,
    rows.map((r) => toTemplate(r, ctx.now)),
    SUCCESS_MESSAGE,
  );
}

// ---------------------------------------------------------------- phonebooks and contacts

interface PhonebookRow {
  id: number;
  name: string;
  description: string;
  created_ms: number;
  contact_count: number;
}

interface ContactRow {
  id: number;
  phonebook_id: number;
  name: string;
  phone: string;
  created_ms: number;
}

const PHONEBOOK_SELECT = 'SELECT p.id, p.name, p.description, p.created_ms, (SELECT COUNT(*) FROM contacts c WHERE c.phonebook_id = p.id) AS contact_count FROM phonebooks p';

function toPhonebook(row: PhonebookRow): PhonebookRecord {
  return { id: row.id, name: row.name, description: row.description, contactCount: row.contact_count, createdAt: iso(row.created_ms) };
}

function toContact(row: ContactRow): ContactRecord {
  return { id: row.id, phoneBookId: row.phonebook_id, name: row.name, phoneNumber: row.phone, createdAt: iso(row.created_ms) };
}

function phonebookOrThrow(ctx: Ctx, id: number): PhonebookRow {
  const row = ctx.core.stmt<[number, number], PhonebookRow>(`${PHONEBOOK_SELECT} WHERE p.org_id = ? AND p.id = ?`).get(ctx.org.id, id);
  if (!row) throw new HttpError(404, `phonebook ${id} not found for this account; see /getPhonebook`);
  return row;
}

const phonebookBody = z.object({
  name: z.string().trim().min(1, 'name must not be empty'),
  description: z.string().default(''),
});

export function createPhonebook(ctx: Ctx): Reply {
  const input = parseBody(ctx, phonebookBody, 'a JSON object with name and description');
  const info = ctx.core
    .stmt<[number, string, string, number]>('INSERT INTO phonebooks (org_id, name, description, created_ms) VALUES (?, ?, ?, ?)')
    .run(ctx.org.id, input.name, input.description, ctx.now);
  return ok(ctx.ref, toPhonebook(phonebookOrThrow(ctx, Number(info.lastInsertRowid))), SUCCESS_MESSAGE);
}

const contactsBody = z.array(z.object({ name: z.string(), phoneNumber: z.string() })).min(1, 'send at least one contact');

export function createContacts(ctx: Ctx): Reply {
  const input = parseBody(ctx, contactsBody, 'a JSON array of {"name", "phoneNumber"}', MAX_CONTACTS_PER_REQUEST);
  const explicit = ctx.url.searchParams.get('phoneBookId');
  let phonebook: PhonebookRow;
  if (explicit !== null && explicit.trim() !== '') {
    phonebook = phonebookOrThrow(ctx, intParam(ctx.url.searchParams, 'phoneBookId', 0, 1));
  } else {
    const latest = ctx.core.stmt<[number], PhonebookRow>(`${PHONEBOOK_SELECT} WHERE p.org_id = ? ORDER BY p.id DESC LIMIT 1`).get(ctx.org.id);
    if (!latest) throw new HttpError(400, 'no phonebook to add contacts to: create one with /craetePhonebook first, or pass ?phoneBookId=N');
    phonebook = latest;
  }
  const prepared = input.map((c, i) => ({ name: c.name.trim(), phone: phoneOrThrow(c.phoneNumber, `contact ${i + 1}: `) }));
  const insert = ctx.core.stmt<[number, number, string, string, number]>('INSERT OR IGNORE INTO contacts (org_id, phonebook_id, name, phone, created_ms) VALUES (?, ?, ?, ?, ?)');
  const byId = ctx.core.stmt<[number], ContactRow>('SELECT id, phonebook_id, name, phone, created_ms FROM contacts WHERE id = ?');
  const added: ContactRecord[] = [];
  let skipped = 0;
  ctx.core.db.transaction(() => {
    for (const c of prepared) {
      const info = insert.run(ctx.org.id, phonebook.id, c.name, c.phone, ctx.now);
      if (info.changes === 1) {
        const row = byId.get(Number(info.lastInsertRowid));
        if (row) added.push(toContact(row));
      } else skipped++;
    }
  })();
  const data: ContactsCreated = { phoneBookId: phonebook.id, added: added.length, skipped, contacts: added };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

export function getPhonebook(ctx: Ctx): Reply {
  const raw = ctx.url.searchParams.get('phoneBookId');
  if (raw !== null && raw.trim() !== '') {
    const phonebook = phonebookOrThrow(ctx, intParam(ctx.url.searchParams, 'phoneBookId', 0, 1));
    const contacts = ctx.core
      .stmt<[number], ContactRow>('SELECT id, phonebook_id, name, phone, created_ms FROM contacts WHERE phonebook_id = ? ORDER BY id')
      .all(phonebook.id)
      .map(toContact);
    const data: PhonebookWithContacts = { ...toPhonebook(phonebook), contacts };
    return ok(ctx.ref, data, SUCCESS_MESSAGE);
  }
  const rows = ctx.core.stmt<[number], PhonebookRow>(`${PHONEBOOK_SELECT} WHERE p.org_id = ? ORDER BY p.id`).all(ctx.org.id);
  return ok(ctx.ref, rows.map(toPhonebook), SUCCESS_MESSAGE);
}

// ---------------------------------------------------------------- messages

const emailList = z.array(z.string().regex(EMAIL, 'not an email address'));

const sendBody = z.object({
  receiverNumber: z.string().optional(),
  senderId: z.string().min(1, 'senderId is required'),
  messageBody: z.string().optional(),
  isBulk: z.boolean().default(false),
  phoneBookId: z.number().int().positive().optional(),
  sendtoEmail: z.boolean().default(false),
  emails: emailList.optional(),
  subject: z.string().optional(),
  templateInUse: z.boolean().default(false),
  template: z.object({ templateId: z.string().min(1), indexes: z.array(z.string()) }).optional(),
});

interface MessageRow {
  reference: string;
  sender_id: string;
  body: string;
  is_bulk: number;
  phonebook_id: number | null;
  recipients: string;
  pages: number;
  emails: string;
  sms_cost_kobo: number;
  email_cost_kobo: number;
  template_id: string | null;
  created_ms: number;
}

function toMessage(row: MessageRow, now: number): MessageRecord {
  const recipients = JSON.parse(row.recipients) as string[];
  return {
    reference: row.reference,
    senderId: row.sender_id,
    body: row.body,
    isBulk: row.is_bulk === 1,
    phoneBookId: row.phonebook_id,
    recipients,
    recipientCount: recipients.length,
    pages: row.pages,
    emails: JSON.parse(row.emails) as string[],
    smsCost: koboToNaira(row.sms_cost_kobo),
    emailCost: koboToNaira(row.email_cost_kobo),
    totalCost: koboToNaira(row.sms_cost_kobo + row.email_cost_kobo),
    status: now >= row.created_ms + DELIVERY_MS ? 'DELIVERED' : 'SENT',
    templateId: row.template_id,
    createdAt: iso(row.created_ms),
  };
}

function emailCopies(sendtoEmail: boolean, emails: string[] | undefined): string[] {
  if (!sendtoEmail) return [];
  if (!emails || emails.length === 0) throw new HttpError(400, 'sendtoEmail is true but emails is empty: list the addresses that receive a copy');
  return [...new Set(emails.map((e) => e.trim().toLowerCase()))];
}

function chargeOrThrow(ctx: Ctx, cost: number): void {
  if (!ctx.core.tryDebit(ctx.org, cost)) {
    throw new HttpError(
      400,
      `insufficient balance: this costs ${koboToWireText(cost)} and the wallet holds ${koboToWireText(ctx.core.balanceKobo(ctx.org))}; nothing was sent or charged`,
    );
  }
}

const insertOutboxSql = 'INSERT INTO outbox (org_id, channel, recipient, subject, body, reference, code, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

export function sendMessage(ctx: Ctx): Reply {
  requireConfigured(ctx);
  const input = parseBody(ctx, sendBody, 'a JSON object with senderId, messageBody and receiverNumber (or isBulk and phoneBookId)');
  requireApprovedSender(ctx, input.senderId);

  let text: string;
  let templateId: string | null = null;
  if (input.templateInUse) {
    if (!input.template) throw new HttpError(400, 'templateInUse is true but template is missing: send {"templateId", "indexes"}');
    const row = ctx.core.stmt<[number, string], TemplateRow>('SELECT * FROM templates WHERE org_id = ? AND id = ?').get(ctx.org.id, input.template.templateId);
    if (!row) throw new HttpError(404, `template ${input.template.templateId} not found for this account; see /getTemplates`);
    const state = templateState(row, ctx.now);
    if (state !== 'APPROVED') throw new HttpError(400, `template ${row.name} is not approved for ${COVERAGE_AREA} (it is ${state}); wait for approval or use another template`);
    const count = (JSON.parse(row.indexes) as string[]).length;
    const values = input.template.indexes;
    if (values.length !== count) {
      throw new HttpError(400, `template ${row.name} has ${count} placeholder(s) but template.indexes holds ${values.length} value(s)`);
    }
    text = row.body.replace(/\{\{\s*(\d+)\s*\}\}/g, (_m, n: string) => values[Number(n) - 1] ?? '');
    templateId = row.id;
  } else {
    if (!input.messageBody || input.messageBody.trim() === '') throw new HttpError(400, 'messageBody is empty: write the message text (or use a template)');
    text = input.messageBody;
  }

  let recipients: string[];
  let phoneBookId: number | null = null;
  if (input.isBulk) {
    if (input.phoneBookId === undefined) throw new HttpError(400, 'phoneBookId must be passed when isBulk is true');
    const phonebook = phonebookOrThrow(ctx, input.phoneBookId);
    recipients = ctx.core.stmt<[number], string>('SELECT phone FROM contacts WHERE phonebook_id = ? ORDER BY id').pluck().all(phonebook.id);
    if (recipients.length === 0) throw new HttpError(400, `phonebook ${phonebook.id} (${phonebook.name}) has no contacts; add some with /createContact`);
    phoneBookId = phonebook.id;
  } else {
    if (!input.receiverNumber) throw new HttpError(400, 'receiverNumber is required when isBulk is false');
    recipients = [phoneOrThrow(input.receiverNumber, 'receiverNumber: ')];
  }
  const emails = emailCopies(input.sendtoEmail, input.emails);
  const pages = smsPages(text);
  const smsCost = SMS_PAGE_KOBO * pages * recipients.length;
  const emailCost = EMAIL_COPY_KOBO * emails.length;
  const reference = newReference('MSG', ctx.now);
  const row: MessageRow = {
    reference,
    sender_id: input.senderId,
    body: text,
    is_bulk: input.isBulk ? 1 : 0,
    phonebook_id: phoneBookId,
    recipients: JSON.stringify(recipients),
    pages,
    emails: JSON.stringify(emails),
    sms_cost_kobo: smsCost,
    email_cost_kobo: emailCost,
    template_id: templateId,
    created_ms: ctx.now,
  };
  const outboxInsert = ctx.core.stmt<[number, string, string, string | null, string, string, string | null, number]>(insertOutboxSql);
  ctx.core.db.transaction(() => {
    chargeOrThrow(ctx, smsCost + emailCost);
    ctx.core
      .stmt(
        `INSERT INTO messages (org_id, reference, sender_id, body, is_bulk, phonebook_id, recipients, pages, emails, sms_cost_kobo, email_cost_kobo, template_id, created_ms)
         VALUES (@org_id, @reference, @sender_id, @body, @is_bulk, @phonebook_id, @recipients, @pages, @emails, @sms_cost_kobo, @email_cost_kobo, @template_id, @created_ms)`,
      )
      .run({ ...row, org_id: ctx.org.id });
    for (const to of recipients) outboxInsert.run(ctx.org.id, 'sms', to, null, text, reference, null, ctx.now);
    for (const to of emails) outboxInsert.run(ctx.org.id, 'email', to, input.subject ?? `Message from ${input.senderId}`, text, reference, null, ctx.now);
  })();
  return ok(ctx.ref, toMessage(row, ctx.now), SUCCESS_MESSAGE);
}

export function messageStatus(ctx: Ctx): Reply {
  const row = ctx.core.stmt<[number, string], MessageRow>('SELECT * FROM messages WHERE org_id = ? AND reference = ?').get(ctx.org.id, ctx.param);
  if (!row) throw new HttpError(404, `message not found: no message with reference ${ctx.param}`);
  return ok(ctx.ref, toMessage(row, ctx.now), SUCCESS_MESSAGE);
}

/** `/messageHistory`: newest first; page, perPage (max 100), startdate, enddate (UTC, inclusive), search. */
export function messageHistory(ctx: Ctx): Reply {
  const params = ctx.url.searchParams;
  const win = pageWindow(params);
  const where = ['org_id = ?'];
  const args: (string | number)[] = [ctx.org.id];
  const start = params.get('startdate');
  const end = params.get('enddate');
  if (start) {
    where.push('created_ms >= ?');
    args.push(parseDay(start, 'startdate'));
  }
  if (end) {
    where.push('created_ms < ?');
    args.push(parseDay(end, 'enddate') + 86_400_000);
  }
  const search = params.get('search')?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const phone = normalizePhone(search);
    const phoneLike = phone.ok ? `%${phone.phone}%` : like;
    where.push("(reference LIKE ? ESCAPE '\\' OR body LIKE ? ESCAPE '\\' OR sender_id LIKE ? ESCAPE '\\' OR recipients LIKE ? ESCAPE '\\' OR recipients LIKE ? ESCAPE '\\')");
    args.push(like, like, like, like, phoneLike);
  }
  const clause = where.join(' AND ');
  const total =
    ctx.core
      .stmt<(string | number)[], number>(`SELECT COUNT(*) FROM messages WHERE ${clause}`)
      .pluck()
      .get(...args) ?? 0;
  const rows = ctx.core
    .stmt<(string | number)[], MessageRow>(`SELECT * FROM messages WHERE ${clause} ORDER BY created_ms DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...args, win.perPage, (win.page - 1) * win.perPage);
  return ok(
    ctx.ref,
    pageObject(
      ctx,
      total,
      win,
      rows.map((r) => toMessage(r, ctx.now)),
    ),
    SUCCESS_MESSAGE,
  );
}

// ---------------------------------------------------------------- evidence (one-time codes)

const evidenceBody = z.object({
  receiverNumber: z.string().min(1),
  senderId: z.string().min(1),
  numberOfDigits: z.number().int().min(6, 'numberOfDigits must be 6 to 100').max(100, 'numberOfDigits must be 6 to 100'),
  seconds: z.number().int().min(30, 'seconds must be 30 to 86400').max(86_400, 'seconds must be 30 to 86400'),
  sendtoEmail: z.boolean().default(false),
  emails: emailList.optional(),
});

function describeSeconds(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour(s)`;
  if (seconds % 60 === 0) return `${seconds / 60} minute(s)`;
  return `${seconds} seconds`;
}

export function sendEvidence(ctx: Ctx): Reply {
  requireConfigured(ctx);
  const input = parseBody(ctx, evidenceBody, 'a JSON object with receiverNumber, senderId, numberOfDigits and seconds');
  requireApprovedSender(ctx, input.senderId);
  const phone = phoneOrThrow(input.receiverNumber, 'receiverNumber: ');
  const emails = emailCopies(input.sendtoEmail, input.emails);
  const code = randomDigits(input.numberOfDigits);
  const text = `Your ${input.senderId} verification code is ${code}. It expires in ${describeSeconds(input.seconds)}. Do not share it.`;
  const cost = SMS_PAGE_KOBO * smsPages(text) + EMAIL_COPY_KOBO * emails.length;
  const reference = newReference('EVD', ctx.now);
  const expires = ctx.now + input.seconds * 1000;
  const outboxInsert = ctx.core.stmt<[number, string, string, string | null, string, string, string | null, number]>(insertOutboxSql);
  ctx.core.db.transaction(() => {
    chargeOrThrow(ctx, cost);
    ctx.core
      .stmt<[string, number, string, string, number, number, number, number]>(
        'INSERT INTO evidence (reference, org_id, phone, code, digits, expires_ms, cost_kobo, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(reference, ctx.org.id, phone, code, input.numberOfDigits, expires, cost, ctx.now);
    outboxInsert.run(ctx.org.id, 'sms', phone, null, text, reference, code, ctx.now);
    for (const to of emails) outboxInsert.run(ctx.org.id, 'email', to, 'Your verification code', text, reference, code, ctx.now);
  })();
  const data: EvidenceSent = { reference, receiverNumber: phone, numberOfDigits: input.numberOfDigits, expiresAt: iso(expires), cost: koboToNaira(cost) };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}

const confirmBody = z.object({ otp: z.string().min(1, 'otp is required'), reference: z.string().min(1, 'reference is required') });

interface EvidenceRow {
  reference: string;
  code: string;
  expires_ms: number;
  confirmed_ms: number | null;
}

export function confirmEvidence(ctx: Ctx): Reply {
  const input = parseBody(ctx, confirmBody, 'a JSON object with otp and reference');
  const row = ctx.core
    .stmt<[number, string], EvidenceRow>('SELECT reference, code, expires_ms, confirmed_ms FROM evidence WHERE org_id = ? AND reference = ?')
    .get(ctx.org.id, input.reference);
  if (!row) throw new HttpError(404, `evidence not found: no one-time code with reference ${input.reference}`);
  if (row.confirmed_ms !== null) throw new HttpError(400, `code already used: ${input.reference} was confirmed at ${iso(row.confirmed_ms)}; send a new code`);
  if (ctx.now >= row.expires_ms) throw new HttpError(400, `code expired at ${iso(row.expires_ms)}; send a new code`);
  if (input.otp.trim() !== row.code) throw new HttpError(400, 'code does not match: check the digits and try again');
  ctx.core.stmt<[number, string]>('UPDATE evidence SET confirmed_ms = ? WHERE reference = ?').run(ctx.now, row.reference);
  const data: EvidenceConfirmed = { reference: row.reference, confirmed: true, confirmedAt: iso(ctx.now) };
  return ok(ctx.ref, data, SUCCESS_MESSAGE);
}
