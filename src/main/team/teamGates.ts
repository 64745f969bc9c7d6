/**
 * The team's answer to the one gate purchases ask (`buying/teamGate.ts`), plugged in by the
 * composition root: a single purchase's policy (`purchaseApproval.ts`: above the team's
 * threshold it waits for approval) and a file's job's (`bulkApproval.ts`: a LIVE job waits for
 * approval, then claims each row before it leaves).
 */
import type { App } from '../appContext';
import type { TeamGate } from '../buying/teamGate';
import { cancelSentForApproval, claimBeforeSend, reportTeamOutcomes, teamApprovalFor, teamJobIdOf } from './bulkApproval';
import { gateSinglePurchase } from './purchaseApproval';

export function teamGates(app: App): TeamGate {
  // Bound, not wrapped: a purchase's path goes from bulk straight into the policy that answers.
  return {
    single: gateSinglePurchase.bind(null, app),
    approvalFor: teamApprovalFor.bind(null, app),
    claimBeforeSend: claimBeforeSend.bind(null, app),
    reportOutcomes: reportTeamOutcomes.bind(null, app),
    cancelSentForApproval: cancelSentForApproval.bind(null, app),
    teamJobIdOf: teamJobIdOf.bind(null, app),
  };
}
