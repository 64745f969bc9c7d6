/**
 * Messaging for the app, the web shell and the CLI: sender IDs, templates, phonebooks, sending
 * (with the cost the user confirmed checked again just before the request leaves), message
 * status and history, and one-time codes. Contacts imports live in contactsImport.ts.
 */
import type {
  MessageHistoryView,
  MessageQuote,
  MessageView,
  OtpConfirmedView,
  OtpSentView,
  PhonebookContactsPage,
  PhonebookView,
  SenderIdView,
  TemplateView,
} from '../../shared/contract/messaging';
import { AppError } from '../../shared/appError';
import { messageCost, otpCostEstimate } from '../../shared/messagingCost';
import { analyzeTemplate, renderTemplate, slugify } from '../../shared/messagingTemplate';
import { formatNaira, nairaToKobo } from '../../shared/money';
import type { SendMessageBody, TemplateRecord } from '../../shared/wire';
import { ServiceError, UncertainOutcomeError } from '../api/serviceErrors';
import type { ServiceWindow } from '../api/serviceTime';
import type { CallOptions, VendingClient } from '../api/vendingClient';
import type { App } from '../app';
import { contactView, messageView, phonebookView, senderIdView, templateView } from './messagingViews';

export type MessageTarget = { kind: 'number'; to: string } | { kind: 'phonebook'; phoneBookId: number };
export type MessageContent = { kind: 'text'; text: string } | { kind: 'template'; templateId: string; values: string[] };

export interface SendRequest {
  target: MessageTarget;
  content: MessageContent;
  emails: string[];
  senderId: string;
  subject?: string;
  confirmedTotalKobo: number;
}

/** Phonebook ids, references and sends belong to one connection (`service_key` columns). */
export function serviceKeyOf(app: App): string {
  return app.connection.profileId;
}

const now = (): string => new Date().toISOString();

export class MessagingService {
  constructor(private readonly app: App) {}

  // ------------------------------------------------------------ sender IDs and templates

  async senderIds(): Promise<SenderIdView[]> {
    return (await this.app.client().getSenderIds()).map(senderIdView);
  }

  async templates(): Promise<TemplateView[]> {
    const list = (await this.app.client().getTemplates()).map(templateView);
    return list.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async createTemplate(input: { name: string; slug?: string; body: string; useCases: string[] }): Promise<TemplateView> {
    const analysis = analyzeTemplate(input.body);
    if (!analysis.ok) {
      throw new AppError('template_invalid', analysis.problems.map((p) => p.message).join(' '), 'Correct the template text and create it again.');
    }
    const slug = input.slug?.trim() || slugify(input.name) || 'template';
    const record = await this.app.client().createTemplate({
      body: input.body,
      indexes: analysis.indexes,
      name: input.name.trim(),
      slug,
      useCase: input.useCases.join(','),
    });
    this.app.events.emit('data.changed', { topics: ['templates'] });
    return templateView(record);
  }

  private async approvedSender(senderId: string): Promise<void> {
    const all = await this.senderIds();
    const found = all.find((s) => s.senderId === senderId);
    if (!found) {
      const approved = all.filter((s) => s.approved).map((s) => s.senderId);
      throw new AppError(
        'sender_unknown',
        `The sender ID "${senderId}" is not registered for your organisation.`,
        approved.length ? `Choose an approved sender ID: ${approved.join(', ')}.` : 'Ask the service provider to register and approve a sender ID.',
      );
    }
    if (!found.approved) {
      throw new AppError(
        'sender_not_approved',
        `The sender ID "${senderId}" is not approved for sending in Nigeria (it is ${found.state}).`,
        found.state === 'REJECTED'
          ? 'Choose another, approved sender ID.'
          : 'Wait until the service approves it, or choose an approved sender ID such as one marked APPROVED on the Sender IDs tab.',
      );
    }
  }

  private async approvedTemplate(templateId: string): Promise<TemplateRecord> {
    const record = (await this.app.client().getTemplates()).find((t) => t.id === templateId);
    if (!record) throw new AppError('template_unknown', `There is no template with id ${templateId}.`, 'Choose a template from the Templates tab.');
    const view = templateView(record);
    if (!view.approved) {
      throw new AppError(
        'template_not_approved',
        `The template "${view.name}" is not approved for sending in Nigeria (it is ${view.state}).`,
        view.state === 'REJECTED' ? 'Create a new template with different wording.' : 'Wait until it is approved (the Templates tab shows its state), then send.',
      );
    }
    return record;
  }

  // ------------------------------------------------------------ phonebooks

  async phonebooks(): Promise<PhonebookView[]> {
    return (await this.app.client().getPhonebooks()).map(phonebookView);
  }

  async createPhonebook(input: { name: string; description: string }): Promise<PhonebookView> {
    const record = await this.app.client().createPhonebook({ name: input.name, description: input.description });
    this.app.events.emit('data.changed', { topics: ['phonebooks'] });
    return phonebookView(record);
  }

  async phonebook(input: { id: number; offset: number; limit: number; search: string }): Promise<PhonebookContactsPage> {
    const record = await this.getPhonebookOrExplain(input.id);
    const q = input.search.toLowerCase();
    const digits = q.replace(/\D/g, '');
    const matching = q
      ? record.contacts.filter((c) => c.name.toLowerCase().includes(q) || (digits.length > 0 && c.phoneNumber.includes(digits.replace(/^234/, '0'))))
      : record.contacts;
    return {
      phonebook: phonebookView({ ...record, contactCount: record.contacts.length || record.contactCount }),
      contacts: matching.slice(input.offset, input.offset + input.limit).map(contactView),
      matching: matching.length,
      offset: input.offset,
    };
  }

  async getPhonebookOrExplain(id: number) {
    try {
      return await this.app.client().getPhonebook(id);
    } catch (error) {
      if (error instanceof ServiceError && error.httpStatus === 404) {
        throw new AppError('phonebook_not_found', `There is no phonebook with id ${id}.`, 'Choose one from the Phonebooks tab (vendesk phonebook list), or create it first.');
      }
      throw error;
    }
  }

  /** A phonebook named by id (digits) or by its exact name (case ignored), for the CLI. */
  async resolvePhonebook(idOrName: string): Promise<PhonebookView> {
    const list = await this.phonebooks();
    if (/^\d+$/.test(idOrName.trim())) {
      const byId = list.find((p) => p.id === Number(idOrName));
      if (byId) return byId;
    }
    const byName = list.filter((p) => p.name.toLowerCase() === idOrName.trim().toLowerCase());
    if (byName.length === 1) return byName[0];
    if (byName.length > 1) {
      throw new AppError('phonebook_ambiguous', `${byName.length} phonebooks are called "${idOrName}" (ids ${byName.map((p) => p.id).join(', ')}).`, 'Name the phonebook by its id instead.');
    }
    throw new AppError('phonebook_not_found', `There is no phonebook "${idOrName}".`, 'List them with: vendesk phonebook list, or create it with: vendesk phonebook create NAME');
  }

  // ------------------------------------------------------------ sending

  /** Recipients and cost, from the same function the confirmation shows. */
  async quote(input: { target: MessageTarget; content: MessageContent; emails: string[] }): Promise<MessageQuote> {
    const body = await this.bodyOf(input.content, false);
    let recipients: number;
    let recipientsLabel: string;
    if (input.target.kind === 'number') {
      recipients = 1;
      recipientsLabel = input.target.to;
    } else {
      // The list carries each phonebook's count: no need to download every contact to price a send.
      const phoneBookId = input.target.phoneBookId;
      const pb = (await this.app.client().getPhonebooks()).find((p) => p.id === phoneBookId);
      if (!pb) throw new AppError('phonebook_not_found', `There is no phonebook with id ${phoneBookId}.`, 'Choose one from the Phonebooks tab (vendesk phonebook list), or create it first.');
      recipients = pb.contactCount;
      recipientsLabel = `${pb.name} (${recipients.toLocaleString('en-NG')} contact${recipients === 1 ? '' : 's'})`;
      if (recipients === 0) {
        throw new AppError('phonebook_empty', `The phonebook "${pb.name}" has no contacts.`, 'Import contacts into it on the Phonebooks tab first.');
      }
    }
    return { ...messageCost({ text: body, recipients, emails: input.emails.length }), body, recipientsLabel };
  }

  private async bodyOf(content: MessageContent, requireApproved: boolean): Promise<string> {
    if (content.kind === 'text') return content.text;
    const template = requireApproved
      ? await this.approvedTemplate(content.templateId)
      : (await this.app.client().getTemplates()).find((t) => t.id === content.templateId);
    if (!template) throw new AppError('template_unknown', `There is no template with id ${content.templateId}.`, 'Choose a template from the Templates tab.');
    const needed = template.indexes.length;
    if (content.values.length !== needed) {
      throw new AppError(
        'template_values',
        `The template "${template.name}" has ${needed} placeholder${needed === 1 ? '' : 's'} but ${content.values.length} value${content.values.length === 1 ? ' was' : 's were'} given.`,
        needed ? `Give one value for each of ${template.indexes.map((i) => `{{${i}}}`).join(', ')}, in that order.` : 'This template takes no values.',
      );
    }
    const empty = content.values.findIndex((v) => v.trim() === '');
    if (empty >= 0) throw new AppError('template_values', `The value for {{${empty + 1}}} is empty.`, 'Fill in every value of the template.');
    return renderTemplate(template.body, content.values);
  }

  async send(input: SendRequest): Promise<MessageView> {
    await this.approvedSender(input.senderId);
    if (input.content.kind === 'template') await this.approvedTemplate(input.content.templateId);
    const quote = await this.quote(input);
    if (quote.totalKobo !== input.confirmedTotalKobo) {
      throw new AppError(
        'cost_changed',
        `The cost is now ${formatNaira(quote.totalKobo)} for ${quote.recipients.toLocaleString('en-NG')} recipient(s), not the ${formatNaira(input.confirmedTotalKobo)} you confirmed. Nothing was sent.`,
        'Review the new cost and confirm again.',
        { quote },
      );
    }
    const body: SendMessageBody = {
      senderId: input.senderId,
      messageBody: quote.body,
      isBulk: input.target.kind === 'phonebook',
      ...(input.target.kind === 'phonebook' ? { phoneBookId: input.target.phoneBookId } : { receiverNumber: input.target.to }),
      sendtoEmail: input.emails.length > 0,
      emails: input.emails,
      ...(input.emails.length ? { subject: input.subject || `Message from ${input.senderId}` } : {}),
      templateInUse: input.content.kind === 'template',
      ...(input.content.kind === 'template' ? { template: { templateId: input.content.templateId, indexes: input.content.values } } : {}),
    };
    const target = input.target.kind === 'phonebook' ? `phonebook:${input.target.phoneBookId}` : input.target.to;
    const record = await this.paidSend(
      { kind: 'sms', senderId: input.senderId, target, templateId: input.content.kind === 'template' ? input.content.templateId : null, body: quote.body, recipients: quote.recipients, emails: quote.emails, quotedKobo: quote.totalKobo },
      (client, options) => client.sendMessage(body, options),
      (r) => ({ reference: r.reference, chargedKobo: nairaToKobo(r.totalCost) }),
    );
    this.app.events.emit('data.changed', { topics: ['balance', 'messages'] });
    return messageView(record);
  }

  /**
   * A request that costs money: recorded (committed) before it leaves, with what it was quoted,
   * then with the service's answer — its reference, what it charged, and when on the service's
   * clock, so the wallet roll-forward can place the charge. Never repeated automatically: a send
   * whose answer was lost stays "uncertain".
   */
  private async paidSend<T>(
    send: { kind: 'sms' | 'otp'; senderId: string; target: string; templateId: string | null; body: string; recipients: number; emails: number; quotedKobo: number },
    call: (client: VendingClient, options: CallOptions) => Promise<T>,
    charged: (answer: T) => { reference: string; chargedKobo: number },
  ): Promise<T> {
    const { connection, client } = this.app.session();
    const info = this.app.db
      .prepare(
        `INSERT INTO messaging_sends (service_key, kind, sender_id, target, template_id, body, recipients, emails, quoted_kobo, state, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?)`,
      )
      .run(connection.profileId, send.kind, send.senderId, send.target, send.templateId, send.body, send.recipients, send.emails, send.quotedKobo, now());
    const id = Number(info.lastInsertRowid);
    const startedLocal = Date.now();
    let answeredAt: ServiceWindow | null = null;
    const finish = this.app.db.prepare(
      'UPDATE messaging_sends SET state = ?, reference = ?, charged_kobo = ?, error = ?, finished_at = ?, service_from_ms = ?, service_to_ms = ? WHERE id = ?',
    );
    try {
      const answer = await call(client, { onAnswered: (w) => (answeredAt = w) });
      const c = charged(answer);
      const at = answeredAt ?? client.clock.windowAt(startedLocal, Date.now());
      finish.run('sent', c.reference, c.chargedKobo, null, now(), at.fromMs, at.toMs, id);
      return answer;
    } catch (error) {
      // Without an answer the charge may have happened any time until now.
      const at = answeredAt ?? client.clock.windowAt(startedLocal, Date.now());
      finish.run(error instanceof UncertainOutcomeError ? 'uncertain' : 'failed', null, null, error instanceof Error ? error.message : String(error), now(), at.fromMs, at.toMs, id);
      throw error;
    }
  }

  async status(reference: string): Promise<MessageView> {
    try {
      return messageView(await this.app.client().messageStatus(reference));
    } catch (error) {
      if (error instanceof ServiceError && error.httpStatus === 404) {
        throw new AppError('message_not_found', `No message has the reference ${reference}.`, 'Check the reference: it is shown after sending and on the History tab.');
      }
      throw error;
    }
  }

  async history(input: { page: number; perPage: number; startDate?: string; endDate?: string; search?: string }): Promise<MessageHistoryView> {
    if (input.startDate && input.endDate && input.startDate > input.endDate) {
      throw new AppError('invalid_dates', `The start date ${input.startDate} is after the end date ${input.endDate}.`, 'Swap the dates or correct one of them.');
    }
    const answer = await this.app.client().messageHistory({
      page: input.page,
      perPage: input.perPage,
      ...(input.startDate ? { startdate: input.startDate } : {}),
      ...(input.endDate ? { enddate: input.endDate } : {}),
      ...(input.search ? { search: input.search } : {}),
    });
    return {
      items: answer.Items.map(messageView),
      page: input.page,
      perPage: input.perPage,
      totalPages: answer.TotalPages,
      totalRecords: answer.TotalRecords,
      hasMore: input.page < answer.TotalPages,
    };
  }

  // ------------------------------------------------------------ one-time codes

  async sendOtp(input: { receiverNumber: string; senderId: string; numberOfDigits: number; seconds: number; emails: string[] }): Promise<OtpSentView> {
    await this.approvedSender(input.senderId);
    const estimate = otpCostEstimate(input.numberOfDigits, input.emails.length);
    const sentAt = now();
    const sent = await this.paidSend(
      { kind: 'otp', senderId: input.senderId, target: input.receiverNumber, templateId: null, body: `${input.numberOfDigits}-digit code, valid ${input.seconds} s`, recipients: 1, emails: input.emails.length, quotedKobo: estimate.totalKobo },
      (client, options) =>
        client.sendEvidence(
          {
            receiverNumber: input.receiverNumber,
            senderId: input.senderId,
            numberOfDigits: input.numberOfDigits,
            seconds: input.seconds,
            sendtoEmail: input.emails.length > 0,
            emails: input.emails,
          },
          options,
        ),
      (answer) => ({ reference: answer.reference, chargedKobo: nairaToKobo(answer.cost) }),
    );
    const costKobo = nairaToKobo(sent.cost);
    this.app.events.emit('data.changed', { topics: ['balance', 'messages'] });
    return { reference: sent.reference, receiverNumber: sent.receiverNumber, numberOfDigits: sent.numberOfDigits, seconds: input.seconds, sentAt, expiresAt: sent.expiresAt, costKobo };
  }

  async confirmOtp(input: { reference: string; code: string }): Promise<OtpConfirmedView> {
    try {
      const confirmed = await this.app.client().confirmEvidence({ otp: input.code, reference: input.reference });
      return { reference: confirmed.reference, confirmedAt: confirmed.confirmedAt };
    } catch (error) {
      if (error instanceof ServiceError && (error.httpStatus === 400 || error.httpStatus === 404)) throw otpRefusal(error, input.reference);
      throw error;
    }
  }
}

/** Why a code was refused, in words a person acts on. */
function otpRefusal(error: ServiceError, reference: string): AppError {
  const reason = error.reason.toLowerCase();
  if (error.httpStatus === 404) {
    return new AppError('otp_unknown', `No one-time code has the reference ${reference}.`, 'Check the reference shown when the code was sent.');
  }
  if (reason.includes('expired')) {
    return new AppError('otp_expired', 'The code has expired and can no longer be confirmed.', 'Send a new code.', { reason: error.reason });
  }
  if (reason.includes('used') || reason.includes('already')) {
    return new AppError('otp_used', 'This code was already confirmed; a code can be confirmed once only.', 'Send a new code if another confirmation is needed.', { reason: error.reason });
  }
  if (reason.includes('match') || reason.includes('wrong') || reason.includes('invalid') || reason.includes('incorrect')) {
    return new AppError('otp_wrong', 'The code does not match the one that was sent.', 'Check the digits with the recipient and try again.', { reason: error.reason });
  }
  return new AppError('otp_refused', `The code was not accepted (the service said: "${error.reason}").`, 'Check the code and the reference, or send a new code.', { reason: error.reason });
}

export function createMessagingService(app: App): MessagingService {
  return new MessagingService(app);
}
