/**
 * The team's answer to the one gate purchases ask (`bulk/teamGate.ts`), plugged in by the
 * composition root: a single purchase's policy (`purchaseApproval.ts`: above the team's
 * threshold it waits for approval) and a file's job's (`bulkApproval.ts`: a LIVE job waits for
 * approval, then claims each row before it leaves).
 */
import type { App } from '../appContext';
import type { TeamGate } from '../bulk/teamGate';
import { cancelSentForApproval, claimBeforeSend, reportTeamOutcomes, teamApprovalFor, teamJobIdOf } from './bulkApproval';
import { gateSinglePurchase } from './purchaseApproval';

export function teamGates(app: App): TeamGate {
  return {
    single: (p, options) => gateSinglePurchase(app, p, options),
    approvalFor: (store, job, current) => teamApprovalFor(app, store, job, current),
    claimBeforeSend: (store, job, log) => claimBeforeSend(app, store, job, log),
    reportOutcomes: (store, localJobId) => reportTeamOutcomes(app, store, localJobId),
    cancelSentForApproval: (localJobId) => cancelSentForApproval(app, localJobId),
    teamJobIdOf: (localJobId) => teamJobIdOf(app, localJobId),
  };
}
