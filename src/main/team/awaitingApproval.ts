/**
 * The `awaiting_approval` answer: something was sent for a team member's approval and nothing was
 * bought. Its hint says, in the window's words, what happens next; `details.next` says which of
 * the three ways it goes on, so the CLI says the same with its commands (`cli/cliHints.ts`).
 */
import { AppError } from '../../shared/appError';
import type { AwaitingApprovalDetails } from '../../shared/contract/team';

const THEN: Record<AwaitingApprovalDetails['next'], string> = {
  purchase: 'then buy it there (Approved tab, Buy now), or ask for the same purchase again here',
  bulk: 'then open the job under Purchases → Bulk purchases and press Buy now',
  adopt: 'then run it from the Approved tab (Run here)',
};

export function awaitingApproval(message: string, details: AwaitingApprovalDetails): AppError {
  return new AppError('awaiting_approval', message, `Another team member approves it on the Approvals page; ${THEN[details.next]}.`, details);
}
