/**
 * Messages other parts of vendesk send about purchases (issue 40; for the standing orders): each
 * recipient of a bought bulk item their own SMS, and a note to the team's finance contact. Both go
 * through the jobs of personalised messages (personalisedMessages.ts): written before they leave,
 * sent once, charged ₦4 a page and counted in the spend figures like any message vendesk sends.
 *
 *   await notifyRecipientsBought(app, occurrenceJobId, 'Hello {Name}, your November data allowance of {Data plan} has been sent.');
 *   await notifyFinanceContact(app, 'Standing order “Data allowances” waits: the wallet is ₦12,000.00 short.');
 *
 * The sender ID and the finance contact's number are settings (`messaging.notifications.set`,
 * `vendesk sms notifications`); with no sender ID set, the organisation's first approved one is used.
 */
import { AppError } from '../../shared/appError';
import { quotedList } from '../../shared/excerpt';
import type { MessageJobView, NotificationSettings } from '../../shared/contract/messaging';
import { columnFor, fillPlaceholders, headingKey, parseMessageText, placeholderText } from '../../shared/messagePlaceholders';
import { formatNaira } from '../../shared/money';
import { normalizePhone } from '../../shared/phone';
import type { App, Session } from '../appContext';
import { ownJob } from '../buying/jobLifecycle';
import { JobReads } from '../buying/jobReads';
import type { ItemRow, JobRow } from '../buying/jobRows';
import { createMessagingService } from './messagingService';
import { senderIdView } from './messagingViews';
import { createPersonalisedMessages, sendPersonalisedMessages } from './personalisedMessages';

const SETTINGS_KEY = 'messaging.notifications';
const NO_SETTINGS: NotificationSettings = { senderId: null, financeContact: null };

export function notificationSettings(app: Pick<App, 'settings'>): NotificationSettings {
  return { ...NO_SETTINGS, ...app.settings.get<Partial<NotificationSettings>>(SETTINGS_KEY, {}) };
}

/** Saves the sender ID and the finance contact (an 11-digit number once read); null clears one. */
export async function setNotificationSettings(app: App, input: { senderId?: string | null; financeContact?: string | null }): Promise<NotificationSettings> {
  const next = { ...notificationSettings(app) };
  if (input.financeContact !== undefined) {
    if (input.financeContact === null || input.financeContact.trim() === '') next.financeContact = null;
    else {
      const phone = normalizePhone(input.financeContact);
      if (!phone.ok) throw new AppError('invalid_phone', `The finance contact's number: ${phone.reason}.`, 'Give a Nigerian mobile number, such as 08031234567.');
      next.financeContact = phone.phone;
    }
  }
  if (input.senderId !== undefined) {
    if (input.senderId === null || input.senderId.trim() === '') next.senderId = null;
    else {
      await app.service(createMessagingService).approvedSender(input.senderId.trim());
      next.senderId = input.senderId.trim();
    }
  }
  app.settings.set(SETTINGS_KEY, next);
  return next;
}

/** The sender ID notifications go from: the setting, else the organisation's first approved one. */
async function senderFor(app: App, session: Session): Promise<string> {
  const set = notificationSettings(app).senderId;
  if (set) return set;
  const approved = (await session.client.getSenderIds()).map(senderIdView).find((s) => s.approved);
  if (!approved)
    throw new AppError(
      'sender_not_approved',
      'The organisation has no approved sender ID to send notifications from.',
      'Register one with the service, or set one: vendesk sms notifications --sender ID.',
    );
  return approved.senderId;
}

/** The values a bought item offers a text: each mapped column of its sheet by its heading, and the usual names. */
function itemValues(job: JobRow, item: ItemRow): { headings: string[]; values: string[] } {
  const headers = JSON.parse(job.headers_json) as string[];
  const mapping = JSON.parse(job.mapping_json) as Record<string, number | null>;
  const amount = formatNaira(item.amount_kobo);
  const byField: Record<string, string> = {
    phone: item.phone,
    name: item.name,
    amount,
    network: item.network,
    productCode: item.description || item.product_code,
    dataPlan: item.description || item.product_code,
    bouquet: item.description || item.product_code,
    meter: item.account ?? '',
    smartcard: item.account ?? '',
    disco: item.operator,
    provider: item.operator,
    vendType: item.vend_type ?? '',
  };
  const headings: string[] = [];
  const values: string[] = [];
  for (const [field, column] of Object.entries(mapping)) {
    if (column === null || column === undefined || !(field in byField) || headers[column] === undefined) continue;
    headings.push(headers[column]);
    values.push(byField[field]);
  }
  // The usual names, for a text written before the sheet's headings are known.
  const usual: [string, string][] = [
    ['Name', item.name],
    ['Phone', item.phone],
    ['Amount', amount],
    ['Network', item.network],
    ['Plan', item.description || item.product_code],
  ];
  for (const [heading, value] of usual) {
    if (headings.some((h) => headingKey(h) === headingKey(heading))) continue;
    headings.push(heading);
    values.push(value);
  }
  return { headings, values };
}

export interface RecipientsNotified {
  /** The job of messages sent now (null: every bought item's recipient had their message already). */
  job: MessageJobView | null;
  /** Jobs of earlier calls that had not finished, resumed first. */
  resumed: MessageJobView[];
  /** Bought items that get no message: a value of the text is empty for them (`empty`: the placeholders). */
  skipped: { row: number; phone: string; empty: string[] }[];
}

/**
 * Sends each recipient of bulk job `jobId`'s bought items (state `success`) their own SMS, the
 * `template`'s `{Column heading}` placeholders filled from the item's row: any column the job read
 * (its heading in the sheet: `{Name}`, `{Data plan}`, `{Amount}` as ₦…) and `{Name}`, `{Phone}`,
 * `{Amount}`, `{Network}`, `{Plan}` whatever the headings. Once per item, whoever calls again: each
 * message is written with the item as its key before it leaves, so a second call, another process
 * or a restart sends only items bought since; an earlier call's unfinished job is resumed first (what
 * may have been sent is checked in the service's history). Items not bought yet are left for a later
 * call. Resolves when the messages have their answers (the job may pause: `job.state` says).
 *
 * Refuses, before anything is written: a text whose placeholders name no column of the job
 * (`placeholder_unknown`, naming them and the columns there are), or that cannot be read
 * (`message_text_invalid`); a job of another connection (`job_other_connection`).
 */
export async function notifyRecipientsBought(app: App, jobId: string, template: string, options: { signal?: AbortSignal } = {}): Promise<RecipientsNotified> {
  const session = app.session();
  const reads = new JobReads(app.db);
  const job = ownJob(reads.job(jobId), jobId, session.connection);
  const parsed = parseMessageText(template);
  if (!parsed.ok) throw new AppError('message_text_invalid', parsed.problems.map((p) => p.message).join(' '), 'Correct the text. Nothing was sent.');

  const jobs = app.service(createPersonalisedMessages);
  const sourceRef = `bulk:${jobId}`;
  const resumed: MessageJobView[] = [];
  for (const id of jobs.unfinishedOf(sourceRef)) resumed.push(await jobs.start(session, id, { wait: true, signal: options.signal }));

  const items = reads.items(jobId, { states: ['success'] });
  const skipped: RecipientsNotified['skipped'] = [];
  const messages: { phone: string; text: string; row: number; sourceKey: string }[] = [];
  let unknown: { names: string[]; headings: string[] } | null = null;
  for (const item of items) {
    const { headings, values } = itemValues(job, item);
    const filled: Record<string, string> = {};
    const missing: string[] = [];
    for (const name of parsed.placeholders) {
      const match = columnFor(name, headings);
      if (match.kind === 'column') filled[name] = values[match.index];
      else missing.push(name);
    }
    if (missing.length) {
      unknown = { names: missing, headings };
      break;
    }
    const text = fillPlaceholders(parsed, filled);
    if (!text.ok) {
      skipped.push({ row: item.row_number, phone: item.phone, empty: text.empty });
      continue;
    }
    messages.push({ phone: item.phone, text: text.text, row: item.row_number, sourceKey: `${sourceRef}:${item.seq}` });
  }
  if (unknown) {
    throw new AppError(
      'placeholder_unknown',
      `The text uses ${unknown.names.map(placeholderText).join(', ')}, but bulk job ${jobId}'s rows have no such column. They have ${quotedList(unknown.headings)}. Nothing was sent.`,
      'Write a placeholder as one of those headings in braces, like {Name}.',
    );
  }
  if (messages.length === 0) return { job: null, resumed, skipped };
  const senderId = await senderFor(app, session);
  const sent = await sendPersonalisedMessages(
    app,
    session,
    { senderId, messages, label: `Bought: ${job.file_name}`, origin: 'service', text: template, sourceRef },
    { wait: true, signal: options.signal },
  );
  return { job: sent, resumed, skipped };
}

/**
 * Sends `text` to the finance contact (the `messaging.notifications` setting) as one SMS through
 * the service's messaging, charged and counted like any other. Resolves with its job, or with
 * `{ sent: false, why }` when no finance contact is set — a notification is never why an
 * occurrence fails. Other refusals (the text, the sender ID) throw as the service gave them.
 */
export async function notifyFinanceContact(
  app: App,
  text: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ sent: true; job: MessageJobView } | { sent: false; why: string }> {
  const contact = notificationSettings(app).financeContact;
  if (!contact) return { sent: false, why: 'No finance contact is set (vendesk sms notifications --finance-contact NUMBER, or Settings).' };
  const session = app.session();
  const senderId = await senderFor(app, session);
  const job = await sendPersonalisedMessages(
    app,
    session,
    { senderId, messages: [{ phone: contact, text }], label: 'Note to the finance contact', origin: 'service' },
    { wait: true, signal: options.signal },
  );
  if (!job) return { sent: false, why: 'The note was not written.' };
  return { sent: true, job };
}
