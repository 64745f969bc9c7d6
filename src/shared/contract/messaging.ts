/**
 * Operations of messaging: sender IDs, templates, phonebooks and contacts (imported from
 * spreadsheets), single and bulk SMS with their cost, status and history, one-time codes.
 * Money is integer kobo; the cost of a message comes from `shared/messagingCost.ts` only.
 *
 * Longer than 400 lines on purpose: one declaration per operation of the area — its input schema,
 * its output type and what it changes — which every shell and the contract test read as one list.
 */
import { z } from 'zod';
import type { ApprovalByArea, ApprovalState, MessageStatus } from '../wire';
import { isEmailAddress } from '../emailAddresses';
import type { MessageCost } from '../messagingCost';
import { analyzeTemplate } from '../messagingTemplate';
import { normalizePhone } from '../phone';
import { op } from './define';
import { fileRefSchema } from './files';

/** The coverage area whose approval decides whether a sender ID or template can be used. */
export const COVERAGE_AREA = 'NG';

/** Approval in the coverage area; UNKNOWN when the service's answer does not say. */
export type ApprovalView = ApprovalState | 'UNKNOWN';

export interface SenderIdView {
  senderId: string;
  /** Per coverage area, as the service gave it ({} when it did not say). */
  approval: ApprovalByArea;
  /** Approval in {@link COVERAGE_AREA}. */
  state: ApprovalView;
  /**
   * Whether vendesk lets it be chosen: APPROVED, or UNKNOWN (the service did not say; it refuses
   * an unapproved one itself, before charging).
   */
  approved: boolean;
  createdAt: string | null;
}

export interface TemplateView {
  id: string;
  name: string;
  slug: string;
  /** null when the service did not give the text (such a template cannot be priced or sent from vendesk). */
  body: string | null;
  indexes: string[];
  useCases: string[];
  approval: ApprovalByArea;
  state: ApprovalView;
  /** As for sender IDs: APPROVED or UNKNOWN. */
  approved: boolean;
  createdAt: string | null;
}

export interface PhonebookView {
  id: number;
  name: string;
  description: string;
  /** null when the service's list does not say. */
  contactCount: number | null;
  createdAt: string | null;
}

export interface ContactView {
  id: number;
  name: string;
  phoneNumber: string;
  createdAt: string | null;
}

export interface PhonebookContactsPage {
  phonebook: PhonebookView;
  /** Contacts matching the search, this page only. */
  contacts: ContactView[];
  /** Contacts matching the search in all. */
  matching: number;
  offset: number;
  /** false when the service's answer did not list the phonebook's contacts. */
  contactsListed: boolean;
}

export interface RowProblem {
  row: number;
  message: string;
}

export interface ContactsPreview {
  fileName: string;
  format: 'csv' | 'xlsx';
  sheetNames: string[];
  sheet: string | null;
  headers: string[];
  phoneColumn: string | null;
  nameColumn: string | null;
  /** Data rows read. */
  rows: number;
  /** Rows with a valid number, repeats in the file removed. */
  valid: number;
  invalidCount: number;
  /** The first invalid rows, each explained. */
  invalid: RowProblem[];
  duplicateCount: number;
  duplicates: RowProblem[];
  /** The first valid contacts, as they will be uploaded. */
  sample: { row: number; name: string; phone: string }[];
  /** When a phonebook was named: valid numbers it already holds (they are not added again). */
  alreadyInPhonebook: number | null;
  /** When this file was imported into that phonebook before, when. */
  importedBefore: string | null;
}

export interface ContactsImportResult {
  phoneBookId: number;
  fileName: string;
  rows: number;
  valid: number;
  /** New contacts the phonebook received. */
  added: number;
  /** Valid numbers already in the phonebook: not added again. */
  skipped: number;
  invalidCount: number;
  invalid: RowProblem[];
  duplicateCount: number;
  cancelled: boolean;
  chunks: number;
  durationMs: number;
  /** How the counts were established when the service's answers did not give them, in sentences. */
  notes: string[];
}

/**
 * A message as vendesk knows it. What the service's answer did not say is null (shown as not
 * given, never as 0), and `notes` says so in sentences. For a message vendesk has just sent, what
 * it sent fills the gaps (text, recipients, sender) and a missing cost is the quoted cost
 * (`costSource: 'quoted'`).
 */
export interface MessageView {
  /** The message's reference; null when the service did not give one. */
  reference: string | null;
  /** The answer's request reference, for support (not the message reference). */
  requestReference: string | null;
  senderId: string;
  body: string;
  isBulk: boolean;
  phoneBookId: number | null;
  recipientCount: number | null;
  /** Up to the first 50 recipients. */
  recipients: string[];
  pages: number | null;
  emails: string[];
  smsCostKobo: number | null;
  emailCostKobo: number | null;
  totalCostKobo: number | null;
  /** Whose figure the cost is: the service's answer, or the quote the user confirmed (the answer gave none). */
  costSource: 'service' | 'quoted' | null;
  status: MessageStatus | 'UNKNOWN';
  templateId: string | null;
  createdAt: string | null;
  /** What the service's answer did not say, in sentences. */
  notes: string[];
}

export interface MessageQuote extends MessageCost {
  /** The text recipients receive (a template's placeholders filled in). */
  body: string;
  /** "08031234567" or "Staff (1,204 contacts)". */
  recipientsLabel: string;
}

export interface MessageHistoryView {
  items: MessageView[];
  page: number;
  perPage: number;
  /** null when the service does not say. */
  totalPages: number | null;
  /** Messages matching the filters, on all pages; null when the service does not say. */
  totalRecords: number | null;
  hasMore: boolean;
}

export interface OtpSentView {
  /** What confirms the code: the answer's reference, else its request reference (see notes); null when neither was given. */
  reference: string | null;
  receiverNumber: string;
  numberOfDigits: number;
  seconds: number;
  sentAt: string;
  expiresAt: string;
  costKobo: number;
  /** The service's figure, or the quote (the answer gave none). */
  costSource: 'service' | 'quoted';
  /** What the service's answer did not say, in sentences. */
  notes: string[];
}

export interface OtpConfirmedView {
  reference: string;
  confirmedAt: string;
}

// ---------------------------------------------------------------- personalised messages (jobs)

/**
 * A job of personalised messages, one per recipient, each sent alone: `running`, `paused` (by the
 * user, Ctrl-C, a refusal of the service or a switch of connection: `note` says which), `cancelled`
 * (messages not sent yet are not sent), `completed`, or `needs_attention` (a message whose answer
 * was lost could not be told sent or not from the service's history: check it there).
 */
export const MESSAGE_JOB_STATES = ['running', 'paused', 'cancelled', 'completed', 'needs_attention'] as const;
export type MessageJobState = (typeof MESSAGE_JOB_STATES)[number];

/**
 * A message of a job: `queued` (written, not sent yet), `sending` (its request has left), `sent`
 * (charged), `failed` (refused by the service: nothing charged), `uncertain` (its answer was lost:
 * it may have been sent and charged; vendesk checks the service's history and never sends it again
 * blindly), `cancelled` (its job was cancelled before it was sent).
 */
export const JOB_MESSAGE_STATES = ['queued', 'sending', 'sent', 'failed', 'uncertain', 'cancelled'] as const;
export type JobMessageState = (typeof JOB_MESSAGE_STATES)[number];

export interface MessageJobView {
  id: number;
  /** `sheet`: a contacts sheet of the Messaging page or `vendesk sms bulk`; `service`: another part of vendesk (a standing order). */
  origin: 'sheet' | 'service';
  /** The file's name, or what made the job. */
  label: string;
  senderId: string;
  /** The text with its placeholders, when the job was made from one. */
  text: string | null;
  state: MessageJobState;
  /** Left `running` by a vendesk that stopped (a crash, a killed process): resume it. */
  interrupted: boolean;
  /** Why it is paused or needs attention, in a sentence. */
  note: string | null;
  messages: number;
  counts: Record<JobMessageState, number>;
  /** What all its messages cost at ₦4 a page (the estimate shown before sending). */
  estimatedKobo: number;
  /** What the sent messages were charged: the service's figure, else the estimate (`chargedAsQuoted` of them). */
  chargedKobo: number;
  chargedAsQuoted: number;
  /** The estimate of the uncertain messages: it may have left the wallet. */
  uncertainKobo: number;
  createdAt: string;
  finishedAt: string | null;
}

export interface JobMessageView {
  seq: number;
  /** Its row of the sheet, when it came from one. */
  row: number | null;
  phone: string;
  body: string;
  state: JobMessageState;
  pages: number;
  estimatedKobo: number;
  /** What it was charged (sent only): the service's figure, else the estimate (`costSource`). */
  chargedKobo: number | null;
  costSource: 'service' | 'quoted' | null;
  reference: string | null;
  /** Why it failed, is uncertain, was sent again or settled from the history. */
  reason: string | null;
  attempts: number;
}

export interface MessageJobPage {
  job: MessageJobView;
  messages: JobMessageView[];
  /** Messages of the job in the chosen states, on all pages. */
  matching: number;
  offset: number;
}

/** A row of the sheet that gets no message until its empty values are filled in. */
export interface IncompleteRow {
  row: number;
  phone: string;
  /** The placeholders whose column is empty in this row. */
  empty: string[];
}

export interface SheetMessagesPreview {
  fileName: string;
  format: 'csv' | 'xlsx';
  sheetNames: string[];
  sheet: string | null;
  headers: string[];
  phoneColumn: string | null;
  /** Data rows read. */
  rows: number;
  /** What is wrong with the text itself (sentences); nothing can be sent until it is corrected. */
  textProblems: string[];
  /** Each placeholder of the text, with the column that fills it (null: the sheet has none). */
  placeholders: { name: string; column: string | null }[];
  /** The first filled messages, as they will be sent. */
  sample: { row: number; phone: string; text: string; pages: number }[];
  /** Rows with every value: one message each. */
  messages: number;
  /** Their cost at ₦4 a page, summed over the messages (each is priced on its own text). */
  smsKobo: number;
  pages: { fewest: number; most: number; total: number };
  /** Rows with an empty value for a placeholder: the user leaves them out or stops. */
  incompleteCount: number;
  incomplete: IncompleteRow[];
  /** Rows that cannot be sent (a number that is not Nigerian, a hidden character, a message too long). */
  invalidCount: number;
  invalid: RowProblem[];
  /** Rows whose number is on an earlier row: that row's message is the one sent. */
  duplicateCount: number;
  duplicates: RowProblem[];
}

/** Who notifications go to and from (src/main/messaging/notifications.ts). */
export interface NotificationSettings {
  /** The sender ID notifications go from; null: the organisation's first approved one. */
  senderId: string | null;
  /** The finance contact's number (11 digits), told when a standing order's occurrence fails or waits; null: nobody. */
  financeContact: string | null;
}

// ---------------------------------------------------------------- input schemas

const phoneInput = z
  .string()
  .trim()
  .min(1, 'Enter the phone number')
  .transform((value, ctx) => {
    const r = normalizePhone(value);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: `${r.reason}.` });
      return z.NEVER;
    }
    return r.phone;
  });

const senderIdInput = z.string().trim().min(1, 'Choose an approved sender ID');

const emailsInput = z
  .array(z.string().trim())
  .default([])
  .superRefine((list, ctx) => {
    const bad = list.filter((e) => !isEmailAddress(e));
    if (bad.length) ctx.addIssue({ code: 'custom', message: `Not an email address: ${bad.slice(0, 3).join(', ')}. Correct or remove it.` });
  })
  .transform((list) => [...new Set(list.map((e) => e.toLowerCase()))]);

export const messageTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('number'), to: phoneInput }),
  z.object({ kind: z.literal('phonebook'), phoneBookId: z.number().int().positive('Choose a phonebook') }),
]);

export const messageContentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string().min(1, 'Write the message').max(1600, 'A message can be at most 1,600 characters (10 pages)') }),
  z.object({ kind: z.literal('template'), templateId: z.string().min(1, 'Choose an approved template'), values: z.array(z.string()).default([]) }),
]);

const quoteInput = z.object({
  target: messageTargetSchema,
  content: messageContentSchema,
  emails: emailsInput,
});

const sendInput = quoteInput.extend({
  senderId: senderIdInput,
  subject: z.string().trim().max(200).optional(),
  /** The total the user confirmed; the send is refused if the cost has changed since. */
  confirmedTotalKobo: z.number().int().nonnegative(),
});

/** The text of personalised messages: placeholders are columns of the sheet (src/shared/messagePlaceholders.ts). */
const personalisedText = z
  .string()
  .min(1, 'Write the message')
  .max(1600, 'A message can be at most 1,600 characters (10 pages)')
  .refine((t) => t.trim() !== '', 'Write the message');

const sheetInput = z.object({ file: fileRefSchema, sheet: z.string().optional(), text: personalisedText });

const messageJobId = z.number().int().positive('Name the job by its number');

export type MessageTargetInput = z.input<typeof messageTargetSchema>;
export type MessageContentInput = z.input<typeof messageContentSchema>;

const templateCreateInput = z
  .object({
    name: z.string().trim().min(1, 'Give the template a name').max(100),
    slug: z
      .string()
      .trim()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'The slug is lower-case letters, digits and dashes, like salary-notice')
      .max(60)
      .optional(),
    body: z.string().max(1600, 'A template can be at most 1,600 characters'),
    /** Optional: the service takes none as well (its `useCase` is a comma-separated text; the sandbox takes it empty). */
    useCases: z.array(z.string().trim().min(1)).default([]),
  })
  .superRefine((t, ctx) => {
    for (const p of analyzeTemplate(t.body).problems) ctx.addIssue({ code: 'custom', path: ['body'], message: p.message });
  });

const dateInput = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Write dates as YYYY-MM-DD')
  .optional();

/** One message the sandbox "sent" (its outbox): shown in the window on the sandbox connection only. */
export interface SandboxOutboxItem {
  channel: 'sms' | 'email';
  to: string;
  body: string;
  reference: string;
  createdAt: string;
  /** The one-time code, when the message carried one. */
  code: string | null;
}

export const messagingOperations = {
  'messaging.senderIds': op(z.object({}), 'Sender IDs of the organisation with their approval state').returns<SenderIdView[]>(),

  'messaging.templates.list': op(z.object({}), 'Templates with their approval state per coverage area').returns<TemplateView[]>(),
  'messaging.templates.create': op(templateCreateInput, 'Create a template; its indexes are derived from the body', { invalidates: ['templates'] }).returns<TemplateView>(),

  'messaging.phonebooks.list': op(z.object({}), 'Phonebooks of the organisation').returns<PhonebookView[]>(),
  'messaging.phonebooks.create': op(
    z.object({ name: z.string().trim().min(1, 'Give the phonebook a name').max(100), description: z.string().trim().max(500).default('') }),
    'Create a phonebook',
    { invalidates: ['phonebooks'] },
  ).returns<PhonebookView>(),
  'messaging.phonebooks.get': op(
    z.object({
      id: z.number().int().positive(),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(1).max(1000).default(200),
      search: z.string().trim().default(''),
    }),
    'One phonebook and a page of its contacts',
  ).returns<PhonebookContactsPage>(),

  'messaging.contacts.preview': op(
    z.object({ file: fileRefSchema, sheet: z.string().optional(), phoneBookId: z.number().int().positive().optional() }),
    'Read a contacts file and explain every row that cannot be imported',
  ).returns<ContactsPreview>(),
  'messaging.contacts.import': op(
    z.object({ file: fileRefSchema, sheet: z.string().optional(), phoneBookId: z.number().int().positive() }),
    'Upload the valid contacts of a file into a phonebook, in chunks, with progress; numbers already there are not added again',
    { invalidates: ['phonebooks'] },
  ).returns<ContactsImportResult>(),
  // The import it stops ends its own operation, which says what changed.
  'messaging.contacts.cancel': op(z.object({ phoneBookId: z.number().int().positive() }), 'Stop a contacts upload after the chunk in flight', { invalidates: [] }).returns<{
    cancelled: boolean;
  }>(),

  'messaging.quote': op(quoteInput, 'Recipients and cost of a message before it is sent').returns<MessageQuote>(),
  'messaging.send': op(sendInput, 'Send an SMS to one number or a phonebook, optionally with email copies', { invalidates: ['balance', 'messages'] }).returns<MessageView>(),
  'messaging.status': op(z.object({ reference: z.string().trim().min(1, 'Enter the message reference') }), 'Status of a message by its reference').returns<MessageView>(),
  'messaging.history': op(
    z.object({
      page: z.number().int().min(1).default(1),
      perPage: z.number().int().min(1).max(100).default(20),
      startDate: dateInput,
      endDate: dateInput,
      search: z.string().trim().optional(),
    }),
    'Messages sent, newest first, with filters',
  ).returns<MessageHistoryView>(),

  'messaging.otp.send': op(
    z.object({
      receiverNumber: phoneInput,
      senderId: senderIdInput,
      numberOfDigits: z.number().int().min(6, 'A code has at least 6 digits').max(100, 'A code has at most 100 digits'),
      seconds: z.number().int().min(30, 'A code is valid for at least 30 seconds').max(86_400, 'A code is valid for at most 86,400 seconds (24 hours)'),
      emails: emailsInput,
    }),
    'Send a one-time code',
    { invalidates: ['balance', 'messages'] },
  ).returns<OtpSentView>(),
  'messaging.otp.confirm': op(
    z.object({ reference: z.string().trim().min(1, 'Enter the reference of the code'), code: z.string().trim().regex(/^\d+$/, 'The code is digits only') }),
    'Confirm a one-time code',
    // The service marks the code used; nothing a window lists changes.
    { invalidates: [] },
  ).returns<OtpConfirmedView>(),
  'messaging.sheet.preview': op(
    sheetInput,
    'Read a contacts sheet and fill a message text for each row: placeholders, a preview, incomplete and invalid rows, the cost',
  ).returns<SheetMessagesPreview>(),
  'messaging.sheet.send': op(
    sheetInput.extend({
      senderId: senderIdInput,
      /** Leave out the rows with an empty value for a placeholder (else nothing is sent while there are any). */
      skipEmpty: z.boolean().default(false),
      /** Leave out the rows that cannot be sent (else nothing is sent while there are any). */
      skipInvalid: z.boolean().default(false),
      /** The estimated total the user confirmed; refused when the cost has changed since. */
      confirmedTotalKobo: z.number().int().nonnegative(),
      /** Resolve when the job has finished (or paused) instead of when it has started. */
      wait: z.boolean().default(false),
    }),
    'Send each row of a contacts sheet its own message, one by one, as a job with progress',
    { invalidates: ['messages'] },
  ).returns<MessageJobView>(),
  'messaging.jobs.list': op(z.object({ limit: z.number().int().min(1).max(200).default(20) }), 'Jobs of personalised messages of the connection in use, newest first').returns<
    MessageJobView[]
  >(),
  'messaging.jobs.get': op(
    z.object({
      id: messageJobId,
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().min(1).max(1000).default(100),
      states: z.array(z.enum(JOB_MESSAGE_STATES)).optional(),
    }),
    'One job of personalised messages and a page of its messages',
  ).returns<MessageJobPage>(),
  // The job announces its own changes as it stops.
  'messaging.jobs.pause': op(z.object({ id: messageJobId }), 'Stop sending after the message in flight', { invalidates: [] }).returns<MessageJobView>(),
  'messaging.jobs.resume': op(
    z.object({ id: messageJobId, wait: z.boolean().default(false) }),
    'Continue a paused or interrupted job (messages whose answer was lost are checked in the service’s history first); for a cancelled one, check those only',
    { invalidates: [] },
  ).returns<MessageJobView>(),
  'messaging.jobs.cancel': op(z.object({ id: messageJobId }), 'Stop the job: messages not sent yet are not sent', { invalidates: ['messages'] }).returns<MessageJobView>(),
  'messaging.notifications.get': op(z.object({}), 'Who notifications go to (the finance contact) and from (the sender ID)').returns<NotificationSettings>(),
  'messaging.notifications.set': op(
    z.object({ senderId: z.string().max(11).nullable().optional(), financeContact: z.string().max(20).nullable().optional() }),
    'Set the finance contact and the sender ID of notifications (null clears one)',
    // A setting no view lists.
    { invalidates: [] },
  ).returns<NotificationSettings>(),
  'messaging.sandboxOutbox': op(z.object({}), 'What the sandbox "sent" (SMS, emails, one-time codes), newest first; sandbox connection only').returns<SandboxOutboxItem[]>(),
} as const;
