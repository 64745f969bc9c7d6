/**
 * The spec shows no shapes for the messaging answers, so the sandbox can answer them in more than
 * one plausible form, to test that a client reads them by meaning (docs/sandbox.md):
 *
 * - `standard`: the sandbox's own shapes (src/shared/wire.ts): camelCase, numbers as numbers,
 *   lists as arrays, every fact present.
 * - `alt`: an ASP.NET-style service: PascalCase keys and other names (`MessageId`, `Content`,
 *   `TotalContacts`, `Msisdn` in international form), ids and amounts as strings, approval and
 *   delivery as words (`Approved`, `Submitted`), costs in a `Cost` object, lists wrapped in
 *   `{ Items, TotalRecords, PageNumber, PageSize }`, extra fields. Every fact is there.
 * - `sparse`: a minimal snake_case service: bare arrays, `{ data }`/`{ records }` wrappers, and
 *   answers that leave facts out — a send says only `{ status: "queued" }` (no reference, no cost),
 *   a one-time code's reference is the envelope's requestReference, a phonebook list has no
 *   contact counts, a contacts upload answers a sentence, the history has no costs.
 *
 * Only successful answers of the messaging endpoints change; the envelope, failures and every
 * documented endpoint keep their shapes.
 */
import type {
  ContactRecord,
  ContactsCreated,
  EvidenceConfirmed,
  EvidenceSent,
  MessageRecord,
  PageObject,
  PhonebookRecord,
  PhonebookWithContacts,
  SenderIdRecord,
  TemplateRecord,
} from '../shared/wire';
import type { Reply } from './httpErrors';

export const SHAPE_VARIANTS = ['standard', 'alt', 'sparse'] as const;
export type ShapeVariant = (typeof SHAPE_VARIANTS)[number];

export function isShapeVariant(value: unknown): value is ShapeVariant {
  return typeof value === 'string' && (SHAPE_VARIANTS as readonly string[]).includes(value);
}

type Json = Record<string, unknown>;

const title = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
const money = (naira: number): string => naira.toFixed(2);
const international = (local: string): string => (/^0\d{10}$/.test(local) ? `234${local.slice(1)}` : local);
/** `2026-01-05 14:03:22`, as many services write UTC times. */
const plainTime = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');

function wrapped(items: unknown[]): Json {
  return { Items: items, TotalRecords: items.length, PageNumber: 1, PageSize: items.length };
}

const ALT_DELIVERY: Record<MessageRecord['status'], string> = { DELIVERED: 'Delivered', SENT: 'Submitted', FAILED: 'Failed' };
const SPARSE_DELIVERY: Record<MessageRecord['status'], string> = { DELIVERED: 'DELIVRD', SENT: 'submitted', FAILED: 'undeliv' };

// ---------------------------------------------------------------- alt

const alt = {
  sender: (s: SenderIdRecord, i: number): Json => ({
    Id: String(i + 1),
    SenderId: s.senderId,
    Status: title(s.approval.NG ?? 'PENDING'),
    Network: 'ALL',
    DateCreated: s.createdAt,
  }),
  template: (t: TemplateRecord): Json => ({
    TemplateId: t.id,
    TemplateName: t.name,
    Slug: t.slug,
    Content: t.body,
    Placeholders: t.indexes.map(Number),
    UseCases: t.useCase.split(',').filter(Boolean),
    Status: title(t.approval.NG ?? 'PENDING'),
    Channel: 'SMS',
    DateCreated: t.createdAt,
  }),
  message: (m: MessageRecord): Json => ({
    MessageId: m.reference,
    Sender: m.senderId,
    Text: m.body,
    IsBulk: m.isBulk,
    PhoneBookId: m.phoneBookId === null ? null : String(m.phoneBookId),
    Recipients: wrapped(m.recipients),
    Pages: String(m.pages),
    EmailCopies: m.emails,
    Cost: { Sms: money(m.smsCost), Email: money(m.emailCost), Total: money(m.totalCost), Currency: 'NGN' },
    Status: ALT_DELIVERY[m.status],
    TemplateId: m.templateId,
    DateSent: m.createdAt,
    Route: 'DND',
  }),
  contact: (c: ContactRecord): Json => ({ ContactId: String(c.id), FullName: c.name, Msisdn: international(c.phoneNumber), DateCreated: c.createdAt }),
  phonebook: (p: PhonebookRecord): Json => ({
    PhoneBookId: String(p.id),
    Name: p.name,
    Description: p.description,
    TotalContacts: String(p.contactCount),
    DateCreated: p.createdAt,
    Owner: 'api',
  }),
};

// ---------------------------------------------------------------- sparse

const sparse = {
  state: (approval: Record<string, string>): string => (approval.NG ?? 'PENDING').toLowerCase(),
  message: (m: MessageRecord): Json => ({
    ref: m.reference,
    sender_id: m.senderId,
    message: m.body,
    recipients: m.recipients,
    status: SPARSE_DELIVERY[m.status],
    created_at: plainTime(m.createdAt),
  }),
};

type Reshape = (data: unknown, reply: Reply) => unknown;

const ALT: Record<string, Reshape> = {
  '/getSenderIds': (d) => wrapped((d as SenderIdRecord[]).map(alt.sender)),
  '/getTemplates': (d) => wrapped((d as TemplateRecord[]).map(alt.template)),
  '/createTemplates': (d) => alt.template(d as TemplateRecord),
  '/sendMessage': (d) => alt.message(d as MessageRecord),
  '/MSQ/': (d) => alt.message(d as MessageRecord),
  '/messageHistory': (d) => {
    const page = d as PageObject<MessageRecord>;
    return { Items: page.Items.map(alt.message), TotalRecords: page.TotalRecords, PageNumber: page.CurrentPage, PageSize: page.Items.length };
  },
  '/sendEvidence': (d) => {
    const e = d as EvidenceSent;
    return { Reference: e.reference, Recipient: international(e.receiverNumber), Length: e.numberOfDigits, ExpiryDate: e.expiresAt, Cost: money(e.cost) };
  },
  '/confirmEvidence': (d) => {
    const e = d as EvidenceConfirmed;
    return { Reference: e.reference, Verified: true, DateVerified: e.confirmedAt };
  },
  '/craetePhonebook': (d) => alt.phonebook(d as PhonebookRecord),
  '/createContact': (d) => {
    const c = d as ContactsCreated;
    return { PhoneBookId: String(c.phoneBookId), Added: String(c.added), Duplicates: String(c.skipped), Items: c.contacts.map(alt.contact) };
  },
  '/getPhonebook': (d) => {
    if (Array.isArray(d)) return wrapped((d as PhonebookRecord[]).map(alt.phonebook));
    const p = d as PhonebookWithContacts;
    return { ...alt.phonebook(p), Contacts: wrapped(p.contacts.map(alt.contact)) };
  },
};

const SPARSE: Record<string, Reshape> = {
  '/getSenderIds': (d) => (d as SenderIdRecord[]).map((s) => ({ sender_id: s.senderId, status: sparse.state(s.approval) })),
  '/getTemplates': (d) => ({ data: (d as TemplateRecord[]).map((t) => ({ id: t.id, name: t.name, body: t.body, status: sparse.state(t.approval), use_case: t.useCase })) }),
  '/createTemplates': (d) => ({ id: (d as TemplateRecord).id, status: sparse.state((d as TemplateRecord).approval) }),
  '/sendMessage': () => ({ status: 'queued' }),
  '/MSQ/': (d) => ({ ref: (d as MessageRecord).reference, status: SPARSE_DELIVERY[(d as MessageRecord).status] }),
  '/messageHistory': (d) => ({ records: (d as PageObject<MessageRecord>).Items.map(sparse.message), total_records: (d as PageObject<MessageRecord>).TotalRecords }),
  // The code is kept under the request's reference: the envelope carries it, the data does not.
  '/sendEvidence': (d, reply) => {
    reply.body.requestReference = (d as EvidenceSent).reference;
    return { status: 'sent' };
  },
  '/confirmEvidence': () => 'OTP verified',
  '/craetePhonebook': (d) => ({ phonebook_id: (d as PhonebookRecord).id }),
  '/createContact': (d) => `${(d as ContactsCreated).added} contact(s) saved`,
  '/getPhonebook': (d) => {
    if (Array.isArray(d)) return (d as PhonebookRecord[]).map((p) => ({ phonebook_id: p.id, name: p.name, description: p.description }));
    const p = d as PhonebookWithContacts;
    return { phonebook_id: p.id, name: p.name, contacts: p.contacts.map((c) => ({ name: c.name, phone_number: c.phoneNumber })) };
  },
};

/** A successful messaging answer in the form `variant` gives it; every other answer unchanged. */
export function reshapeAnswer(variant: ShapeVariant, pathname: string, reply: Reply): Reply {
  if (variant === 'standard' || reply.status >= 300 || reply.body.gatewayStatus !== '00') return reply;
  const table = variant === 'alt' ? ALT : SPARSE;
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const reshape = table[path] ?? (path.startsWith('/MSQ/') ? table['/MSQ/'] : undefined);
  if (!reshape) return reply;
  const copy: Reply = { ...reply, body: { ...reply.body } };
  copy.body.data = reshape(reply.body.data, copy);
  return copy;
}
