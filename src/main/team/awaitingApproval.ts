/**
 * The `awaiting_approval` refusal: something was sent for a team member's approval and nothing was
 * bought, and what was asked cannot go on before it is approved (a job adopted, a purchase resumed
 * before its approval; a single purchase asked for answers its waiting as its state,
 * `WaitingPurchaseView`). Its hint says, in the window's words, what happens next; `details.next`
 * says which of the three ways it goes on, so the CLI says the same with its commands
 * (`cli/cliHints.ts`).
 */
import { AppError } from '../../shared/appError';
import { awaitingApprovalHint, type AwaitingApprovalDetails } from '../../shared/contract/team';

export function awaitingApproval(message: string, details: AwaitingApprovalDetails): AppError {
  return new AppError('awaiting_approval', message, awaitingApprovalHint(details.next), details);
}
