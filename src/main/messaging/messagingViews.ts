/** Wire records of the messaging service turned into what the app shows (money in kobo). */
import { COVERAGE_AREA, type ContactView, type MessageView, type PhonebookView, type SenderIdView, type TemplateView } from '../../shared/contract/messaging';
import { nairaToKobo } from '../../shared/money';
import type { ApprovalByArea, ApprovalState, ContactRecord, MessageRecord, PhonebookRecord, SenderIdRecord, TemplateRecord } from '../../shared/wire';
import { parseUseCases } from '../../shared/messagingTemplate';

/** The approval that counts here: the coverage area's; an area not listed is not approved. */
export function approvalIn(approval: ApprovalByArea): ApprovalState {
  return approval[COVERAGE_AREA] ?? 'PENDING';
}

export function senderIdView(r: SenderIdRecord): SenderIdView {
  const state = approvalIn(r.approval);
  return { senderId: r.senderId, approval: r.approval, state, approved: state === 'APPROVED', createdAt: r.createdAt };
}

export function templateView(r: TemplateRecord): TemplateView {
  const state = approvalIn(r.approval);
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    body: r.body,
    indexes: r.indexes,
    useCases: parseUseCases(r.useCase),
    approval: r.approval,
    state,
    approved: state === 'APPROVED',
    createdAt: r.createdAt,
  };
}

export function phonebookView(r: PhonebookRecord): PhonebookView {
  return { id: r.id, name: r.name, description: r.description, contactCount: r.contactCount, createdAt: r.createdAt };
}

export function contactView(r: ContactRecord): ContactView {
  return { id: r.id, name: r.name, phoneNumber: r.phoneNumber, createdAt: r.createdAt };
}

export function messageView(r: MessageRecord): MessageView {
  return {
    reference: r.reference,
    senderId: r.senderId,
    body: r.body,
    isBulk: r.isBulk,
    phoneBookId: r.phoneBookId,
    recipientCount: r.recipientCount,
    recipients: r.recipients.slice(0, 50),
    pages: r.pages,
    emails: r.emails,
    smsCostKobo: nairaToKobo(r.smsCost),
    emailCostKobo: nairaToKobo(r.emailCost),
    totalCostKobo: nairaToKobo(r.totalCost),
    status: r.status,
    templateId: r.templateId,
    createdAt: r.createdAt,
  };
}
