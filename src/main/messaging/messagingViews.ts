/**
 * What the service said about messaging (read by meaning, see api/messagingAnswers.ts) turned into
 * what the app shows: money in kobo, what the answer did not say as null, and a sentence for it.
 */
import { COVERAGE_AREA, type ApprovalView, type ContactView, type MessageView, type PhonebookView, type SenderIdView, type TemplateView } from '../../shared/contract/messaging';
import { parseUseCases } from '../../shared/messagingTemplate';
import type { ApprovalByArea } from '../../shared/wire';
import type { ContactAnswer, MessageAnswer, PhonebookAnswer, SenderIdAnswer, TemplateAnswer } from '../api/messagingAnswers';

/**
 * The approval that counts here: the coverage area's. An area not listed is not approved; when
 * the service says nothing about approval it is UNKNOWN.
 */
export function approvalIn(approval: ApprovalByArea | null): ApprovalView {
  if (approval === null) return 'UNKNOWN';
  return approval[COVERAGE_AREA] ?? 'PENDING';
}

/** APPROVED, or UNKNOWN (the service refuses an unapproved one itself, before charging). */
const usable = (state: ApprovalView): boolean => state === 'APPROVED' || state === 'UNKNOWN';

export function senderIdView(r: SenderIdAnswer): SenderIdView {
  const state = approvalIn(r.approval);
  return { senderId: r.senderId, approval: r.approval ?? {}, state, approved: usable(state), createdAt: r.createdAt };
}

/** A template with an id (the list leaves out those without one). */
export function templateView(r: TemplateAnswer & { id: string }): TemplateView {
  const state = approvalIn(r.approval);
  return {
    id: r.id,
    name: r.name ?? r.slug ?? r.id,
    slug: r.slug ?? '',
    body: r.body,
    indexes: r.indexes ?? [],
    useCases: parseUseCases(r.useCase ?? ''),
    approval: r.approval ?? {},
    state,
    approved: usable(state),
    createdAt: r.createdAt,
  };
}

export function phonebookView(r: PhonebookAnswer): PhonebookView {
  return { id: r.id, name: r.name ?? `Phonebook ${r.id}`, description: r.description ?? '', contactCount: r.contactCount, createdAt: r.createdAt };
}

export function contactView(r: ContactAnswer, index: number): ContactView {
  return { id: r.id ?? index + 1, name: r.name ?? '', phoneNumber: r.phoneNumber, createdAt: r.createdAt };
}

/** Sentences for what a message's answer did not say. */
function messageNotes(m: MessageView): string[] {
  const notes: string[] = [];
  if (m.reference === null)
    notes.push(
      `The service did not give this message's reference${m.requestReference ? ` (its answer's request reference, for support, is ${m.requestReference})` : ''}; find the message in History by its text.`,
    );
  if (m.costSource === 'quoted') notes.push('The service did not say what it charged; the cost shown is the quoted cost you confirmed.');
  else if (m.totalCostKobo === null) notes.push('The service did not say what this message cost.');
  if (m.status === 'UNKNOWN') notes.push('The service did not give the delivery status.');
  return notes;
}

/** A message from the service's answer; `sent` fills the gaps with what vendesk itself sent. */
export function messageView(
  r: MessageAnswer,
  sent?: {
    senderId: string;
    body: string;
    isBulk: boolean;
    phoneBookId: number | null;
    recipients: string[];
    recipientCount: number;
    pages: number;
    emails: string[];
    smsKobo: number;
    emailKobo: number;
    totalKobo: number;
    templateId: string | null;
    at: string;
  },
): MessageView {
  const charged = r.totalKobo !== null;
  const view: MessageView = {
    reference: r.reference,
    requestReference: r.requestReference || null,
    senderId: r.senderId ?? sent?.senderId ?? '',
    // What vendesk sent is the text; a service's `message` field on a send is often a status text.
    body: sent?.body ?? r.body ?? '',
    // A message to one number has one recipient: more than one means a bulk send.
    isBulk: r.isBulk ?? sent?.isBulk ?? (r.recipients ? r.recipients.length > 1 : false),
    phoneBookId: r.phoneBookId ?? sent?.phoneBookId ?? null,
    recipientCount: r.recipientCount ?? sent?.recipientCount ?? null,
    recipients: (r.recipients ?? sent?.recipients ?? []).slice(0, 50),
    pages: r.pages ?? sent?.pages ?? null,
    emails: r.emails ?? sent?.emails ?? [],
    smsCostKobo: charged ? r.smsKobo : (sent?.smsKobo ?? null),
    emailCostKobo: charged ? r.emailKobo : (sent?.emailKobo ?? null),
    totalCostKobo: r.totalKobo ?? sent?.totalKobo ?? null,
    costSource: charged ? 'service' : sent ? 'quoted' : null,
    // A send answered with success was accepted: sent, whatever else it said.
    status: r.status ?? (sent ? 'SENT' : 'UNKNOWN'),
    templateId: r.templateId ?? sent?.templateId ?? null,
    createdAt: r.createdAt ?? sent?.at ?? null,
    notes: [],
  };
  if (charged && view.smsCostKobo === null && view.emailCostKobo === null && sent && r.totalKobo === sent.totalKobo) {
    view.smsCostKobo = sent.smsKobo;
    view.emailCostKobo = sent.emailKobo;
  }
  view.notes = messageNotes(view);
  return view;
}
