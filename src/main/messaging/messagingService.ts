/**
 * Messaging for the app, the web shell and the CLI: sender IDs, templates, phonebooks, sending
 * (with the cost the user confirmed checked again just before the request leaves), message
 * status and history. One-time codes live in oneTimeCodes.ts, the record of every paid send in
 * paidSends.ts, contacts imports in contactsImport.ts.
 */
import type { MessageHistoryView, MessageQuote, MessageView, PhonebookContactsPage, PhonebookView, SenderIdView, TemplateView } from '../../shared/contract/messaging';
import { AppError } from '../../shared/appError';
import { messageCost } from '../../shared/messagingCost';
import { analyzeTemplate, renderTemplate, slugify } from '../../shared/messagingTemplate';
import type { SendMessageBody } from '../../shared/wire';
import type { PhonebookAnswer, TemplateAnswer } from '../api/messagingAnswers';
import { ServiceError } from '../api/serviceErrors';
import type { VendingClient } from '../api/vendingClient';
import type { App, AppPart } from '../appContext';
import { costChanged, messageCharge, now, paidSend } from './paidSends';
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
export function serviceKeyOf(app: AppPart<'connection'>): string {
  return app.connection.profileId;
}

const hasId = (t: TemplateAnswer): t is TemplateAnswer & { id: string } => t.id !== null;
const newestFirst = (a: { createdAt: string | null }, b: { createdAt: string | null }): number => (b.createdAt ?? '').localeCompare(a.createdAt ?? '');

export class MessagingService {
  constructor(private readonly app: App) {}

  // ------------------------------------------------------------ sender IDs and templates

  async senderIds(): Promise<SenderIdView[]> {
    return (await this.app.client().getSenderIds()).map(senderIdView);
  }

  async templates(): Promise<TemplateView[]> {
    return (await this.app.client().getTemplates()).filter(hasId).map(templateView).sort(newestFirst);
  }

  async createTemplate(input: { name: string; slug?: string; body: string; useCases: string[] }): Promise<TemplateView> {
    const analysis = analyzeTemplate(input.body);
    if (!analysis.ok) {
      throw new AppError('template_invalid', analysis.problems.map((p) => p.message).join(' '), 'Correct the template text and create it again.');
    }
    const slug = input.slug?.trim() || slugify(input.name) || 'template';
    const sent = { body: input.body, indexes: analysis.indexes, name: input.name.trim(), slug, useCase: input.useCases.join(',') };
    const answer = await this.app.client().createTemplate(sent);
    // What the answer does not say is what was sent; a missing id is looked up in the list.
    const listed = answer.id === null ? (await this.app.client().getTemplates()).filter((t) => t.id !== null && t.name === sent.name).sort(newestFirst)[0] : undefined;
    const id = answer.id ?? listed?.id ?? null;
    if (id === null) {
      // Created, though the operation fails: the Templates list shows it.
      this.app.invalidate(['templates'], 'template created without an id');
      throw createdWithoutId('template', sent.name, 'Templates');
    }
    return templateView({
      id,
      name: answer.name ?? sent.name,
      slug: answer.slug ?? sent.slug,
      body: answer.body ?? sent.body,
      indexes: answer.indexes ?? sent.indexes,
      useCase: answer.useCase ?? sent.useCase,
      approval: answer.approval ?? listed?.approval ?? null,
      createdAt: answer.createdAt ?? listed?.createdAt ?? now(),
    });
  }

  /** Refuses a sender ID that is not registered, or not approved, for the organisation (asked of `client`: the connection in use unless a session's is given). */
  async approvedSender(senderId: string, client: VendingClient = this.app.client()): Promise<void> {
    const all = (await client.getSenderIds()).map(senderIdView);
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

  private async findTemplate(templateId: string): Promise<TemplateView | null> {
    return (await this.templates()).find((t) => t.id === templateId) ?? null;
  }

  private async approvedTemplate(templateId: string): Promise<TemplateView> {
    const view = await this.findTemplate(templateId);
    if (!view) throw new AppError('template_unknown', `There is no template with id ${templateId}.`, 'Choose a template from the Templates tab.');
    if (!view.approved) {
      throw new AppError(
        'template_not_approved',
        `The template "${view.name}" is not approved for sending in Nigeria (it is ${view.state}).`,
        view.state === 'REJECTED' ? 'Create a new template with different wording.' : 'Wait until it is approved (the Templates tab shows its state), then send.',
      );
    }
    return view;
  }

  // ------------------------------------------------------------ phonebooks

  async phonebooks(): Promise<PhonebookView[]> {
    return (await this.app.client().getPhonebooks()).map(phonebookView);
  }

  async createPhonebook(input: { name: string; description: string }): Promise<PhonebookView> {
    const answer = await this.app.client().createPhonebook({ name: input.name, description: input.description });
    // A missing id is looked up in the list: the newest phonebook of that name.
    const listed = answer.id === null ? (await this.app.client().getPhonebooks()).filter((p) => p.name === input.name).sort((a, b) => b.id - a.id)[0] : undefined;
    const id = answer.id ?? listed?.id ?? null;
    if (id === null) {
      // Created, though the operation fails: the Phonebooks list shows it.
      this.app.invalidate(['phonebooks'], 'phonebook created without an id');
      throw createdWithoutId('phonebook', input.name, 'Phonebooks');
    }
    return phonebookView({
      id,
      name: answer.name ?? input.name,
      description: answer.description ?? input.description,
      contactCount: answer.contactCount ?? listed?.contactCount ?? 0,
      createdAt: answer.createdAt ?? listed?.createdAt ?? now(),
      contacts: null,
    });
  }

  async phonebook(input: { id: number; offset: number; limit: number; search: string }): Promise<PhonebookContactsPage> {
    const record = await this.getPhonebookOrExplain(input.id);
    const contacts = record.contacts ?? [];
    const q = input.search.toLowerCase();
    const digits = q.replace(/\D/g, '');
    const matching = q ? contacts.filter((c) => (c.name ?? '').toLowerCase().includes(q) || (digits.length > 0 && c.phoneNumber.includes(digits.replace(/^234/, '0')))) : contacts;
    return {
      phonebook: phonebookView({ ...record, contactCount: record.contacts?.length || record.contactCount }),
      contacts: matching.slice(input.offset, input.offset + input.limit).map((c, i) => contactView(c, input.offset + i)),
      matching: matching.length,
      offset: input.offset,
      contactsListed: record.contacts !== null,
    };
  }

  async getPhonebookOrExplain(id: number): Promise<PhonebookAnswer> {
    let found: PhonebookAnswer | null;
    try {
      found = await this.app.client().getPhonebook(id);
    } catch (error) {
      if (error instanceof ServiceError && error.httpStatus === 404) found = null;
      else throw error;
    }
    if (!found)
      throw new AppError('phonebook_not_found', `There is no phonebook with id ${id}.`, 'Choose one from the Phonebooks tab (vendesk phonebook list), or create it first.');
    return found;
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
      const listed = (await this.app.client().getPhonebooks()).find((p) => p.id === phoneBookId);
      if (!listed)
        throw new AppError(
          'phonebook_not_found',
          `There is no phonebook with id ${phoneBookId}.`,
          'Choose one from the Phonebooks tab (vendesk phonebook list), or create it first.',
        );
      const pb = phonebookView(listed);
      // A list that does not say how many contacts it holds: count them in the phonebook itself.
      const count = listed.contactCount ?? (await this.getPhonebookOrExplain(phoneBookId)).contacts?.length ?? null;
      if (count === null) {
        throw new AppError(
          'phonebook_count_unknown',
          `The service did not say how many contacts the phonebook "${pb.name}" holds, so vendesk cannot show what a message to it costs. Nothing was sent.`,
          "Send to the phonebook from the service's own portal, or ask the service provider how its phonebook list gives the number of contacts.",
        );
      }
      recipients = count;
      recipientsLabel = `${pb.name} (${recipients.toLocaleString('en-NG')} contact${recipients === 1 ? '' : 's'})`;
      if (recipients === 0) {
        throw new AppError('phonebook_empty', `The phonebook "${pb.name}" has no contacts.`, 'Import contacts into it on the Phonebooks tab first.');
      }
    }
    return { ...messageCost({ text: body, recipients, emails: input.emails.length }), body, recipientsLabel };
  }

  private async bodyOf(content: MessageContent, requireApproved: boolean): Promise<string> {
    if (content.kind === 'text') return content.text;
    const template = requireApproved ? await this.approvedTemplate(content.templateId) : await this.findTemplate(content.templateId);
    if (!template) throw new AppError('template_unknown', `There is no template with id ${content.templateId}.`, 'Choose a template from the Templates tab.');
    if (template.body === null) {
      throw new AppError(
        'template_text_unknown',
        `The service did not give the text of the template "${template.name}", so vendesk cannot show what a message with it says or costs. Nothing was sent.`,
        "Type the text instead, or send with this template from the service's own portal.",
      );
    }
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
    const session = this.app.session();
    await this.approvedSender(input.senderId);
    if (input.content.kind === 'template') await this.approvedTemplate(input.content.templateId);
    const quote = await this.quote(input);
    if (quote.totalKobo !== input.confirmedTotalKobo) {
      throw costChanged(quote.totalKobo, input.confirmedTotalKobo, `${quote.recipients.toLocaleString('en-NG')} recipient(s)`, { quote });
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
    const templateId = input.content.kind === 'template' ? input.content.templateId : null;
    const { answer } = await paidSend(
      this.app,
      session,
      { kind: 'sms', senderId: input.senderId, target, templateId, body: quote.body, recipients: quote.recipients, emails: quote.emails, quotedKobo: quote.totalKobo },
      (client, options) => client.sendMessage(body, options),
      (r) => messageCharge(r, quote.totalKobo),
    );
    return messageView(answer, {
      senderId: input.senderId,
      body: quote.body,
      isBulk: input.target.kind === 'phonebook',
      phoneBookId: input.target.kind === 'phonebook' ? input.target.phoneBookId : null,
      recipients: input.target.kind === 'number' ? [input.target.to] : [],
      recipientCount: quote.recipients,
      pages: quote.pages,
      emails: input.emails,
      smsKobo: quote.smsKobo,
      emailKobo: quote.emailKobo,
      totalKobo: quote.totalKobo,
      templateId,
      at: now(),
    });
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
    const totalPages = answer.totalPages ?? (answer.totalRecords !== null ? Math.ceil(answer.totalRecords / input.perPage) : null);
    return {
      items: answer.items.map((m) => messageView(m)),
      page: input.page,
      perPage: input.perPage,
      totalPages,
      totalRecords: answer.totalRecords,
      // Without a count, a full page or a next-page link says there may be more.
      hasMore: totalPages !== null ? input.page < totalPages : answer.nextPage !== null || answer.items.length >= input.perPage,
    };
  }
}

/** A template or phonebook the service created (it answered success) without saying its id, and not listed yet. */
function createdWithoutId(what: 'template' | 'phonebook', name: string, tab: string): AppError {
  return new AppError(
    `${what}_id_unknown`,
    `The ${what} "${name}" was created, but the service did not give its id and it is not in the ${what} list yet.`,
    `Refresh the ${tab} tab in a moment; do not create it again.`,
  );
}

export function createMessagingService(app: App): MessagingService {
  return new MessagingService(app);
}
