/**
 * What vendesk reads from the messaging answers, whose shapes the spec does not show (sender
 * IDs, templates, messages, one-time codes, phonebooks, contacts, history). Each reader takes the
 * answer's `data` by meaning (see looseFields.ts) and returns what vendesk needs, with `null` for
 * what the answer did not say; it notes each gap in a sentence (kept with the answer, shown by
 * `vendesk doctor` and Settings → Service answers). A list that cannot be found makes a read
 * unreadable (`UnreadableDataError`); a write's answer is never unreadable: a success is a success.
 *
 * Longer than 400 lines on purpose: it is one thing — the readers of every messaging answer — and
 * they share one vocabulary (the field names each meaning goes by, the approval and status words,
 * how a list is found and a gap noted). Split by endpoint, each part would import that vocabulary
 * back and a reader's names could drift from its neighbours'.
 */
import { analyzeTemplate } from '../../shared/messagingTemplate';
import type { ApprovalByArea, ApprovalState, MessageStatus } from '../../shared/wire';
import { COVERAGE_AREA } from '../../shared/contract/messaging';
import { UnreadableDataError, type AnswerContext } from './decodeEnvelope';
import { asBoolean, asCount, asKobo, asList, asPhone, asRecord, asText, asTextList, asTime, field, isObject, keyOf, pick, type JsonObject } from './looseFields';

export interface SenderIdAnswer {
  senderId: string;
  /** Approval per coverage area; null when the answer does not say. */
  approval: ApprovalByArea | null;
  createdAt: string | null;
}

export interface TemplateAnswer {
  id: string | null;
  name: string | null;
  slug: string | null;
  body: string | null;
  /** Placeholder numbers as strings; derived from the body when the answer does not list them. */
  indexes: string[] | null;
  useCase: string | null;
  approval: ApprovalByArea | null;
  createdAt: string | null;
}

export interface MessageAnswer {
  reference: string | null;
  /** The envelope's requestReference, for support (it is not the message's reference). */
  requestReference: string;
  senderId: string | null;
  body: string | null;
  isBulk: boolean | null;
  phoneBookId: number | null;
  recipients: string[] | null;
  recipientCount: number | null;
  pages: number | null;
  emails: string[] | null;
  smsKobo: number | null;
  emailKobo: number | null;
  totalKobo: number | null;
  status: MessageStatus | null;
  templateId: string | null;
  createdAt: string | null;
}

export interface HistoryPageAnswer {
  items: MessageAnswer[];
  totalRecords: number | null;
  totalPages: number | null;
  /** The next page's address, when the answer gives one. */
  nextPage: string | null;
}

export interface EvidenceSentAnswer {
  reference: string | null;
  requestReference: string;
  receiverNumber: string | null;
  numberOfDigits: number | null;
  expiresAt: string | null;
  costKobo: number | null;
}

export interface EvidenceConfirmedAnswer {
  reference: string | null;
  /** false when a success envelope still says the code was not accepted. */
  confirmed: boolean;
  /** What the answer said when it did not confirm. */
  reason: string | null;
  confirmedAt: string | null;
}

export interface ContactAnswer {
  id: number | null;
  name: string | null;
  phoneNumber: string;
  createdAt: string | null;
}

export interface PhonebookAnswer {
  id: number;
  name: string | null;
  description: string | null;
  contactCount: number | null;
  createdAt: string | null;
  /** The contacts, when the answer lists them. */
  contacts: ContactAnswer[] | null;
}

export interface CreatedPhonebookAnswer extends Omit<PhonebookAnswer, 'id'> {
  id: number | null;
}

export interface ContactsCreatedAnswer {
  phoneBookId: number | null;
  added: number | null;
  skipped: number | null;
}

// ---------------------------------------------------------------- shared pieces

const CREATED = ['createdAt', 'dateCreated', 'created', 'createdOn', 'creationDate', 'dateAdded', 'date', 'timestamp', 'time', 'sentAt', 'dateSent'];

/** An approval word in one of the three states, or null. */
export function approvalWord(value: unknown): ApprovalState | null {
  if (typeof value === 'boolean') return value ? 'APPROVED' : 'PENDING';
  const text = asText(value);
  if (text === null) return null;
  const w = keyOf(text);
  if (['approved', 'approve', 'active', 'verified', 'enabled', 'live', 'accepted', 'ok', 'true'].includes(w)) return 'APPROVED';
  if (['pending', 'inreview', 'review', 'submitted', 'awaiting', 'awaitingapproval', 'processing', 'new', 'requested', 'false'].includes(w)) return 'PENDING';
  if (['rejected', 'declined', 'denied', 'disabled', 'blocked', 'inactive', 'suspended', 'failed'].includes(w)) return 'REJECTED';
  return null;
}

/**
 * Approval per coverage area: a map (`{ NG: "APPROVED" }`), a list of `{ area, status }`, a single
 * status word or flag (for the coverage area), or null when the record does not say.
 */
function approvalOf(record: JsonObject): ApprovalByArea | null {
  const map = field(record, ['approval', 'approvals', 'approvalByArea', 'coverage', 'coverageAreas', 'areas']);
  if (isObject(map)) {
    const out: ApprovalByArea = {};
    for (const [area, v] of Object.entries(map)) {
      const state = approvalWord(isObject(v) ? field(v, ['status', 'state', 'approval']) : v);
      if (state) out[area.toUpperCase()] = state;
    }
    if (Object.keys(out).length) return out;
  }
  const list = map === undefined ? null : asList(map);
  if (list) {
    const out: ApprovalByArea = {};
    for (const item of list) {
      if (!isObject(item)) continue;
      const area = pick(item, ['area', 'coverageArea', 'country', 'region', 'code'], asText);
      const state = approvalWord(field(item, ['status', 'state', 'approval']));
      if (area && state) out[area.toUpperCase()] = state;
    }
    if (Object.keys(out).length) return out;
  }
  const single =
    typeof map === 'string' || typeof map === 'boolean'
      ? approvalWord(map)
      : pick(record, ['approvalStatus', 'status', 'state', 'approved', 'isApproved', 'verified', 'isActive'], approvalWord);
  return single ? { [COVERAGE_AREA]: single } : null;
}

/** Message status words (`delivered`, `DELIVRD`, `submitted`, `undelivered`, …) as one of the three. */
export function messageStatusWord(value: unknown): MessageStatus | null {
  const text = asText(value);
  if (text === null) return null;
  const w = keyOf(text);
  if (['delivered', 'delivrd', 'success', 'successful', 'completed', 'done', 'received'].includes(w)) return 'DELIVERED';
  if (['sent', 'submitted', 'queued', 'pending', 'accepted', 'processing', 'enroute', 'sending', 'scheduled', 'inprogress', 'ok'].includes(w)) return 'SENT';
  if (['failed', 'undelivered', 'undeliv', 'undeliverable', 'rejected', 'expired', 'error', 'blocked', 'cancelled', 'canceled'].includes(w)) return 'FAILED';
  return null;
}

function listIn(data: unknown, what: string, more: readonly string[]): unknown[] {
  const list = asList(data, more);
  if (list === null || typeof data === 'string') throw new UnreadableDataError(`no list of ${what} in the answer`);
  return list;
}

/** Reads each item; items that cannot be read are left out and counted in a note. */
function readItems<T>(list: unknown[], read: (item: unknown) => T | null, what: string, ctx: AnswerContext): T[] {
  const out: T[] = [];
  let skipped = 0;
  for (const item of list) {
    const r = read(item);
    if (r === null) skipped++;
    else out.push(r);
  }
  if (skipped) ctx.note(`${skipped} of ${list.length} ${what} could not be read and are not shown.`);
  return out;
}

/** Notes the fields none of the items had. */
function noteMissing<T>(items: T[], fields: [keyof T, string][], what: string, ctx: AnswerContext): void {
  if (items.length === 0) return;
  for (const [key, words] of fields) {
    const missing = items.filter((i) => i[key] === null).length;
    if (missing === items.length) ctx.note(`The ${what} do not say ${words}.`);
    else if (missing > 0) ctx.note(`${missing} of ${items.length} ${what} do not say ${words}.`);
  }
}

// ---------------------------------------------------------------- sender IDs

function senderIdOf(item: unknown): SenderIdAnswer | null {
  if (typeof item === 'string' || typeof item === 'number') {
    const senderId = asText(item);
    return senderId ? { senderId, approval: null, createdAt: null } : null;
  }
  if (!isObject(item)) return null;
  const senderId = pick(item, ['senderId', 'sender', 'senderName', 'name', 'title', 'value', 'id'], asText);
  if (!senderId) return null;
  return { senderId, approval: approvalOf(item), createdAt: pick(item, CREATED, asTime) };
}

export function readSenderIds(data: unknown, ctx: AnswerContext): SenderIdAnswer[] {
  const items = readItems(listIn(data, 'sender IDs', ['senderIds', 'senders']), senderIdOf, 'sender IDs', ctx);
  noteMissing(
    items,
    [
      ['approval', 'whether they are approved'],
      ['createdAt', 'when they were registered'],
    ],
    'sender IDs',
    ctx,
  );
  return items;
}

// ---------------------------------------------------------------- templates

function indexesOf(record: JsonObject, body: string | null): string[] | null {
  const given = field(record, ['indexes', 'indices', 'placeholders', 'variables', 'params', 'parameters']);
  const list = given === undefined ? null : asTextList(given);
  if (list) return list.map((s) => s.replace(/^\{\{\s*|\s*\}\}$/g, '').trim());
  if (body !== null) {
    const analysis = analyzeTemplate(body);
    return analysis.problems.some((p) => p.code === 'gap' || p.code === 'zero') ? null : analysis.indexes;
  }
  return null;
}

export function templateOf(item: unknown): TemplateAnswer | null {
  const record = asRecord(item, ['template']);
  if (!record) return null;
  const body = pick(record, ['body', 'templateBody', 'content', 'text', 'message', 'messageBody', 'template'], asText);
  const useCase = field(record, ['useCase', 'useCases', 'usecase', 'category', 'categories']);
  const useCaseList = useCase === undefined ? null : asTextList(useCase);
  return {
    id: pick(record, ['id', 'templateId', 'templateUuid', 'uuid', 'guid', 'key', 'code'], asText),
    name: pick(record, ['name', 'templateName', 'title'], asText),
    slug: pick(record, ['slug', 'templateSlug'], asText),
    body,
    indexes: indexesOf(record, body),
    useCase: useCaseList ? useCaseList.join(',') : null,
    approval: approvalOf(record),
    createdAt: pick(record, CREATED, asTime),
  };
}

export function readTemplates(data: unknown, ctx: AnswerContext): TemplateAnswer[] {
  const items = readItems(
    listIn(data, 'templates', ['templates']),
    (item) => {
      const t = templateOf(item);
      return t && t.id !== null ? t : null;
    },
    'templates (no id)',
    ctx,
  );
  noteMissing(
    items,
    [
      ['body', 'their text'],
      ['approval', 'whether they are approved'],
      ['name', 'their name'],
      ['createdAt', 'when they were created'],
    ],
    'templates',
    ctx,
  );
  return items;
}

/** A created template: whatever the answer says (the caller completes it with what it sent). */
export function readCreatedTemplate(data: unknown, ctx: AnswerContext): TemplateAnswer {
  const t = templateOf(data) ?? { id: null, name: null, slug: null, body: null, indexes: null, useCase: null, approval: null, createdAt: null };
  if (t.id === null) ctx.note("The answer does not give the new template's id.");
  if (t.approval === null) ctx.note('The answer does not say whether the template is approved.');
  return t;
}

// ---------------------------------------------------------------- messages

const REFERENCE = ['reference', 'messageReference', 'messageRef', 'msgReference', 'ref', 'messageId', 'msgId', 'batchId', 'trackingId', 'uniqueId', 'id'];

export function messageOf(item: unknown, requestReference: string): MessageAnswer | null {
  const record = asRecord(item, ['message']);
  if (!record) return null;
  const recipientsValue = field(record, [
    'recipients',
    'receivers',
    'receiverNumbers',
    'numbers',
    'phoneNumbers',
    'destinations',
    'to',
    'receiverNumber',
    'recipient',
    'msisdn',
    'phoneNumber',
    'destination',
  ]);
  const recipients =
    recipientsValue === undefined
      ? null
      : (asList(recipientsValue, ['recipients', 'numbers'])
          ?.map((r) => (isObject(r) ? pick(r, ['phoneNumber', 'phone', 'msisdn', 'number', 'to'], asPhone) : asPhone(r)))
          .filter((p): p is string => p !== null) ?? null);
  const cost = field(record, ['cost', 'costs', 'charge', 'charges', 'pricing', 'billing']);
  const costRecord = isObject(cost) ? cost : null;
  const total = pick(record, ['totalCost', 'total', 'totalCharge', 'totalAmount', 'amountCharged', 'charged', 'price', 'amount'], asKobo) ?? asKobo(cost);
  const sms = pick(record, ['smsCost', 'smsCharge', 'smsAmount'], asKobo) ?? (costRecord ? pick(costRecord, ['sms', 'smsCost'], asKobo) : null);
  const email = pick(record, ['emailCost', 'emailCharge', 'emailAmount'], asKobo) ?? (costRecord ? pick(costRecord, ['email', 'emailCost'], asKobo) : null);
  const emailsValue = field(record, ['emails', 'emailCopies', 'emailAddresses', 'copies', 'cc']);
  const bulk = pick(record, ['isBulk', 'bulk'], asBoolean);
  const phoneBookId = pick(record, ['phoneBookId', 'phonebookId', 'phoneBook', 'phonebook', 'groupId'], asCount);
  return {
    reference: pick(record, REFERENCE, asText),
    requestReference,
    senderId: pick(record, ['senderId', 'sender', 'senderName', 'from'], asText),
    body: pick(record, ['body', 'messageBody', 'message', 'text', 'content', 'messageText'], asText),
    isBulk: bulk ?? (phoneBookId !== null ? true : null),
    phoneBookId,
    recipients,
    recipientCount:
      pick(record, ['recipientCount', 'recipientsCount', 'numberOfRecipients', 'totalRecipients', 'recipientTotal', 'count'], asCount) ?? (recipients ? recipients.length : null),
    pages: pick(record, ['pages', 'pageCount', 'smsPages', 'parts', 'segments', 'units'], asCount),
    emails: emailsValue === undefined ? null : asTextList(emailsValue),
    smsKobo: sms,
    emailKobo: email,
    totalKobo: total ?? (sms !== null && email !== null ? sms + email : sms !== null && emailsValue === undefined ? sms : null),
    status: pick(record, ['status', 'deliveryStatus', 'state', 'messageStatus', 'dlrStatus'], messageStatusWord),
    templateId: pick(record, ['templateId', 'template'], asText),
    createdAt: pick(record, CREATED, asTime),
  };
}

/** The answer to a send: a success envelope is a sent message whatever its data says. */
export function readSentMessage(data: unknown, ctx: AnswerContext): MessageAnswer {
  const m = messageOf(data, ctx.requestReference) ?? messageOf({}, ctx.requestReference)!;
  if (m.reference === null && typeof data === 'string' && /^[A-Za-z0-9-_]{6,}$/.test(data.trim()) && !/\s/.test(data.trim())) m.reference = data.trim();
  if (m.reference === null) ctx.note("The answer does not give the message's reference.");
  if (m.totalKobo === null) ctx.note('The answer does not say what the message cost.');
  return m;
}

export function readMessageStatus(data: unknown, ctx: AnswerContext): MessageAnswer {
  const m = messageOf(data, ctx.requestReference);
  if (!m) {
    const status = messageStatusWord(data);
    if (status) return { ...messageOf({}, ctx.requestReference)!, status };
    throw new UnreadableDataError('no message status in the answer');
  }
  if (m.status === null) ctx.note("The answer does not give the message's delivery status.");
  return m;
}

export function readMessageHistory(data: unknown, ctx: AnswerContext): HistoryPageAnswer {
  const items = readItems(listIn(data, 'messages', ['messages', 'history']), (i) => messageOf(i, ''), 'messages', ctx);
  const page = isObject(data) ? data : {};
  const meta = field(page, ['meta', 'pagination', 'paging', 'page']);
  const pageInfo = isObject(meta) ? { ...meta, ...page } : page;
  const totalRecords = pick(pageInfo, ['totalRecords', 'total', 'totalCount', 'totalItems', 'count', 'recordCount', 'recordsTotal'], asCount);
  const totalPages = pick(pageInfo, ['totalPages', 'pages', 'pageCount', 'lastPage', 'numberOfPages'], asCount);
  const next = field(pageInfo, ['nextPage', 'next', 'nextPageUrl', 'nextLink']);
  if (Array.isArray(data)) ctx.note('The history is a bare list: it does not say how many messages there are in all.');
  else if (totalRecords === null) ctx.note('The history does not say how many messages there are in all.');
  noteMissing(
    items,
    [
      ['reference', 'their reference'],
      ['totalKobo', 'what they cost'],
      ['status', 'their delivery status'],
    ],
    'messages',
    ctx,
  );
  return { items, totalRecords, totalPages, nextPage: typeof next === 'string' && next.trim() !== '' ? next : null };
}

// ---------------------------------------------------------------- one-time codes

export function readEvidenceSent(data: unknown, ctx: AnswerContext): EvidenceSentAnswer {
  const record = asRecord(data, ['evidence', 'otp']) ?? {};
  const reference =
    pick(record, ['reference', 'evidenceReference', 'otpReference', 'otpRef', 'ref', 'evidenceId', 'otpId', 'token', 'id'], asText) ??
    (typeof data === 'string' && /^[A-Za-z0-9-_]{6,}$/.test(data.trim()) ? data.trim() : null);
  if (reference === null) ctx.note("The answer does not give the code's reference.");
  const costKobo = pick(record, ['cost', 'totalCost', 'charge', 'amount', 'price'], asKobo);
  if (costKobo === null) ctx.note('The answer does not say what the code cost.');
  return {
    reference,
    requestReference: ctx.requestReference,
    receiverNumber: pick(record, ['receiverNumber', 'recipient', 'phoneNumber', 'phone', 'msisdn', 'to'], asPhone),
    numberOfDigits: pick(record, ['numberOfDigits', 'digits', 'length', 'codeLength', 'otpLength'], asCount),
    expiresAt: pick(record, ['expiresAt', 'expiry', 'expiryDate', 'expires', 'expiresOn', 'expiryTime', 'validUntil'], asTime),
    costKobo,
  };
}

const NOT_CONFIRMED = ['invalid', 'failed', 'expired', 'mismatch', 'wrong', 'incorrect', 'used', 'notverified', 'unverified', 'rejected', 'false'];

export function readEvidenceConfirmed(data: unknown, ctx: AnswerContext): EvidenceConfirmedAnswer {
  const record = isObject(data) ? data : {};
  const flag = pick(record, ['confirmed', 'verified', 'valid', 'isValid', 'isVerified', 'success', 'matched'], asBoolean);
  const statusText = pick(record, ['status', 'state', 'result'], asText) ?? (typeof data === 'string' ? data : null);
  const statusWord = statusText === null ? null : keyOf(statusText);
  const refused = flag === false || (statusWord !== null && NOT_CONFIRMED.some((w) => statusWord === w || statusWord.startsWith(w)));
  const reason = refused ? (pick(record, ['reason', 'message', 'error', 'description'], asText) ?? statusText ?? 'the code was not accepted') : null;
  if (!refused && flag === null && statusText === null) ctx.note('The answer does not say "confirmed" in words; its success status is taken as the confirmation.');
  return {
    reference: pick(record, ['reference', 'evidenceReference', 'otpReference', 'ref'], asText),
    confirmed: !refused,
    reason,
    confirmedAt: pick(record, ['confirmedAt', 'verifiedAt', 'dateConfirmed', 'dateVerified', ...CREATED], asTime),
  };
}

// ---------------------------------------------------------------- phonebooks and contacts

const PHONEBOOK_ID = ['id', 'phoneBookId', 'phonebookId', 'bookId', 'groupId', 'listId'];
const PHONE = ['phoneNumber', 'phone', 'msisdn', 'mobile', 'mobileNumber', 'number', 'phoneNo', 'receiverNumber'];

function contactOf(item: unknown, index: number): ContactAnswer | null {
  if (typeof item === 'string' || typeof item === 'number') {
    const phone = asPhone(item);
    return phone ? { id: index + 1, name: null, phoneNumber: phone, createdAt: null } : null;
  }
  if (!isObject(item)) return null;
  const phoneNumber = pick(item, PHONE, asPhone);
  if (!phoneNumber) return null;
  return {
    id: pick(item, ['id', 'contactId'], asCount) ?? index + 1,
    name:
      pick(item, ['name', 'fullName', 'contactName', 'displayName'], asText) ??
      ([pick(item, ['firstName'], asText), pick(item, ['lastName'], asText)].filter(Boolean).join(' ') || null),
    phoneNumber,
    createdAt: pick(item, CREATED, asTime),
  };
}

function looksLikeContacts(list: unknown[]): boolean {
  return list.some((i) => (isObject(i) && field(i, PHONE) !== undefined) || (typeof i === 'string' && asPhone(i) !== null && /^\+?\d[\d\s-]{8,}$/.test(i)));
}

function contactsOf(value: unknown): ContactAnswer[] | null {
  if (value === undefined) return null;
  const list = asList(value, ['contacts', 'members']);
  if (!list) return null;
  return list.map(contactOf).filter((c): c is ContactAnswer => c !== null);
}

function phonebookOf(item: unknown): CreatedPhonebookAnswer | null {
  const record = asRecord(item, ['phonebook', 'phoneBook']);
  if (!record) return null;
  const contacts = contactsOf(field(record, ['contacts', 'members', 'contactList', 'numbers']));
  return {
    id: pick(record, PHONEBOOK_ID, asCount),
    name: pick(record, ['name', 'phoneBookName', 'phonebookName', 'title', 'groupName'], asText),
    description: pick(record, ['description', 'desc', 'details', 'note'], asText),
    contactCount:
      pick(record, ['contactCount', 'contactsCount', 'totalContacts', 'numberOfContacts', 'contactTotal', 'count', 'size', 'members'], asCount) ??
      (contacts ? contacts.length : null),
    createdAt: pick(record, CREATED, asTime),
    contacts,
  };
}

export function readPhonebooks(data: unknown, ctx: AnswerContext): PhonebookAnswer[] {
  const items = readItems(
    listIn(data, 'phonebooks', ['phonebooks', 'phoneBooks', 'groups']),
    (item) => {
      const p = phonebookOf(item);
      return p && p.id !== null ? ({ ...p, id: p.id } as PhonebookAnswer) : null;
    },
    'phonebooks (no whole-number id)',
    ctx,
  );
  noteMissing(
    items,
    [
      ['contactCount', 'how many contacts they hold'],
      ['name', 'their name'],
    ],
    'phonebooks',
    ctx,
  );
  return items;
}

/**
 * One phonebook with its contacts (`/getPhonebook?phoneBookId=N`). A service that ignores the
 * query and answers every phonebook is read too (phonebook N is picked out), as is one that
 * answers the contacts alone. null when phonebook N is not in the answer.
 */
export function readPhonebook(id: number, data: unknown, ctx: AnswerContext): PhonebookAnswer | null {
  const list = Array.isArray(data) ? data : isObject(data) && field(data, PHONEBOOK_ID) === undefined ? asList(data, ['phonebooks', 'phoneBooks']) : null;
  if (list && looksLikeContacts(list)) {
    const contacts = list.map(contactOf).filter((c): c is ContactAnswer => c !== null);
    ctx.note("The answer lists the contacts alone, without the phonebook's name.");
    return { id, name: null, description: null, contactCount: contacts.length, createdAt: null, contacts };
  }
  let found: CreatedPhonebookAnswer | null;
  if (list) {
    found = list.map(phonebookOf).find((p) => p?.id === id) ?? null;
  } else {
    found = phonebookOf(data);
    if (found && found.id !== null && found.id !== id) return null;
  }
  if (!found) {
    if (list) return null;
    throw new UnreadableDataError('no phonebook in the answer');
  }
  if (found.contacts === null) ctx.note("The answer does not list the phonebook's contacts.");
  return { ...found, id };
}

export function readCreatedPhonebook(data: unknown, ctx: AnswerContext): CreatedPhonebookAnswer {
  const p = phonebookOf(data) ?? { id: asCount(data), name: null, description: null, contactCount: null, createdAt: null, contacts: null };
  if (p.id === null) ctx.note("The answer does not give the new phonebook's id.");
  return p;
}

export function readContactsCreated(data: unknown, ctx: AnswerContext): ContactsCreatedAnswer {
  const record = isObject(data) ? data : {};
  const listed = field(record, ['contacts', 'created', 'added', 'items', 'data']);
  const addedList = listed !== undefined && typeof listed !== 'number' && typeof listed !== 'string' ? asList(listed) : null;
  const added =
    pick(record, ['added', 'addedCount', 'created', 'createdCount', 'inserted', 'saved', 'successful', 'success', 'count', 'total'], asCount) ??
    (addedList ? addedList.length : null);
  const skipped = pick(record, ['skipped', 'skippedCount', 'duplicates', 'duplicateCount', 'existing', 'alreadyExists', 'ignored'], asCount);
  if (added === null) ctx.note('The answer does not say how many contacts were added.');
  return { phoneBookId: pick(record, ['phoneBookId', 'phonebookId', 'bookId', 'groupId'], asCount), added, skipped };
}
